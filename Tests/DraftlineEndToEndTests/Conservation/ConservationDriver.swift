import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// Plays random sequences of keys on the real binary and checks SPEC §1a's law after every
/// event: every character the sequence typed or pasted is in a message it meant to send, a
/// draft, the undo stack or the edit line, unless one of its editing keys deleted it (or it
/// quit); and nothing was sent that it did not enter as a message.
///
/// The test tracks its own text as *tokens* (`T00042`, some with a CJK, emoji or accented
/// character in front), each typed once. It does not model draftline's rules: after every
/// event it asks draftline where everything is (`^X d`: drafts, undo stack, edit line,
/// prompt) and reads what was sent from the trace file, and looks for every token.
final class ConservationDriver {
    let fixture: Fixture
    let vi: Bool
    var terminal: PseudoTerminal
    var random: SeededGenerator
    /// The other side: `--as bob` on a pipe, talking to `me`; each line it is given arrives.
    let bob: PipedProcess
    let attachment: String

    /// Every text and media message sent, in order: (type, text), from the trace file.
    var sent: [(type: String, text: String)] = []
    private var traceRead = 0
    var traceFile: String { fixture.root + "/trace.jsonl" }

    /// Tokens typed or pasted that must be somewhere, by number; and why others no longer must.
    var live: [Int: String] = [:]
    var excused: [String: Int] = [:]
    /// Tokens found in sent messages (accounted for for good).
    var sentTokens = 0
    private var nextToken = 0
    var arrivals = 0

    /// The edit line as this read has made it, and what it was given.
    var line = TrackedLine()
    var given = ""
    /// What draftline last showed with `^X d`.
    var observation: Observation
    /// In vi mode: whether the editor is in command mode.
    var commandMode = false
    /// Whether a recall replaced the line in this read.
    var recalled = false
    /// How many times each entry of the alphabet was played.
    var tally: [String: Int] = [:]
    /// The keys of the current sequence and the ones before, for a failure message.
    var actions: [String] = []
    var earlier: [[String]] = []
    /// Sequences played.
    var sequences = 0

    static let fillers = ["hello", "草稿", "😀", "ok", "é", "at 5"]
    static let prefixes = ["", "", "草", "😀", "é"]

    init(vi: Bool, seed: UInt64) throws {
        fixture = try Fixture()
        self.vi = vi
        random = SeededGenerator(seed: seed)
        attachment = fixture.root + "/photo.png"
        _ = FileManager.default.createFile(atPath: attachment, contents: Data([0x89, 0x50]))
        bob = try fixture.startPiped(["--as", "bob"])
        try bob.write("/open me\n")
        try bob.waitFor("── chat with me ──")
        terminal = try Self.start(fixture, vi: vi, trace: fixture.root + "/trace.jsonl")
        observation = Observation(lines: "", after: "")
        try beginRead()
    }

