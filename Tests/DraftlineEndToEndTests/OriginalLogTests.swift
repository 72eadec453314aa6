import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// `--trace-format debuglog` against the original input view itself (`original-input-view`,
/// its draft methods with their DebugLog lines): the same random action sequences drive the
/// oracle and draftline, and the logs must agree line for line. Every way in and out of an
/// input is in the alphabet: the leave keys (`^X o` to the chat on screen and a cancelled
/// name prompt too), `^X /` with a command that stays, one that leaves and an empty one, the
/// typed commands that leave (`/open`, `/profile`, `/back`, `/comment`) and those that go
/// nowhere (the chat already on screen), sends, blank lines, media. 1,000 sequences through
/// the core `Session` (as data, the drafts at the end compared too), and 1,000 through the
/// binary on a pipe with a trace file.
@Suite("The original's log, line for line")
struct OriginalLogTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Where the model of the screens is.
    enum Place: Equatable {
        case home
        case chat(String)
        case comment(String, Int, String?)
        case profile(String)

        var isTarget: Bool {
            switch self {
            case .chat, .comment: return true
            case .home, .profile: return false
            }
        }

        /// The user `/profile` and `^X p` go to from here, if any.
        var user: String? {
            switch self {
            case .chat(let user): return user
            case .comment(_, _, let user): return user
            case .home, .profile: return nil
            }
        }
    }

    /// One thing a person does.
    enum Action: Equatable {
        /// `/open <user>`, typed (from a chat, typed into its draft).
        case open(String)
        /// `/comment <kind> <id> [@user]`, typed.
        case comment(String, Int, String?)
        /// `/profile`, typed in a chat or a reply thread.
        case profile
        /// `/back`, typed.
        case back
        /// Type `text` into the line as it came, then Enter.
        case send(String)
        /// Type `text`, then a leave key; after `^X o`, the name (empty: the prompt cancelled).
        case leave(LeaveKey, String, opening: String?)
        /// Type `text`, then `^X /` and the command (without its `/`; empty: none).
        case command(String, String)
        /// `/attach` a file.
        case attach
    }

    static let users = ["alice", "bob", "carol"]

    /// The screens after `action` on `stack`, as draftline moves (the model both sides follow).
    static func moved(_ stack: [Place], by action: Action) -> [Place] {
        var stack = stack
        let top = stack[stack.count - 1]
        func push(_ place: Place) { if place != top { stack.append(place) } }
        switch action {
        case .open(let user): push(.chat(user))
        case .comment(let kind, let id, let user): push(.comment(kind, id, user))
        case .profile: if let user = top.user { stack.append(.profile(user)) }
        case .back, .leave(.back, _, _): stack.removeLast()
        case .leave(.profile, _, _): if let user = top.user { stack.append(.profile(user)) }
        case .leave(.open, _, opening: let name?) where !name.isEmpty: push(.chat(name))
        case .command(_, let command):
            if command.hasPrefix("open ") { push(.chat(String(command.dropFirst(5)))) }
            if command == "back" { stack.removeLast() }
        case .send, .attach, .leave: break
        }
        return stack
    }

    /// A random sequence of `count` actions, each possible where the model says the person is.
    static func sequence(count: Int, pieces: [String], using random: inout SeededGenerator) -> [Action] {
        var stack: [Place] = [.home]
        var actions: [Action] = []
        func typed() -> String {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
                .joined()
        }
        func user() -> String { users.randomElement(using: &random) ?? "alice" }
        func comment() -> Action {
            let kind = ["tweet", "topic", "task"].randomElement(using: &random) ?? "tweet"
            return .comment(
                kind, Int.random(in: 1...2, using: &random), [nil, "alice", "bob"].randomElement(using: &random) ?? nil)
        }
        for _ in 0..<count {
            let top = stack[stack.count - 1]
            var choices: [Action] = []
            if top.isTarget {
                choices += [.send(typed()), .send(typed()), .send(""), .attach]
                choices += [.leave(.open, typed(), opening: user()), .leave(.open, typed(), opening: "")]
                choices += [.leave(.back, typed(), opening: nil), .leave(.back, "", opening: nil)]
                let command = ["drafts", "open " + user(), "back", ""].randomElement(using: &random) ?? ""
                choices += [.command(typed(), command), .open(user()), comment(), .back]
                if top.user != nil { choices += [.leave(.profile, typed(), opening: nil), .profile] }
            } else {
                choices += [.open(user()), .open(user()), comment()]
                if stack.count > 1 { choices.append(.back) }
            }
            let action = choices.randomElement(using: &random) ?? .back
            actions.append(action)
            stack = moved(stack, by: action)
        }
        return actions
    }

    /// The oracle's actions for a sequence: what its input view is told. The view is taken
    /// down (a save, with the text typed at the end of what it holds) by a leave key, `^X /`
    /// and a typed command that changes the screen; it comes up (a lookup) on a target's
    /// screen that is new, or whose view was taken down.
    static func oracleActions(_ actions: [Action]) -> [[String: Any]] {
        var stack: [Place] = [.home]
        var out: [[String: Any]] = []
        for action in actions {
            let top = stack[stack.count - 1]
            let next = moved(stack, by: action)
            var left: String?
            switch action {
            case .send(let text): out.append(["do": "send", "typed": text])
            case .attach: out.append(["do": "media", "name": "file.txt"])
            case .leave(_, let text, _), .command(let text, _): left = text
            case .open, .comment, .profile, .back: if next != stack && top.isTarget { left = "" }
            }
            if let left, top.isTarget { out.append(["do": "leave", "typed": left]) }
            if next != stack || left != nil {
                switch next[next.count - 1] {
                case .chat(let user): out.append(["do": "enter", "type": "privateMessage", "user": user])
                case .comment(let kind, let id, let user):
                    var enter: [String: Any] = ["do": "enter", "type": kind, "id": id]
                    if let user { enter["user"] = user }
                    out.append(enter)
                case .home, .profile: break
                }
            }
            stack = next
        }
        return out
    }

    /// What the oracle logged for each sequence (its lines as draftline's file holds them:
    /// control characters in caret notation), and the drafts it kept at the end.
    func oracle(_ sequences: [[Action]]) throws -> [(log: [String], drafts: String)] {
        var input = ""
        for (number, actions) in sequences.enumerated() {
            let all: [[String: Any]] =
                [["do": "restart", "label": "\(number)"]] + Self.oracleActions(actions) + [["do": "dump"]]
            for action in all {
                input += String(decoding: try JSONSerialization.data(withJSONObject: action), as: UTF8.self) + "\n"
            }
        }
        let program = URL(fileURLWithPath: Fixture.executable).deletingLastPathComponent()
            .appendingPathComponent("original-input-view").path
        let result = try Fixture.run(
            program, arguments: [], environment: fixture.environment(), input: Data(input.utf8), timeout: 120)
        #expect(result.status == 0, "\(String(decoding: result.error, as: UTF8.self))")
        var runs: [(log: [String], drafts: String)] = []
        for line in String(decoding: result.output, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line.hasPrefix("--- ") {
                runs.append(([], ""))
            } else if line.hasPrefix("drafts: ") {
                runs[runs.count - 1].drafts = String(line.dropFirst("drafts: ".count))
            } else if !line.isEmpty {
                runs[runs.count - 1].log.append(TerminalText.visible(String(line), keepNewlines: false))
            }
        }
        return runs
    }

    /// The drafts a session holds, as the oracle dumps them.
    static func dump(_ drafts: Drafts) throws -> String {
        var texts: [String: String] = [:]
        var media: [String: Int] = [:]
        for key in drafts.keys {
            if let text = drafts.text(for: key) { texts[key.rawValue] = text.text }
            if !drafts.attachments(for: key).isEmpty { media[key.rawValue] = drafts.attachments(for: key).count }
        }
        let data = try JSONSerialization.data(withJSONObject: ["text": texts, "media": media], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A typed command as its line.
    static func commandLine(_ action: Action) -> String? {
        switch action {
        case .open(let user): return "/open \(user)"
        case .comment(let kind, let id, let user): return "/comment \(kind) \(id)" + (user.map { " @\($0)" } ?? "")
        case .profile: return "/profile"
        case .back: return "/back"
        case .send, .leave, .command, .attach: return nil
        }
    }

    /// The lines draftline's core logs for a sequence, driven as a terminal front end would:
    /// typed commands are typed into the line as it came (a restored draft, at its end).
    func draftline(_ actions: [Action], attaching path: String) throws -> (log: [String], drafts: String) {
        let session = Session(contacts: ContactBook(), history: InMemoryHistory(), workingDirectory: fixture.root)
        var log: [String] = []
        func handle(_ event: InputEvent) {
            log += TraceFormat.debuglog.lines(for: session.handle(event).reports, time: Date(), screen: "")
        }
        for action in actions {
            let line = session.prefill?.text ?? ""
            switch action {
            case .open, .comment, .profile, .back: handle(.line(line + (Self.commandLine(action) ?? "")))
            case .send(let text): handle(.line(line + text))
            case .attach: handle(.line(line + "/attach " + path))
            case .leave(let key, let text, let name):
                handle(.leave(key, TextDraft(text: line + text)))
                if let name { handle(.line(name)) }
            case .command(let text, let command):
                handle(.leave(.command, TextDraft(text: line + text)))
                handle(.line(command))
            }
        }
        return (log, try Self.dump(session.drafts))
    }

    /// Text typed in the sequences through the core: scripts, emoji, tabs, spaces, an escape.
    static let pieces = ["a", "b", " ", "\t", "你好", "😀", "é", "x y", "\u{1B}[31m", "  "]

    /// The seed of a run: `DRAFTLINE_SEED` repeats one.
    static func seed() -> UInt64 {
        UInt64(ProcessInfo.processInfo.environment["DRAFTLINE_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
    }

    @Test func aThousandRandomSequencesLogWhatTheOriginalLogsLineForLine() throws {
        let seed = Self.seed()
        var random = SeededGenerator(seed: seed)
        let sequences = (0..<1000).map { _ in
            Self.sequence(count: Int.random(in: 1...24, using: &random), pieces: Self.pieces, using: &random)
        }
        let path = fixture.root + "/file.txt"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let expected = try oracle(sequences)
        try #require(expected.count == sequences.count, "seed \(seed)")
        var failures = 0
        for (number, actions) in sequences.enumerated() where failures < 3 {
            let got = try draftline(actions, attaching: path)
            if got.log != expected[number].log || got.drafts != expected[number].drafts {
                failures += 1
                Issue.record(
                    """
                    seed \(seed) (DRAFTLINE_SEED=\(seed) repeats it), sequence \(number): \(actions)
                    original:  \(expected[number].log) \(expected[number].drafts)
                    draftline: \(got.log) \(got.drafts)
                    """)
            }
        }
        #expect(expected.map(\.log.count).reduce(0, +) > 5000, "the sequences log little: seed \(seed)")
    }

    /// The piped lines a person's actions are (SPEC §2's pipe mode: a line is typed into the
    /// line as it came; a command is a line of its own; `^X` and a letter at a line's end
    /// leave, and the newline after them is not Enter).
    static func pipedLines(_ actions: [Action], attaching path: String) -> String {
        actions.map { action -> String in
            switch action {
            case .open, .comment, .profile, .back: return (commandLine(action) ?? "") + "\n"
            case .send(let text): return text + "\n"
            case .attach: return "/attach \(path)\n"
            case .leave(let key, let text, let name):
                return text + "\u{18}" + ["profile": "p", "back": "b", "open": "o"][key.rawValue, default: "/"] + "\n"
                    + (name.map { $0 + "\n" } ?? "")
            case .command(let text, let command): return text + "\u{18}/\n" + command + "\n"
            }
        }.joined()
    }

    @Test func aThousandRandomSequencesThroughTheBinaryWriteTheOriginalsLogToTheTraceFile() throws {
        let seed = Self.seed()
        var random = SeededGenerator(seed: seed)
        // No control characters on a pipe but the tab: they would be keys there.
        let pieces = ["a", "b", " ", "\t", "你好", "😀", "é", "x y", "  "]
        let sequences = (0..<1000).map { _ in
            Self.sequence(count: Int.random(in: 1...24, using: &random), pieces: pieces, using: &random)
        }
        let path = fixture.root + "/file.txt"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let expected = try oracle(sequences)
        try #require(expected.count == sequences.count, "seed \(seed)")
        var failures = 0
        var agreed = 0
        for (number, actions) in sequences.enumerated() where failures < 3 {
            let trace = fixture.root + "/trace-\(number).log"
            let data = fixture.root + "/data-\(number)"
            let script = Self.pipedLines(actions, attaching: path) + "/quit\n"
            let result = try fixture.runPiped(
                script, arguments: ["--data-dir", data, "--trace-file", trace, "--trace-format", "debuglog"])
            let logged = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: trace)
            if result.status != 0 || logged != expected[number].log {
                failures += 1
                Issue.record(
                    """
                    seed \(seed) (DRAFTLINE_SEED=\(seed) repeats it), sequence \(number), status \(result.status) \
                    \(result.error): \(script.debugDescription)
                    original:  \(expected[number].log)
                    draftline: \(logged)
                    """)
            } else {
                agreed += 1
            }
        }
        #expect(agreed == 1000, "seed \(seed): \(agreed) of 1,000 sequences agreed")
    }

    /// The ways in and out, each once, through the binary: the log is exactly the app's.
    @Test func everyWayInAndOutLogsWhatTheAppLogs() throws {
        let trace = fixture.root + "/trace.log"
        let steps: [(line: String, logs: [String])] = [
            ("/open alice", ["inputStr_get:(null)"]),
            // A typed command leaves: the save is made, though the line is empty.
            ("/open bob", ["inputKey_save:privateMessage_alice", "inputStr_get:(null)"]),
            // ^X /: the save, the command, and the return looks the draft up.
            ("half\u{18}/", ["inputKey_save:privateMessage_bob"]),
            ("drafts", ["inputStr_get:half"]),
            // The chat on screen: nothing happens, nothing is logged.
            ("/open bob", []),
            ("/profile", ["inputKey_save:privateMessage_bob"]),
            ("/back", ["inputStr_get:half"]),
            ("/comment tweet 7 @alice", ["inputKey_save:privateMessage_bob", "inputStr_get:(null)"]),
            // A blank Enter sends nothing and logs nothing.
            ("  ", []),
            // ^X o, the prompt cancelled: left and looked up again.
            ("x\u{18}o", ["inputKey_save:tweet_7_alice"]),
            ("", ["inputStr_get:x"]),
            ("\u{18}o", ["inputKey_save:tweet_7_alice"]),
            ("bob", ["inputStr_get:half"]),
            ("\u{18}b", ["inputKey_save:privateMessage_bob", "inputStr_get:x"]),
            ("/back", ["inputKey_save:tweet_7_alice", "inputStr_get:half"]),
            // A real send: the removal first.
            ("!", ["inputKey_delegate:privateMessage_bob"]),
            // Quitting calls none of the three.
            ("left\u{18}p", ["inputKey_save:privateMessage_bob"]),
            ("/quit", []),
        ]
        let result = try fixture.runPiped(
            steps.map(\.line).joined(separator: "\n") + "\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--trace-file", trace, "--trace-format", "debuglog"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(try fixture.messages(in: "bob").map(\.content) == ["half!"])
        let logged = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(logged == steps.flatMap(\.logs))
    }

    /// Control characters in a draft are written in caret notation: the file never holds an
    /// escape sequence, and an entry with a newline is one line. The key in the trace is
    /// named as the screens name it.
    @Test func controlCharactersInTheDebuglogAreWrittenInCaretNotation() throws {
        let trace = fixture.root + "/trace.log"
        let session = Session(contacts: ContactBook(), history: InMemoryHistory(), tracing: true)
        session.handle(.line("/open alice"))
        let left = session.handle(.leave(.profile, TextDraft(text: "red \u{1B}[31m\nnext")))
        let back = session.handle(.line("/back"))
        let lines = TraceFormat.debuglog.lines(for: left.reports + back.reports, time: Date(), screen: "")
        #expect(lines == ["inputKey_save:privateMessage_alice", "inputStr_get:red ^[[31m^Jnext"])
        #expect(
            Frontend(session).presenter.lines(for: left.reports, identity: .me, tracing: true).contains {
                $0.text.contains("(^X p (draftline-profile))")
            })
        // And through the binary, into the file.
        let result = try fixture.runPiped(
            "/open alice\nred \u{1B}[31m\u{1B}[200~\u{7F}\u{1B}[201~\u{18}p\n/back\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--trace-file", trace, "--trace-format", "debuglog"])
        #expect(result.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x7F))
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "inputStr_get:(null)\ninputKey_save:privateMessage_alice\ninputStr_get:red ^[[31m^?\n")
    }
}
