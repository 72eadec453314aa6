import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Two draftlines on one data directory, each on a pseudo-terminal of its own: what one
/// sends appears above the other's edit line, and the line being typed stays as it was.
@Suite("A chat with two sides, through the real binary")
struct LiveConversationEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func start(
        _ who: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) throws
        -> PseudoTerminal
    {
        let terminal = try fixture.startTerminal(
            ["--as", who] + arguments, environment: ["NO_COLOR": "1"].merging(environment) { _, new in new })
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// A data directory whose journal is a few bytes short of its rotation size (1 MiB of
    /// lines that are no records): the first message sent rotates it, so every reader must
    /// follow the journal into its new file, from that file's start.
    func journalAboutToRotate() throws {
        #expect(try fixture.runPiped("").status == 0)
        let size = (1 << 20) - 30
        let line = String(repeating: "x", count: 99) + "\n"
        let last = String(repeating: "y", count: size % 100 - 1) + "\n"
        try fixture.append(Data((String(repeating: line, count: size / 100) + last).utf8), to: "live/journal")
    }

    /// Whether the journal was rotated (and `journal.1` holds the lines before).
    var journalRotated: Bool { FileManager.default.fileExists(atPath: fixture.dataDirectory + "/live/journal.1") }

    /// Sends a line and waits until draftline has shown it as sent.
    func say(_ text: String, on terminal: PseudoTerminal) throws {
        try terminal.send(text + "\r")
        try terminal.waitFor("you: \(text)\r\n")
    }

    @Test(arguments: ["inotify", "poll"])
    func messagesArriveAboveAHalfTypedLineAndTheLineAndCursorStay(_ watch: String) throws {
        let environment = watch == "poll" ? ["DRAFTLINE_WATCH": "poll"] : [:]
        try journalAboutToRotate()
        let alice = try start("alice", environment: environment)
        let bob = try start("bob")
        try alice.open("bob")
        try bob.open("alice")
        try alice.send("half typed, cursor in the middle")
        try alice.waitFor("middle")
        try alice.send(String(repeating: "\u{2}", count: 6))  // Ctrl-B: back before "middle"
        for text in ["one", "two", "three"] { try say(text, on: bob) }
        try alice.waitFor("bob: three")
        try alice.waitFor("middle")  // the line drawn again below the messages
        let screen = ScreenModel(rows: 24, columns: 80, bytes: alice.output)
        let rows = screen.text
        let line = try #require(rows.lastIndex(of: "bob> half typed, cursor in the middle"), "\(rows)")
        #expect(Array(rows[(line - 3)..<line]) == ["  bob: one", "  bob: two", "  bob: three"], "\(rows)")
        #expect(screen.cursor.row == line && screen.cursor.column == "bob> half typed, cursor in the ".count)
        try alice.send("very \r")
        try bob.waitFor("alice: half typed, cursor in the very middle")
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.map(\.content) == ["one", "two", "three", "half typed, cursor in the very middle"])
        #expect(stored.map(\.sender) == ["bob", "bob", "bob", "alice"])
        #expect(journalRotated)
        #expect(try alice.quit() == .exited(0))
        #expect(try bob.quit() == .exited(0))
    }

    /// An unfinished `^X` sequence and vi's command mode are libedit's state: a message
    /// arriving between two keys leaves both.
    @Test func aPendingKeySequenceAndViCommandModeSurviveAnArrival() throws {
        let alice = try start("alice", ["--editor", "vi"])
        let bob = try start("bob")
        try alice.open("bob")
        try bob.open("alice")
        try alice.send("abcdef")
        try alice.waitFor("abcdef")
        try alice.send("\u{1B}")  // command mode: libedit moves the cursor back one
        try alice.waitFor("\u{8}")
        try alice.send("0")  // cursor to the start
        try say("first", on: bob)
        try alice.waitFor("bob: first")
        try alice.waitFor("abcdef")
        try alice.send("x")  // in command mode: deletes the 'a' (drawn as a deletion)
        try alice.waitFor("\u{1B}[P")
        // Half of ^X p. alice idles in poll, so she reads it long before bob's message
        // is stored and announced; the 'p' after the arrival finishes the sequence.
        try alice.send("\u{18}")
        try say("second", on: bob)
        try alice.waitFor("bob: second")
        try alice.send("p")
        try alice.waitForPrompt("profile bob> ")
        try alice.send("/expect draft privateMessage_bob \"bcdef\"\r")
        try alice.waitFor("ok: draft privateMessage_bob is \"bcdef\"")
        #expect(try alice.quit() == .exited(0))
        #expect(try bob.quit() == .exited(0))
    }

    /// A message in a chat that is not open is one line and an unread count.
    @Test func aMessageElsewhereIsOneNoticeAndAnUnreadCount() throws {
        let alice = try start("alice")
        let bob = try start("bob")
        try alice.open("carol")
        try alice.send("for carol")
        try alice.waitFor("for carol")
        try bob.open("alice")
        try say("psst", on: bob)
        try alice.waitFor("● bob (Bob Okafor): psst · 1 unread: /open bob")
        try alice.waitFor("for carol")
        try alice.send("\u{18}/chats\r")
        try alice.waitFor("bob (Bob Okafor) · bob: psst · 1 unread")
        try alice.waitForPrompt("carol> ")
        try alice.send("\u{18}obob\r")
        try alice.waitForPrompt("bob> ")
        try alice.send("\u{18}/chats\r")
        try alice.waitFor("bob (Bob Okafor) · bob: psst\r\n")
        try alice.waitForPrompt("bob> ")
        try alice.send("/expect draft privateMessage_carol \"for carol\"\r")
        try alice.waitFor("ok: draft")
        #expect(try alice.quit() == .exited(0))
        #expect(try bob.quit() == .exited(0))
    }

    /// 200 messages each way while both type, leave and come back: every message shown
    /// once on the other side, in its sender's order, and every draft as it was left.
    @Test func twoHundredMessagesEachWayWhileBothTypeAndLeaveDrafts() throws {
        let aliceTrace = fixture.root + "/alice.trace"
        let bobTrace = fixture.root + "/bob.trace"
        try journalAboutToRotate()
        let alice = try start("alice", ["--trace-file", aliceTrace])
        let bob = try start("bob", ["--trace-file", bobTrace])
        // Each leaves a draft in a third chat first, and finds it there at the end.
        for (terminal, other) in [(alice, "bob"), (bob, "alice")] {
            try terminal.open("carol")
            try terminal.send("kept for carol\u{18}o")
            try terminal.waitForPrompt("open chat with: ")
            try terminal.send(other + "\r")
            try terminal.waitForPrompt("\(other)> ")
        }
        let count = 200
        for i in 0..<count {
            for (terminal, name, other) in [(alice, "a", "bob"), (bob, "b", "alice")] {
                if i % 40 == 20 + (name == "b" ? 5 : 0) {
                    // Half a message, a trip to the profile (messages arrive meanwhile),
                    // and back: the half comes back in the line and is finished.
                    try terminal.send("\(name)-\u{18}p")
                    try terminal.waitForPrompt("profile \(other)> ")
                    try terminal.send("\u{18}b")
                    try terminal.waitForPrompt("\(other)> ")
                    try terminal.send("\(i)\r")
                    try terminal.waitFor("you: \(name)-\(i)\r\n")
                } else {
                    try say("\(name)-\(i)", on: terminal)
                }
            }
        }
        // A last message each way, sent after the other side's output was read up to here.
        try say("a-\(count)", on: alice)
        try bob.waitFor("alice: a-\(count)")
        try say("b-\(count)", on: bob)
        try alice.waitFor("bob: b-\(count)")
        for terminal in [alice, bob] {
            try terminal.send("/expect draft privateMessage_carol \"kept for carol\"\r")
            try terminal.waitFor("ok: draft privateMessage_carol")
            #expect(try terminal.quit() == .exited(0))
        }
        for (trace, own, from, prefix) in [(aliceTrace, "a", "bob", "b"), (bobTrace, "b", "alice", "a")] {
            let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let arrived = events.filter { ($0["event"] as? String)?.hasPrefix("arrived") == true }
            #expect(arrived.allSatisfy { $0["from"] as? String == from })
            #expect(arrived.compactMap { $0["text"] as? String } == (0...count).map { "\(prefix)-\($0)" })
            // The trips to the profile saved the half message and brought it back.
            let restored = events.filter { $0["event"] as? String == "restored" && $0["text"] as? String == "\(own)-" }
            #expect(restored.count == count / 40)
        }
        #expect(journalRotated)
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.count == 2 * (count + 1))
        #expect(stored.filter { $0.sender == "alice" }.map(\.content) == (0...count).map { "a-\($0)" })
        #expect(stored.filter { $0.sender == "bob" }.map(\.content) == (0...count).map { "b-\($0)" })
    }

    /// `kill -9` on one side in the middle of the exchange: the other goes on; the killed
    /// side, started again, shows every message that was acknowledged.
    @Test func oneSideKilledTheOtherGoesOnAndTheRestartedSideHasEverything() throws {
        let alice = try start("alice")
        var bob = try start("bob")
        try alice.open("bob")
        try bob.open("alice")
        for i in 0..<30 {
            try say("a-\(i)", on: alice)
            try say("b-\(i)", on: bob)
        }
        try bob.send("b-unsent, half typed")
        bob.signal(SIGKILL)
        #expect(try bob.waitForExit() == .signaled(SIGKILL))
        for i in 30..<60 { try say("a-\(i)", on: alice) }
        bob = try start("bob")
        try bob.open("alice")
        try bob.send("/history 1000\r")
        try bob.waitFor("you: b-29\r\n")
        let shown = try bob.waitFor("alice: a-59\r\n")
        #expect(shown.contains("alice: a-58\r\n"))
        try say("b-after", on: bob)
        try alice.waitFor("bob: b-after")
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.filter { $0.sender == "alice" }.map(\.content) == (0..<60).map { "a-\($0)" })
        #expect(stored.filter { $0.sender == "bob" }.map(\.content) == (0..<30).map { "b-\($0)" } + ["b-after"])
        #expect(try alice.quit() == .exited(0))
        #expect(try bob.quit() == .exited(0))
    }

    /// A data directory written by draftline before senders were recorded (the commit
    /// before this feature, kept under `Tests/Fixtures`): `me` reads its messages as its
    /// own, and a named identity talks to `me` in the same chat.
    @Test func aDataDirectoryFromBeforeSendersKeepsWorking() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/data-2026-11-29").standardized.path
        let copy = try Fixture.run(
            "/bin/cp", arguments: ["-R", source, fixture.dataDirectory], environment: fixture.environment(), timeout: 30
        )
        #expect(copy.status == 0)
        _ = try Fixture.run(
            "/bin/chmod", arguments: ["-R", "go-rwx", fixture.dataDirectory], environment: fixture.environment(),
            timeout: 30)
        let me = try fixture.runPiped("/open bob\n/comment tweet 5\n/open alice\n")
        #expect(me.status == 0, "\(me.error)")
        #expect(me.output.contains("  you: hello bob, from before senders\n  you: second line\n"), "\(me.output)")
        #expect(me.output.contains("  you: a comment\n"))
        #expect(me.output.contains("  you: [location 52.5, 13.4 Berlin]\n"))
        let bob = try fixture.runPiped(
            "/open me\nreply from bob\n/chats\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "bob"])
        #expect(bob.status == 0, "\(bob.error)")
        #expect(bob.output.contains("  me: hello bob, from before senders\n  me: second line\n  you: reply from bob\n"))
        #expect(bob.output.contains("  me · you: reply from bob\n"), "\(bob.output)")
        let again = try fixture.runPiped("/open bob\n/history 3\n")
        #expect(again.output.hasSuffix("  you: second line\n  bob: reply from bob\n"), "\(again.output)")
        let stored = try fixture.messages(in: "bob")
        #expect(stored.map(\.sender) == ["", "", "bob"])
        #expect(stored.map(\.author) == ["me", "me", "bob"])
        #expect(try String(contentsOfFile: fixture.dataDirectory + "/format", encoding: .utf8) == "2\n")
    }
}

