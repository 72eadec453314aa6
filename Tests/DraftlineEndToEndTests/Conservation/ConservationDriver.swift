import DraftlineTestSupport
import Foundation
import ReferenceModel

/// Plays random sequences of abstract steps (``ModelStep``) through the real binary on a
/// pseudo-terminal and on a pipe, and holds both, after every entry of the alphabet, to the
/// reference model of SPEC §1a (``ReferenceModel``): what was sent (the trace file), every
/// draft (text, cursor, media), the undo stack, the edit line (terminal) and the screen.
/// Three results that must agree: the model's, the terminal's and the pipe's.
///
/// The sequence is chosen from the terminal's model; the pipe is given what a pipe can say
/// of each step, and its own model follows what it was given. A disagreement is recorded
/// with the steps that led to it, and that side starts again from a fresh process.
final class ConservationDriver {
    let vi: Bool
    let seed: UInt64
    var random: SeededGenerator
    let terminal: TerminalSide
    let pipe: PipeSide
    /// How many times each entry of the alphabet was played, and the seconds it took.
    var tally: [String: Int] = [:]
    var seconds: [String: Double] = [:]
    var sequences = 0
    /// The entries of this sequence, in plain words, and of the two before.
    var words: [String] = []
    var earlier: [[String]] = []
    var disagreements: [Disagreement] = []
    /// Whether the last look failed, and was recorded (``looking(_:_:)``).
    var lookFailed = false
    /// Tokens typed so far.
    var tokens = 0
    let started = PseudoTerminal.now()

    struct Disagreement: CustomStringConvertible {
        var side: String
        var sequence: Int
        var seconds: Double
        var steps: [String]
        var before: [[String]]
        var differences: [String]
        var output: String
        var description: String {
            "\(side), sequence \(sequence) (\(String(format: "%.1f", seconds)) s): "
                + (before.isEmpty
                    ? "" : "after \(before.map { $0.joined(separator: ", ") }.joined(separator: " | ")) | ")
                + "steps: \(steps.joined(separator: ", "))\n    " + differences.joined(separator: "\n    ")
        }
    }

    init(vi: Bool, seed: UInt64) throws {
        self.vi = vi
        self.seed = seed
        random = SeededGenerator(seed: seed)
        terminal = try TerminalSide(vi: vi)
        pipe = try PipeSide(attachment: terminal.attachment)
    }

    func pick(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// One sequence: one to three edit lines, each some editing then an ending key.
    func playSequence() throws {
        if !words.isEmpty { earlier.append(words) }
        if earlier.count > 2 { earlier.removeFirst() }
        words = []
        sequences += 1
        for _ in 0..<Int.random(in: 1...3, using: &random) { try playLine() }
    }

    /// Plays one entry of the alphabet on both sides, then looks at both.
    func play(_ label: String, _ steps: [ModelStep]) throws {
        let began = PseudoTerminal.now()
        defer { seconds[label, default: 0] += PseudoTerminal.now() - began }
        tally[label, default: 0] += 1
        words.append(describe(label, steps))
        var trouble: (terminal: String?, pipe: String?) = (nil, nil)
        for step in steps {
            if let problem = try terminal.play(step) { trouble.terminal = trouble.terminal ?? problem }
            if let problem = try pipe.play(step) { trouble.pipe = trouble.pipe ?? problem }
        }
        try compare(trouble)
    }

    func describe(_ label: String, _ steps: [ModelStep]) -> String {
        let shown = steps.map(\.description).joined(separator: " ")
        return label == shown ? label : "\(label) [\(shown)]"
    }

    /// A recall (terminal only: a pipe has no history keys); `down`: Down over a recall.
    func recall(_ label: String, keys: String, down: Bool = false) throws {
        tally[label, default: 0] += 1
        words.append(label)
        guard let seen = try looking(terminal, { try terminal.recall(keys: keys, down: down) }) else {
            if lookFailed { return }
            check(terminal, [], "draftline ended")
            return try terminal.startAgain()
        }
        words[words.count - 1] = "\(label) → \((seen.line ?? "").debugDescription)"
        if check(terminal, terminal.differences(seen), nil) { try terminal.startAgain() }
    }

    /// Looks at both sides and compares each with its model. A look that fails (draftline
    /// stalled: what it should print did not come within its deadline) is a disagreement
    /// like any other, recorded with the steps that led to it, and that side starts again.
    func compare(_ trouble: (terminal: String?, pipe: String?)) throws {
        if let seen = try looking(terminal, terminal.look) {
            if check(terminal, terminal.differences(seen), trouble.terminal) { try terminal.startAgain() }
        } else if !lookFailed {
            check(terminal, [], trouble.terminal ?? "draftline ended")
            try terminal.startAgain()
        }
        if pipe.exited && trouble.pipe == nil {
            check(pipe, [], "draftline quit")
            try pipe.startAgain()
        } else if let piped = try looking(pipe, pipe.look) {
            if check(pipe, pipe.differences(piped), trouble.pipe) { try pipe.startAgain() }
        } else if let problem = trouble.pipe, !lookFailed {
            check(pipe, [], problem)
            try pipe.startAgain()
        }
    }

    /// A side's look; when it throws, the failure is recorded with the steps, the side starts
    /// again, and the answer is `nil` (``lookFailed`` says so).
    func looking(_ side: Side, _ look: () throws -> Observation?) throws -> Observation? {
        lookFailed = false
        do {
            return try look()
        } catch {
            lookFailed = true
            check(side, [], "the look failed: \(error)")
            if let terminal = side as? TerminalSide { try terminal.startAgain() }
            if let pipe = side as? PipeSide { try pipe.startAgain() }
            return nil
        }
    }

    /// Records a disagreement; `true` when there was one.
    @discardableResult
    func check(_ side: Side, _ differences: [String], _ trouble: String?) -> Bool {
        let all = (trouble.map { [$0] } ?? []) + differences
        guard !all.isEmpty else { return false }
        let output = (side as? TerminalSide)?.lastOutput ?? (side as? PipeSide)?.lastOutput ?? ""
        disagreements.append(
            Disagreement(
                side: side.name, sequence: sequences, seconds: PseudoTerminal.now() - started, steps: words,
                before: earlier, differences: all, output: output))
        Self.log?.write(Data((disagreements.last!.description + "\n\n").utf8))
        return true
    }

    /// `CONSERVATION_LOG=path`: every disagreement written there as it is found.
    static let log: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["CONSERVATION_LOG"] else { return nil }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }()

    /// The messages both processes stored, read by Python's `plistlib`, against what each
    /// one's trace says it sent (and what bob sent it): the store holds exactly those.
    func storedMessagesAgree() throws -> [String] {
        var problems: [String] = []
        for side in [terminal as Side, pipe] {
            for user in ["alice", "bob"] {
                let stored = try side.fixture.messages(in: user).filter { $0.author == "me" }
                    .map { $0.type == "text" ? $0.content : "<\($0.type)>" }
                let mine = side.sent.filter { $0.chat == user }.map { $0.type == "text" ? $0.text : "<\($0.type)>" }
                if stored != mine {
                    problems.append(
                        "\(side.name) \(user): plistlib reads \(stored.count) messages, the trace sent \(mine.count)")
                }
            }
        }
        return problems
    }
}
