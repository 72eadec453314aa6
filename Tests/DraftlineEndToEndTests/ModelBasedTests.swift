import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// Seeded random sequences of user actions, played on the real binary through a
/// pseudo-terminal and on ``DraftModel`` alike: typing and moving, the leave keys,
/// `^X /`, commands typed into restored drafts at random cursor positions, Ctrl-C,
/// Ctrl-D, Up and `^R` recall then Enter, `/undo`, `/discard`, `/attach`, and vi mode
/// with Escape. After every sequence the draft map (`^X d`, which touches nothing)
/// must equal the model's; every 25 sequences and at the end, the messages stored (read
/// with plistlib) must too.
@Suite("The draft rules against a reference model", .serialized)
struct ModelBasedTests {
    static let seed: UInt64 = {
        ProcessInfo.processInfo.environment["MODEL_SEED"].flatMap { UInt64($0) } ?? 0xD2AF_7E57
    }()
    /// Sequences in emacs mode, then in vi mode.
    static let sequences: (emacs: Int, vi: Int) = {
        let total = ProcessInfo.processInfo.environment["MODEL_SEQUENCES"].flatMap { Int($0) } ?? 1100
        return (total * 8 / 11, total - total * 8 / 11)
    }()

    @Test func emacsModeFollowsTheModel() throws {
        try Driver(vi: false, seed: Self.seed).play(Self.sequences.emacs)
    }

    @Test func viModeFollowsTheModel() throws {
        try Driver(vi: true, seed: Self.seed ^ 0xFFFF).play(Self.sequences.vi)
    }
}

/// Plays random actions on the binary and the model and compares them.
final class Driver {
    let fixture: Fixture
    let vi: Bool
    var terminal: PseudoTerminal
    var model = DraftModel()
    var random: SeededGenerator
    /// The actions of the current sequence, for the failure message.
    var actions: [String] = []
    /// In vi mode: whether the editor is in command mode.
    var commandMode = false
    let attachment: String

    static let words = ["hello", "bob", "ID is", "x", "meeting", "42", "草稿", "你好", "😀", " ", "at 5"]
    /// Tokens that tell history entries apart, for ^R: `#` and four digits, each typed once.
    var tokens = 0

    init(vi: Bool, seed: UInt64) throws {
        fixture = try Fixture()
        self.vi = vi
        random = SeededGenerator(seed: seed)
        attachment = fixture.root + "/photo.png"
        try #require(FileManager.default.createFile(atPath: attachment, contents: Data([0x89, 0x50])))
        terminal = try Self.start(fixture, vi: vi)
    }

    static func start(_ fixture: Fixture, vi: Bool) throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(vi ? ["--editor", "vi"] : [], environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ", timeout: 30, idle: 10)
        return terminal
    }