extension LiveConversationEndToEndTests {
    /// A backlog many slices long (written while the reader was stopped) is shown to its
    /// last message with no key pressed, the half-typed line intact: the editor looks at the
    /// feed again whenever a slice left more, once no key is waiting (it does not wait
    /// while a slice left more, woken by inotify or polling).
    @Test(arguments: ["inotify", "poll"])
    func aBacklogLongerThanASliceArrivesWholeWithoutAKey(_ watch: String) throws {
        let bob = try start("bob", environment: watch == "poll" ? ["DRAFTLINE_WATCH": "poll"] : [:])
        try bob.open("alice")
        try bob.send("typed meanwhile")
        try bob.waitFor("typed meanwhile")
        bob.signal(SIGSTOP)
        defer { bob.signal(SIGCONT) }
        let script =
            "/open bob\n" + (1...600).map { "burst \($0) " + String(repeating: "z", count: 100) + "\n" }.joined()
        let sent = try fixture.runPiped(script, arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        #expect(sent.status == 0, "\(sent.error)")
        bob.signal(SIGCONT)
        try bob.waitFor("alice: burst 600 ", timeout: 30)
        try bob.waitFor("typed meanwhile")
        try bob.send("\r")
        try bob.waitFor("you: typed meanwhile")
        #expect(try bob.quit() == .exited(0))
    }
}