    static func start(_ fixture: Fixture, vi: Bool, trace: String) throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(
            (vi ? ["--editor", "vi"] : []) + ["--trace-file", trace], environment: ["NO_COLOR": "1"])
        return terminal
    }

    var context: String {
        "sequence \(sequences): actions \(actions) after \(earlier.suffix(2)); line \(line), given "
            + "\(given.debugDescription); last seen: \(observation.text.debugDescription) at \(observation.prompt)"
    }

    /// A failure that says what the sequence did, and what the terminal showed last.
    func failure(_ what: String) -> PseudoTerminal.Failure {
        PseudoTerminal.Failure(
            description: what + "\nthe terminal's last output: " + String(terminal.text.suffix(4000)).debugDescription)
    }

    func pick(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// `CONSERVATION_LOG=path`: every key and every observation written there, for reading
    /// a failure step by step.
    static let log: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["CONSERVATION_LOG"] else { return nil }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }()

    func note(_ text: String) {
        Self.log?.write(Data((text + "\n").utf8))
    }

    func press(_ keys: String, _ label: String) throws {
        note("press \(label) \(keys.debugDescription)  [line \(line)]")
        actions.append(label)
        tally[label.split(separator: " ").first.map(String.init) ?? label, default: 0] += 1
        try terminal.send(keys)
    }

    // MARK: - Reads and observing

    /// Waits for the next read (draftline switches bracketed paste on when it asks for the
    /// first key: the line is drawn and the terminal raw); `false` when draftline quit.
    func waitForRead() throws -> Bool {
        try terminal.waitForAny(["\u{1B}[?2004h"], timeout: 30) != nil
    }

    /// `^X d`: where everything is. Changes nothing.
    func observe() throws -> Observation {
        defer { note("observed") }
        try terminal.send("\u{18}d")
        let before = try terminal.waitFor("edit line: \"", timeout: 30)
        let row = try terminal.waitFor("\r\n", timeout: 30)
        // Then the prompt is drawn again, and the line after it: the earliest prompt wins
        // (`profile alice> ` starts before the `alice> ` inside it).
        guard let (index, _) = try terminal.waitForAny(Observation.prompts, timeout: 30) else {
            throw failure("draftline ended during ^X d; \(context)")
        }
        return Observation(lines: before + "edit line: \"" + row, after: Observation.prompts[index])
    }

    /// At the start of a read: what the line was given, and where everything is.
    func beginRead() throws {
        observation = try observe()
        note(
            "read starts at \(observation.prompt.debugDescription) with \(observation.line.debugDescription)@\(observation.cursor); drafts \(observation.drafts.map(\.text)); undo \(observation.undo.map(\.text))"
        )
        given = observation.line.replacingOccurrences(of: "^J", with: "\n")
        line = TrackedLine(given, cursor: observation.cursor)
        commandMode = false
        recalled = false
    }

    /// Checks the tracked line against the line draftline shows.
    func verifyLine(_ when: String) throws {
        let seen = try observe()
        let shown = TerminalText.visible(line.text, keepNewlines: false)
        guard seen.line == shown && seen.cursor == line.cursor else {
            throw PseudoTerminal.Failure(
                description:
                    "\(when): the line is \(seen.line.debugDescription)@\(seen.cursor), the test has \(line); \(context)"
            )
        }
        observation = seen
    }

    // MARK: - Tokens

    func newToken() -> String {
        nextToken += 1
        let token = Self.prefixes.randomElement(using: &random)! + "T" + String(format: "%05d", nextToken)
        live[nextToken] = token
        return token
    }

    /// The numbers of the live tokens whole in `text`.
    func tokens(in text: String) -> Set<Int> {
        Set(live.filter { text.contains($0.value) }.keys)
    }

    /// Types text at the cursor. A token the text lands inside is split: each piece that
    /// still holds the token's number whole is tracked on; the token itself is excused.
    func insert(_ text: String) {
        let before = line
        let whole = tokens(in: before.text)
        line.insert(text)
        for number in whole.subtracting(tokens(in: line.text)) {
            guard let token = live[number] else { continue }
            live[number] = nil
            let scalars = Array(token.unicodeScalars)
            guard
                let start = before.text.range(of: token).map({
                    before.text.unicodeScalars.distance(
                        from: before.text.unicodeScalars.startIndex,
                        to: $0.lowerBound.samePosition(in: before.text.unicodeScalars)!)
                })
            else { continue }
            let cut = before.cursor - start
            let pieces = [scalars[..<max(0, min(cut, scalars.count))], scalars[max(0, min(cut, scalars.count))...]]
            var kept = false
            for piece in pieces where piece.count >= 6 && piece.first == "T" {
                nextToken += 1
                live[nextToken] = String(String.UnicodeScalarView(piece))
                kept = true
            }
            excused[
                kept ? "split by the sequence's own typing (the number kept)" : "split by the sequence's own typing",
                default: 0] += 1
        }
    }

    /// A place in the line between tokens (a space, or an end), for typing into.
    func boundary() -> Int {
        let scalars = Array(line.text.unicodeScalars)
        let places = [0] + scalars.indices.filter { scalars[$0] == " " || scalars[$0] == "\n" } + [scalars.count]
        return places.randomElement(using: &random)!
    }

    /// An editing key deleted some of the line: tokens no longer whole in it are excused.
    func deleted(from before: String) {
        for number in tokens(in: before).subtracting(tokens(in: line.text)) {
            live[number] = nil
            excused["deleted by an editing key", default: 0] += 1
        }
    }

    // MARK: - The law

    /// Reads what was sent since the last look (the trace file, one JSON object a line).
    func readSent() throws -> [(type: String, text: String)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: traceFile))
        guard data.count > traceRead else { return [] }
        let fresh = data[traceRead...]
        guard let end = fresh.lastIndex(of: 0x0A) else { return [] }
        traceRead = end + 1
        var found: [(String, String)] = []
        for row in fresh[..<end].split(separator: 0x0A) {
            guard let object = try JSONSerialization.jsonObject(with: Data(row)) as? [String: Any],
                object["event"] as? String == "sent"
            else { continue }
            found.append((object["type"] as? String ?? "", object["text"] as? String ?? ""))
        }
        return found
    }

    /// After an event: what was sent is what was meant, and every live token is somewhere.
    /// A token in a sent message is accounted for for good: it stops being tracked.
    func check(expecting expected: [(type: String, text: String)]) throws {
        let fresh = try readSent()
        note("sent \(fresh), meant \(expected)")
        sent += fresh
        let same = fresh.count == expected.count && zip(fresh, expected).allSatisfy { $0 == $1 }
        guard same else {
            throw failure("sent \(fresh), meant \(expected); \(context)")
        }
        settleSent(fresh)
        let missing = live.filter { !observation.text.contains($0.value) }.map(\.value).sorted()
        guard missing.isEmpty else {
            throw failure("lost \(missing); \(context)")
        }
    }

    /// Tokens in these sent messages are accounted for for good.
    func settleSent(_ messages: [(type: String, text: String)]) {
        guard !messages.isEmpty else { return }
        let text = messages.map(\.text).joined(separator: "\n")
        for (number, token) in live where text.contains(token) {
            live[number] = nil
            sentTokens += 1
        }
    }

    /// draftline quit: every draft and the undo stack are forgotten, by design.
    func forgetUnsent() {
        excused["forgotten when draftline quit", default: 0] += live.count
        live.removeAll()
    }
}