    func pick(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// How often each kind of action was played.
    var tally: [String: Int] = [:]

    func send(_ keys: String, _ label: String) throws {
        actions.append(label)
        let kind = label.hasPrefix("type /") ? "command into draft" : String(label.prefix { $0 != " " })
        tally[kind, default: 0] += 1
        try terminal.send(keys)
    }

    /// Waits for a prompt: a new read, which starts in insert mode in vi.
    func waitForPrompt(_ prompt: String? = nil) throws {
        try terminal.waitForPrompt(prompt ?? model.screen.prompt, timeout: 30, idle: 10)
        commandMode = false
    }

    /// The actions of the sequences before, most recent last.
    var earlier: [[String]] = []

    var context: String {
        "actions \(actions) after \(earlier.suffix(3)), model line \(model.line), screen \(model.screen)"
    }

    func play(_ count: Int) throws {
        for sequence in 0..<count {
            if !actions.isEmpty { earlier.append(actions) }
            actions = []
            do {
                try playOne()
            } catch {
                throw PseudoTerminal.Failure(description: "sequence \(sequence): \(context)\n\(error)")
            }
            try compareDrafts("after sequence \(sequence)")
            if sequence % 25 == 24 { try compareMessages("after sequence \(sequence)") }
        }
        try compareMessages("at the end")
        let expected =
            vi
            ? [
                "Escape", "^X", "Ctrl-C", "Ctrl-D", "command into draft", "/undo", "/discard", "/attach", "Enter", "a",
                "h", "l",
            ]
            : [
                "^X", "Ctrl-C", "Ctrl-D", "Up", "^R", "command into draft", "/undo", "/discard", "/attach", "Enter",
                "^U",
            ]
        print(
            "model-based test (\(vi ? "vi" : "emacs")): \(count) sequences, actions played: \(tally.sorted { $0.key < $1.key })"
        )
        for kind in expected {
            #expect(tally[kind, default: 0] >= count / 100, "\(kind) played \(tally[kind, default: 0]) times: \(tally)")
        }
        if !model.hasQuit {
            try send("\u{15}/quit\r", "quit")
            #expect(try terminal.waitForExit() == .exited(0))
        }
    }

    // MARK: - Observing

    /// The draft map, shown by ^X d above the line: the line and the cursor stay put.
    func observedDrafts() throws -> [String] {
        try terminal.send("\u{18}d")
        let shown = try terminal.waitFor(model.screen.prompt, timeout: 30, idle: 10)
        try terminal.waitForRawMode()
        return shown.split(whereSeparator: \.isNewline).compactMap { row in
            guard row.hasPrefix("  "), let age = row.range(of: "  age ") else { return nil }
            return String(row[row.index(row.startIndex, offsetBy: 2)..<age.lowerBound])
        }
    }

    func compareDrafts(_ when: String) throws {
        let shown = try observedDrafts()
        #expect(shown == model.draftMap, "\(when): draft map differs; \(context)")
        if shown != model.draftMap { throw PseudoTerminal.Failure(description: "stopped at the first difference") }
    }

    func compareMessages(_ when: String) throws {
        for user in ["alice", "bob"] {
            let stored = try fixture.messages(in: user).map { DraftModel.Sent(type: $0.type, content: $0.content) }
            #expect(stored == model.sent[user] ?? [], "\(when): messages to \(user) differ; \(context)")
            if stored != model.sent[user] ?? [] {
                throw PseudoTerminal.Failure(description: "stopped at the first difference")
            }
        }
    }

    // MARK: - Actions

    func playOne() throws {
        switch model.screen {
        case .home: try atHome()
        case .profile: try atProfile()
        case .chat(let user): try inChat(user)
        }
    }

    func atHome() throws {
        let user = Bool.random(using: &random) ? "alice" : "bob"
        if pick(12) {
            try quitKey()
        } else if pick(25) {
            try leaveToOpen(user)
        } else {
            model.quitPending = false
            try send("/open \(user)\r", "/open \(user)")
            model.remember("/open \(user)")
            model.open(user)
            try waitForPrompt()
        }
    }

    func atProfile() throws {
        model.quitPending = false
        if Bool.random(using: &random) {
            try send("/back\r", "/back")
            model.remember("/back")
            model.run("/back")
        } else {
            try send("\u{18}b", "^X b")
            model.leaveBack()
        }
        try waitForPrompt()
    }

    func inChat(_ user: String) throws {
        let restored = model.line == (model.drafts[DraftModel.key(user)] ?? DraftModel.Line())
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 10 && restored && !model.line.isEmpty {
            try commandIntoDraft()
            return
        }
        if !vi && roll < 14 {
            try recall()
            return
        }
        try edit()
        let finish = Int.random(in: 0..<100, using: &random)
        // Editing keys reach no one; every other key is an event, and disarms a pending
        // Ctrl-D.
        if !(72..<78).contains(finish) { model.quitPending = false }
        switch finish {
        case 0..<16: try enterLine()
        case 16..<30:
            try send("\u{18}b", "^X b")
            model.leaveBack()
            try waitForPrompt()
        case 30..<40:
            try send("\u{18}p", "^X p")
            model.leaveToProfile()
            try waitForPrompt()
        case 40..<50: try leaveToOpen(Bool.random(using: &random) ? "alice" : "bob")
        case 50..<60:
            let command = ["drafts", "chats", "undo", "discard"].randomElement(using: &random)!
            try send("\u{18}/", "^X /")
            try waitForPrompt("command: /")
            try send(command + "\r", command)
            model.remember(command)
            model.commandKey("/" + command)
            commandMode = false
            try waitForPrompt()
        case 60..<72: try interrupt()
        case 72..<78: try quitKey()
        default:
            let command = ["/undo", "/discard", "/attach \(attachment)", "/drafts"].randomElement(using: &random)!
            try clearLine()
            try send(command + "\r", command)
            model.enter(command: command)
            commandMode = false
            try waitForPrompt()
        }
    }

    /// A few editing keys.
    func edit() throws {
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            if vi { try viEdit() } else { try emacsEdit() }
        }
    }

    /// A word to type: mostly from the list, sometimes a new token.
    func word() -> String {
        guard pick(15) else { return Self.words.randomElement(using: &random)! }
        tokens += 1
        return " #" + String(format: "%04d", tokens)
    }

