import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// `--record FILE`: a session on a real terminal (a pseudo-terminal) written down as a
/// pipe-mode script, then replayed on a pipe with `--strict` on a fresh data directory.
@Suite("A terminal session recorded, then replayed on a pipe", .serialized)
struct RecordTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let clock = ["NO_COLOR": "1", "SOURCE_DATE_EPOCH": "1700000000"]

    /// Plays a session that touches every kind of step: a leave key with a draft, a
    /// return, typing into the restored draft, a paste with a line break, the cursor moved
    /// back, `^X o` and a name, a send, Ctrl-C, a typed `/open`, Enter on a restored
    /// draft, and `/quit`. Returns the script it recorded.
    func recordSession() throws -> String {
        try record("session") { terminal in try playSession(terminal) }
    }

    /// Starts draftline on a terminal with `--record`, opens alice's chat (unless `atHome`),
    /// plays `steps` (which end the session), and returns the script written.
    func record(_ name: String, atHome: Bool = false, _ steps: (PseudoTerminal) throws -> Void) throws -> String {
        let script = fixture.root + "/\(name).txt"
        let terminal = try fixture.startTerminal(["--record", script], environment: Self.clock)
        try terminal.waitForPrompt("draftline> ")
        if !atHome { try terminal.open("alice") }
        try steps(terminal)
        #expect(try terminal.waitForExit() == .exited(0))
        return try String(contentsOfFile: script, encoding: .utf8)
    }

    func playSession(_ terminal: PseudoTerminal) throws {
        try terminal.send("Bob's ID is \u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("bob")
        try terminal.send("\u{1B}[200~, or\nrob\u{1B}[201~")
        try terminal.send("\u{2}\u{2}\u{18}o")
        try terminal.waitFor("open chat with: ")
        try terminal.send("bob\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("hello bob\r")
        try terminal.waitFor("you: hello bob")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("half\u{3}")
        try terminal.waitFor("line abandoned")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/open alice\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("you: Bob's ID is bob, or")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/quit\r")
    }

    /// Replays a script on a pipe, `--strict`, on a fresh data directory with the clock
    /// pinned.
    func replay(
        _ script: String, in replayed: Fixture, _ extra: [String] = []
    ) throws -> (status: Int32, output: String, error: String) {
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", replayed.dataDirectory, "--strict"] + extra,
            environment: replayed.environment(Self.clock), input: Data(script.utf8), timeout: 60)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    @Test func aRecordedSessionReplaysOnAPipeAndAChangedStepFailsThere() throws {
        let script = try recordSession()
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                "/open alice",
                "/expect screen alice",
                "Bob's ID is \u{18}p",
                #"/expect draft privateMessage_alice "Bob's ID is " cursor 12 media 0"#,
                "/expect screen profile alice",
                "/back",
                #"/expect draft privateMessage_alice "Bob's ID is " cursor 12 media 0"#,
                "/expect screen alice",
                "bob\u{1B}[200~, or\rrob\u{1B}[201~\u{2}\u{2}\u{18}o",
                "bob",
                #"/expect draft privateMessage_alice "Bob's ID is bob, or\nrob" cursor 21 media 0"#,
                "/expect screen bob",
                "hello bob",
                #"/expect message 1 "hello bob" from me type text"#,
                "half\u{3}",
                "/expect no-draft privateMessage_bob",
                #"/expect undo-top "half""#,
                "/open alice",
                #"/expect draft privateMessage_alice "Bob's ID is bob, or\nrob" cursor 21 media 0"#,
                "/expect screen alice",
                "",
                "/expect no-draft privateMessage_alice",
                #"/expect message 1 "Bob's ID is bob, or\nrob" from me type text"#,
                "/quit",
                "",
            ], "\(lines)")
        // Replayed on a fresh directory: every check holds, and the same messages are stored.
        let replayed = try Fixture()
        let result = try replay(script, in: replayed)
        #expect(result.status == 0, "\(result.error)")
        let checks = lines.filter { $0.hasPrefix("/expect ") }.count
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == checks)
        for chat in ["alice", "bob"] {
            #expect(try replayed.messages(in: chat).map(\.content) == fixture.messages(in: chat).map(\.content))
        }
        #expect(try replayed.messages(in: "alice").map(\.content) == ["Bob's ID is bob, or\nrob"])
        // One step changed (another text sent to bob): the replay fails at the check right
        // after it, line 14, and runs nothing after.
        let changed = script.replacingOccurrences(of: "hello bob\n", with: "hello rob\n")
        let failed = try replay(changed, in: try Fixture())
        #expect(failed.status == 1)
        #expect(failed.error.hasSuffix("draftline: stopped at line 14 (--strict)\n"), "\(failed.error)")
        #expect(failed.error.contains(#"expectation failed: last message is "hello bob" from me type text"#))
        // Other text abandoned with Ctrl-C: the undo stack's top says so, line 17.
        let abandoned = try replay(
            script.replacingOccurrences(of: "half\u{3}\n", with: "halt\u{3}\n"), in: try Fixture())
        #expect(abandoned.error.hasSuffix("draftline: stopped at line 17 (--strict)\n"), "\(abandoned.error)")
        #expect(abandoned.error.contains(#"expectation failed: the undo stack's top is "half"; found "halt""#))
    }

    /// Plays a session in which lines get errors, as a person's do: a typo'd command,
    /// Enter again on the line given back, a failed `/attach`, text refused at home, a name
    /// refused at `^X o`'s prompt and then given right, then a send, and Ctrl-D twice with
    /// a draft kept. Returns the script it recorded.
    func recordSessionWithErrors() throws -> String {
        try record("errors") { terminal in try playSessionWithErrors(terminal) }
    }

    func playSessionWithErrors(_ terminal: PseudoTerminal) throws {
        try terminal.send("/opne bob\r")
        try terminal.waitFor("unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}/attach /nonexistent/photo.png\r")
        try terminal.waitFor("no such file")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}for bob\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("stray\r")
        try terminal.waitFor("not sent 'stray'")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{15}\u{18}o")
        try terminal.waitFor("open chat with: ")
        try terminal.send("nobody\r")
        try terminal.waitFor("no user 'nobody'")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("\u{15}bob\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("hi bob\r")
        try terminal.waitFor("you: hi bob")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{4}")
        try terminal.waitFor("would be forgotten")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{4}")
    }

    /// A recording with errors replays under `--strict`: each error is checked right after
    /// its line (`/expect error <kind>`), so the replay passes, and its JUnit report holds
    /// every check; nothing is written after the Ctrl-D that quit. A step changed (the typo
    /// fixed) fails at the check after it.
    @Test func aRecordingWithErrorsReplaysUnderStrictAndAChangedStepFailsThere() throws {
        let script = try recordSessionWithErrors()
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                "/open alice",
                "/expect screen alice",
                "/opne bob",
                "/expect error unknown-command",
                "\u{15}/opne bob",
                "/expect error unknown-command",
                "\u{15}/attach /nonexistent/photo.png",
                "/expect error file-missing",
                "\u{15}for bob\u{18}b",
                #"/expect draft privateMessage_alice "for bob" cursor 7 media 0"#,
                "/expect screen home",
                "stray",
                "/expect error not-sent-no-chat",
                "/undo",
                "\u{15}\u{18}o",
                "nobody",
                "\u{15}bob",
                "/expect error unknown-user",
                "/expect screen bob",
                "hi bob",
                #"/expect message 1 "hi bob" from me type text"#,
                "\u{4}",
                "\u{4}",
                "",
            ], "\(lines)")
        let replayed = try Fixture()
        let junit = replayed.root + "/replay.xml"
        let result = try replay(script, in: replayed, ["--report", "junit", junit])
        #expect(result.status == 0, "\(result.error)")
        let checks = lines.filter { $0.hasPrefix("/expect ") }.count
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == checks)
        #expect(try replayed.messages(in: "bob").map(\.content) == ["hi bob"])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="replay" tests="\#(checks)" failures="0" errors="0""#), "\(xml)")
        // The typo fixed: the chat with bob opens, and the check after it fails there.
        let changed = script.replacingOccurrences(
            of: "/expect screen alice\n/opne bob\n", with: "/expect screen alice\n/open bob\n")
        #expect(changed != script)
        let failed = try replay(changed, in: try Fixture())
        #expect(failed.status == 1)
        #expect(failed.error.hasSuffix("draftline: stopped at line 4 (--strict)\n"), "\(failed.error)")
        #expect(
            failed.error.contains("expectation failed: the line before got the error unknown-command; found no error"))
    }

    /// Text the terminal holds in the line at home (refused by `^X b` or by Enter: no draft
    /// can keep it there) is the line's baseline there, while a pipe sets it on the undo
    /// stack: the recorder writes `/undo` after the refusal's check, which brings it back
    /// into the pipe's line held the same way, so a command typed after it (a failed one,
    /// then the same fixed) runs on both with the text set aside as on the terminal, and
    /// the undo stacks agree. (The whole line was written and a pipe read it as one unknown
    /// command or as text refused: the replay stopped there; the QA trial's F1.)
    @Test func textHeldAtHomeReplaysHeldTheSameWay() throws {
        let script = try record("held", atHome: true) { terminal in
            try terminal.send("half typed\u{18}b")  // nowhere to go back to: the text stays
            try terminal.waitFor("nothing to go back to")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/opne bob\r")
            try terminal.waitFor("unknown command '/opne'")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send(String(repeating: "\u{7F}", count: 8) + "open bob\r")
            try terminal.waitForPrompt("bob> ")
            try terminal.send("hi bob\r")
            try terminal.waitFor("you: hi bob")
            try terminal.send("\u{18}b")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("stray\r")
            try terminal.waitFor("not sent 'stray'")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/open alice\r")
            try terminal.waitForPrompt("alice> ")
            // The undo stacks agree: /undo brings back the text set aside when alice opened.
            try terminal.send("/undo\r")
            try terminal.waitFor("is back")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("/quit\r")
        }
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                "half typed\u{18}b",
                "/expect error nothing-to-go-back-to",
                "/undo",
                "\u{15}half typed/opne bob",
                "/expect error unknown-command",
                "\u{15}half typed/open bob",
                "/expect screen bob",
                "hi bob",
                #"/expect message 1 "hi bob" from me type text"#,
                "\u{18}b",
                "/expect screen home",
                "stray",
                "/expect error not-sent-no-chat",
                "/undo",
                "\u{15}stray/open alice",
                "/expect screen alice",
                "/undo",
                "/quit",
                "",
            ], "\(lines)")
        let replayed = try Fixture()
        let result = try replay(script, in: replayed)
        #expect(result.status == 0, "\(result.error)")
        let checks = lines.filter { $0.hasPrefix("/expect ") }.count
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == checks)
        #expect(try replayed.messages(in: "bob").map(\.content) == ["hi bob"])
        // The command changed (another chat opened): the replay stops at the check after it.
        let failed = try replay(
            script.replacingOccurrences(of: "\u{15}half typed/open bob\n", with: "\u{15}half typed/open carol\n"),
            in: try Fixture())
        #expect(failed.status == 1)
        #expect(failed.error.hasSuffix("draftline: stopped at line 7 (--strict)\n"), "\(failed.error)")
    }

    /// A recalled message sent over the user's own text: the terminal sets that text aside
    /// (the notice says so) and `/undo` brings it back; a pipe plays the recalled line typed
    /// out, which replaces nothing, so the recorder sets the text aside first as Ctrl-C does
    /// (the QA trial's F2: the replay's `/undo` found nothing and stopped there).
    @Test func aRecallOverOwnTextReplaysWithThatTextOnTheUndoStack() throws {
        let script = try record("recall") { terminal in
            try terminal.send("lunch at noon?\r")
            try terminal.waitFor("you: lunch at noon?")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("my own text")
            try terminal.send("\u{1B}[A")
            try terminal.waitFor("lunch at noon?")
            try terminal.send("\r")
            try terminal.waitFor("is on the undo stack")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("/undo\r")
            try terminal.waitFor("is back")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("/quit\r")
        }
        try expectReplaysKeepingOwnText(script, through: "\u{15}my own text\u{3}")
    }

    /// A recalled command entered over the user's own text keeps that text as the draft; a
    /// pipe plays the command typed out, which keeps nothing typed, so the recorder keeps
    /// the text with `^X /` and gives the command as the prompt's answer. (The replay found
    /// the draft as restored, without what was typed into it.)
    @Test func aRecalledCommandOverOwnTextReplaysWithThatTextAsTheDraft() throws {
        let script = try record("recalled-command") { terminal in
            try terminal.send("/drafts\r")
            try terminal.waitFor("no drafts")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("my own text")
            try terminal.send("\u{1B}[A")
            try terminal.waitFor("/drafts")
            try terminal.send("\r")
            try terminal.waitFor("my own text")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("\u{18}b")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/quit\r")
        }
        try expectReplaysKeepingOwnText(script, through: "my own text\u{18}/")
    }

    /// Ctrl-C on a recalled line puts the user's own text on top of the undo stack, over the
    /// recalled line; a failed recalled command over one's own text keeps it as the draft,
    /// and its prompt's answer fails on a pipe too, which an empty line ends (the second QA
    /// trial's B and A: the replay's /undo found the recalled line; --strict stopped at the
    /// failed answer though the next line checked it).
    @Test func aRecallAbandonedOrFailedReplaysAsOnTheTerminal() throws {
        let script = try record("recall-ends") { terminal in
            try terminal.send("one\r")
            try terminal.waitFor("you: one")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("mine")
            try terminal.send("\u{1B}[A")
            try terminal.waitFor("one")
            try terminal.send("\u{3}")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("/undo\r")
            try terminal.waitFor("is back")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("\u{15}/nope\r")
            try terminal.waitFor("unknown command '/nope'")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("\u{15}my own text")
            try terminal.send("\u{1B}[A")
            try terminal.waitFor("/nope")
            try terminal.send("\r")
            try terminal.waitFor("kept as this chat's draft")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("\u{15}\u{18}b")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/quit\r")
        }
        try expectReplaysKeepingOwnText(script, through: "\u{15}mine\u{3}")
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains(#"/expect draft privateMessage_alice "mine" cursor 4 media 0"#), "\(lines)")
    }

    /// The script holds `line` (the keys a pipe needs to do what the terminal did), replays
    /// under `--strict` with every check ok, and checks alice's draft "my own text".
    func expectReplaysKeepingOwnText(_ script: String, through line: String) throws {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains(line), "\(lines)")
        let result = try replay(script, in: try Fixture())
        #expect(result.status == 0, "\(result.error)")
        let checks = lines.filter { $0.hasPrefix("/expect ") }.count
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == checks)
        #expect(lines.contains(#"/expect draft privateMessage_alice "my own text" cursor 11 media 0"#), "\(lines)")
    }

    /// `--strict` on a terminal means what it means on a pipe: an error the very next line
    /// checks (`/expect error`) does not stop the session, any other next line stops it at
    /// the error's line (status 1), and a failed check stops at once. (It stopped at the
    /// first error, so a recorded session driven on a terminal with its checks could not
    /// go past a typo.)
    @Test func strictOnATerminalGoesOnPastAnErrorTheNextLineChecks() throws {
        let terminal = try fixture.startTerminal(["--strict"], environment: Self.clock)
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/opne alice\r")
        try terminal.waitFor("unknown command '/opne'")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{15}/expect error unknown-command\r")
        try terminal.waitFor("ok: the line before got the error unknown-command")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open alice\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/attach /nonexistent/photo.png\r")
        try terminal.waitFor("no such file")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}hello\r")
        try terminal.waitFor("draftline: stopped at line 4 (--strict)")
        #expect(try terminal.waitForExit() == .exited(1))
        #expect(try fixture.messages(in: "alice").isEmpty)
        // A check that fails stops the session there, whatever comes next.
        let checked = try fixture.startTerminal(["--strict"], environment: Self.clock)
        try checked.waitForPrompt("draftline> ")
        try checked.send("/expect screen bob\r")
        try checked.waitFor("draftline: stopped at line 1 (--strict)")
        #expect(try checked.waitForExit() == .exited(1))
    }

    /// A QA attack: a message sent with a file stores two, and the recording checked both
    /// as `message 1`, so its own `--strict` replay failed. The file is the one before.
    @Test func aMessageSentWithAFileRecordsBothInTheirPlaces() throws {
        let file = fixture.root + "/notes.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("notes".utf8)))
        let script = try record("attached") { terminal in
            try terminal.send("/attach \(file)\r")
            try terminal.waitFor("attached: 1) notes.txt")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("with file\r")
            try terminal.waitFor("you: with file")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("/quit\r")
        }
        #expect(script.contains("/expect message 2 \"\" from me type file\n"), "\(script)")
        #expect(script.contains("/expect message 1 \"with file\" from me type text\n"), "\(script)")
        let replayed = try replay(script, in: try Fixture())
        #expect(replayed.status == 0, "\(replayed.error)")
    }

    /// `--record` is for a terminal: on a pipe the input is the script already (status 2),
    /// and a path it cannot write is refused before anything runs.
    @Test func recordNeedsATerminalAndAPathItCanWrite() throws {
        let piped = try fixture.runPiped("/open alice\n", arguments: ["--record", fixture.root + "/r.txt"])
        #expect(piped.status == 2)
        #expect(piped.error.contains("--record writes a terminal session down"), "\(piped.error)")
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        let inside = try fixture.startTerminal(["--record", fixture.dataDirectory + "/r.txt"])
        try inside.waitFor("cannot write the record")
        #expect(try inside.waitForExit() == .exited(2))
        #expect(try fixture.runPiped("", arguments: ["--record"]).status == 2)
    }
}