    func emacsEdit() throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            let word = word()
            try send(word, "type \(word)")
            model.line.insert(word)
        case 45..<55:
            try send("\u{1}", "^A")
            model.line.cursor = 0
        case 55..<65:
            try send("\u{5}", "^E")
            model.line.cursor = model.line.scalars.count
        case 65..<80:
            try send("\u{2}", "^B")
            model.line.cursor = max(0, model.line.cursor - 1)
        case 80..<93:
            try send("\u{6}", "^F")
            model.line.cursor = min(model.line.scalars.count, model.line.cursor + 1)
        default:
            try send("\u{15}", "^U")
            model.line = DraftModel.Line()
        }
    }

    func viEdit() throws {
        let count = model.line.scalars.count
        if !commandMode {
            if pick(60) {
                let word = word()
                try send(word, "type \(word)")
                model.line.insert(word)
            } else {
                try send("\u{1B}", "Escape")
                commandMode = true
                model.line.cursor = max(0, model.line.cursor - 1)
            }
            return
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            try send("h", "h")
            model.line.cursor = max(0, model.line.cursor - 1)
        case 1:
            try send("l", "l")
            if model.line.cursor < count - 1 { model.line.cursor += 1 }
        case 2, 3:
            try send("0", "0")
            model.line.cursor = 0
        case 3 where count > 0:  // libedit's `$` on an empty vi line puts the cursor before it
            try send("$", "$")
            model.line.cursor = max(0, count - 1)
        case 4:
            try send("a", "a")
            if count > 0 { model.line.cursor += 1 }
            commandMode = false
        default:
            try send("i", "i")
            commandMode = false
        }
    }

    /// An empty line, by editing keys (Ctrl-U in emacs; in vi, to the start, delete to
    /// the end, insert), ready for typing.
    func clearLine() throws {
        if vi {
            if !commandMode { try send("\u{1B}", "Escape") }
            try send("0Di", "0Di")
            commandMode = false
        } else {
            try send("\u{15}", "^U")
        }
        model.line = DraftModel.Line()
    }

    func enterLine() throws {
        model.quitPending = false
        let text = model.line.text
        try send("\r", "Enter")
        let sends = !text.allSatisfy(\.isWhitespace)
        model.enter()
        commandMode = false
        if sends { try terminal.waitFor("  you: ", timeout: 30, idle: 10) }
        try waitForPrompt()
    }

    /// A command typed into the restored draft at a random place, then Enter.
    func commandIntoDraft() throws {
        model.quitPending = false
        let place = Int.random(in: 0...model.line.scalars.count, using: &random)
        let command = ["/drafts", "/undo", "/discard", "/chats"].randomElement(using: &random)!
        if vi {
            // To command mode, to the start, right `place` times (vi stops on the last
            // character), then insert before the cursor or append after it.
            if !commandMode { try send("\u{1B}", "Escape") }
            try send("0", "0")
            let steps = min(place, max(0, model.line.scalars.count - 1))
            try send(String(repeating: "l", count: steps), "l×\(steps)")
            try send(place > steps ? "a" : "i", place > steps ? "a" : "i")
        } else {
            try send("\u{1}" + String(repeating: "\u{6}", count: place), "^A ^F×\(place)")
        }
        try send(command + "\r", "type \(command) at \(place), Enter")
        commandMode = false
        model.enter(command: command)
        try waitForPrompt()
    }

    func leaveToOpen(_ user: String) throws {
        try send("\u{18}o", "^X o")
        try waitForPrompt("open chat with: ")
        try send(user + "\r", user)
        model.remember(user)
        model.leaveToOpen(user)
        commandMode = false
        try waitForPrompt()
    }

    func interrupt() throws {
        // The keys typed so far must be read before the signal: a terminal flushes unread
        // input on Ctrl-C. ^X d is a key that changes nothing and answers.
        _ = try observedDrafts()
        try send("\u{3}", "Ctrl-C")
        model.interrupt()
        commandMode = false
        try waitForPrompt()
    }

    func quitKey() throws {
        if !model.line.isEmpty { try clearLine() }
        if vi && commandMode {
            try send("i", "i")  // Ctrl-D ends input only in insert mode
            commandMode = false
        }
        try send("\u{4}", "Ctrl-D")
        model.quitRequest()
        if model.hasQuit {
            #expect(try terminal.waitForExit() == .exited(0), "\(context)")
            terminal = try Self.start(fixture, vi: vi)
            model.restart()
        } else {
            try terminal.waitFor("would be forgotten", timeout: 30, idle: 10)
            try waitForPrompt()
        }
    }

    /// Up, or ^R and a pattern, then Enter: a line from the edit line's history is sent.
    func recall() throws {
        if Bool.random(using: &random) {
            guard let last = model.history.last, !last.hasPrefix("/"), !last.allSatisfy(\.isWhitespace) else {
                try edit()
                return
            }
            try send("\u{1B}[A", "Up")
            model.line = DraftModel.Line(last)
        } else {
            // A token from a message in history: ^R finds the newest entry holding it.
            let candidates = model.history.filter { !$0.hasPrefix("/") }.flatMap { entry in
                entry.split(separator: " ").filter { $0.hasPrefix("#") }.map(String.init)
            }
            guard let pattern = candidates.randomElement(using: &random), let found = model.search(pattern) else {
                try edit()
                return
            }
            try clearLine()
            // libedit draws the search by differences, so nothing whole shows it is done:
            // the keys go in one write, and the sent message shows the search's result.
            try send("\u{12}" + pattern, "^R \(pattern)")
            model.line = DraftModel.Line(found)
        }
        try enterLine()
    }
}
