import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// SPEC §1a's baseline, paste and notice rows through the real binary: the edit line
/// remembers where its text came from across reads, on a terminal and on a pipe alike.
/// Each test is one of the situations a new user and a QA engineer hit (issue 28).
@Suite("The edit line remembers where its text came from", .serialized)
struct LineOriginTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Starts the binary on a terminal, on this test's data directory or `other`'s (a
    /// test that compares a pipe's run with a terminal's gives each its own).
    func start(_ arguments: [String] = [], in other: Fixture? = nil) throws -> PseudoTerminal {
        let terminal = try (other ?? fixture).startTerminal(arguments, environment: ["NO_COLOR": "1"], columns: 160)
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// Leaves `text` as `user`'s draft and enters the chat again: the draft is restored.
    func restore(_ terminal: PseudoTerminal, _ user: String, _ text: String) throws {
        try terminal.restore(text, in: user)
    }

    static let backspace = "\u{7F}"

    // MARK: - The baseline persists

    /// Item 1: Enter again after a failed command typed into a restored draft is a
    /// command attempt again (the line given back does not become the baseline).
    @Test(arguments: ["/opne bob", "/attach /nope/file.png"])
    func enterAgainAfterAFailedCommandSendsNothing(_ command: String) throws {
        let terminal = try start()
        try restore(terminal, "alice", "draft four")
        try terminal.send(command + "\r")
        try terminal.waitFor("error: ")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("error: ")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"draft four\"  cursor 10"), "\(shown)")
        #expect(shown.contains("edit line: \"draft four\(command)\""), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// A new user's trial: ` /usr/local` typed into a restored draft failed, and a `/`
    /// added to it, as the error offers (`// to send a /`), failed again as
    /// `'//usr/local': /usr/local is none either`: no way to send the line. A `/` added to an
    /// attempt with a name is the escape; only a `/` that failed alone makes one typed after
    /// it no escape (the next test's case in ``PromiseTests``).
    @Test(arguments: [9, 10])
    func aSlashAddedToAFailedAttemptSendsIt(left: Int) throws {
        let terminal = try start()
        try restore(terminal, "alice", "the path is")
        try terminal.send(" /usr/local\r")
        try terminal.waitFor("error: unknown command '/usr/local'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(String(repeating: "\u{1B}[D", count: left) + "/\r")
        try terminal.waitFor("you: the path is /usr/local")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["the path is /usr/local"])
    }

    /// Item 1 on a pipe: the same rule. The failed command leaves the draft as restored
    /// and the next line is typed into it (a pipe gives no line back to fix: the script
    /// holds it); a `//` typed into the draft sends the draft with one `/`.
    @Test func aFailedCommandOnAPipeLeavesTheDraftAsRestored() throws {
        let script = [
            "/open alice", "draft four\u{18}b", "/open alice", "/opne bob", "/attach /nope/file.png",
            "/expect draft privateMessage_alice \"draft four\" cursor 10", "/expect messages 0", "//x",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.error.components(separatedBy: "error: ").count == 3, "\(result.error)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["draft four/x"])
    }

    /// A new user's trial: `https:` left as the draft, `//example.com/guide` typed after it
    /// when it came back, and Enter sent `https:/example.com/guide` without a word (SPEC
    /// §1a: a `//` typed into a draft sends a literal `/`). The line after the message says
    /// so, and how to send two; `///` does.
    @Test func aSlashDroppedFromADraftIsSaid() throws {
        let hint = "the // typed into the draft sent one /: type /// to send two"
        let script =
            "/open alice\nsee https:\u{18}b\n/open alice\n//example.com\nsee https:\u{18}b\n/open alice\n///example.com\n"
        let piped = try fixture.runPiped(script)
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.output.contains("  you: see https:/example.com\n\(hint)\n"), "\(piped.output)")
        #expect(
            try fixture.messages(in: "alice").map(\.content) == ["see https:/example.com", "see https://example.com"])
        let terminalFixture = try Fixture()
        let terminal = try start(in: terminalFixture)
        try restore(terminal, "alice", "see https:")
        try terminal.send("//example.com\r")
        try terminal.waitFor("you: see https:/example.com")
        try terminal.waitFor(hint)
        try terminal.waitForPrompt("alice> ")
        try terminal.send("plain\r")
        let plain = try terminal.waitForPrompt("alice> ")
        #expect(!plain.contains(hint), "\(plain)")
        #expect(try terminal.quit() == .exited(0))
        #expect(try terminalFixture.messages(in: "alice").map(\.content) == ["see https:/example.com", "plain"])
    }

    /// Item 1 on a pipe, the keys themselves: the failed command, then Enter (an empty
    /// line) is Enter again on the line a terminal gives back: the same attempt, the same
    /// error, nothing sent, the draft as it was; a line with text after it starts from the
    /// draft again, so the script's next message is not glued to the typo.
    @Test(arguments: ["/opne bob", "/attach /nope/file.png"])
    func enterAgainAfterAFailedCommandSendsNothingOnAPipe(_ command: String) throws {
        let script = [
            "/open alice", "draft four\u{18}b", "/open alice", command, "", "",
            "/expect draft privateMessage_alice \"draft four\" cursor 10", "/expect messages 0", " and more",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.error.components(separatedBy: "error: ").count == 4, "\(result.error)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["draft four and more"])
    }

    /// Item 2: correcting a failed command runs it with the draft as it was; deleting the
    /// typed `/…` makes the line a plain draft again.
    @Test func aCorrectedCommandRunsWithTheDraftAsItWas() throws {
        let terminal = try start()
        try restore(terminal, "alice", "meet at the cafe")
        try terminal.send("/opne bob\r")
        try terminal.waitFor("unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(String(repeating: Self.backspace, count: 9) + "/drfts\r")
        try terminal.waitFor("unknown command '/drfts'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(String(repeating: Self.backspace, count: 6) + "/drafts\r")
        try terminal.waitFor("privateMessage_alice  \"meet at the cafe\"  cursor 16")
        try terminal.waitForPrompt("alice> ")
        #expect(try fixture.messages(in: "alice").isEmpty)
        try terminal.send("/opne\r")
        try terminal.waitFor("unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(String(repeating: Self.backspace, count: 5) + "\r")
        try terminal.waitFor("you: meet at the cafe")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["meet at the cafe"])
    }
}

extension LineOriginTests {
    /// Enters `line` in `user`'s chat, so that it is the newest line of the edit line's
    /// history, and goes back home with a leave key (which the history does not keep).
    func enterIntoHistory(_ terminal: PseudoTerminal, _ user: String, _ line: String) throws {
        try terminal.open(user)
        try terminal.send(line + "\r")
        try terminal.waitForPrompt("\(user)> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
    }

    /// Item 3: a recall that returns to the line (Up then Down, `^R` then `^G`) leaves it
    /// the user's: a command typed into the restored draft then runs.
    @Test(arguments: ["\u{1B}[A\u{1B}[B", "\u{12}earl\u{7}"])
    func aRecallThatReturnsLeavesTheLineTheUsers(_ recall: String) throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "an earlier line")
        try restore(terminal, "alice", "hello world")
        try terminal.send(recall)
        try terminal.send("/chats 1\r")
        try terminal.waitFor("Draft: hello world")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"hello world\""), "\(shown)")
        #expect(!shown.contains("undo stack"), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// Item 10: a recalled command that runs over a restored draft gives the draft back
    /// with its cursor where it was.
    @Test func aRecalledCommandGivesTheDraftBackWithItsCursor() throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "/history 1")
        try terminal.open("alice")
        try terminal.send("hello world" + String(repeating: "\u{2}", count: 6) + "\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{1B}[A\u{1B}[A")  // past "/open alice"
        try terminal.waitFor("history 1")
        try terminal.send("\r")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"hello world\"  cursor 5"), "\(shown)")
        #expect(shown.contains("edit line: \"hello world\"  cursor 5"), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    // MARK: - Every notice is true and on time

    /// Item 8: `/undo` of a line names the draft it displaces at once, and the next send
    /// says nothing more.
    @Test func undoNamesTheDraftItDisplacesAtOnce() throws {
        let terminal = try start()
        try terminal.send("typed at home\u{3}")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("draftline> ")
        try restore(terminal, "alice", "two")
        try terminal.send("/undo\r")
        try terminal.waitFor(
            "line is back: \"typed at home\"; the draft that was there is on the undo stack (/undo again)")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        let sent = try terminal.waitForPrompt("alice> ")
        #expect(sent.contains("you: typed at home") && !sent.contains("undo stack"), "\(sent)")
        try terminal.send("/undo\r")
        try terminal.waitFor("draft for privateMessage_alice is back: \"two\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["typed at home"])
    }

    /// Item 8 on a pipe: the same `/undo`, the same line at once.
    @Test func undoNamesTheDraftItDisplacesOnAPipe() throws {
        let result = try fixture.runPiped("typed at home\u{3}\n/open alice\ntwo\u{18}b\n/open alice\n/undo\n\n")
        #expect(
            result.output.contains(
                "line is back: \"typed at home\"; the draft that was there is on the undo stack (/undo again)\n  you: typed at home"
            ), "\(result.output)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["typed at home"])
    }

    /// Item 8: Up, Down back to one's own line, Ctrl-U, Ctrl-D: the user deleted the line;
    /// no notice claims it is on the undo stack.
    @Test func noNoticeClaimsADeletedLineIsOnTheUndoStack() throws {
        let terminal = try start()
        try terminal.open("carol")
        try terminal.send("a draft elsewhere\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try enterIntoHistory(terminal, "bob", "an earlier line")
        try terminal.open("alice")
        try terminal.send("my own line\u{1B}[A\u{1B}[B\u{15}\u{4}")
        let shown = try terminal.waitFor("would be forgotten")
        #expect(!shown.contains("undo stack"), "\(shown)")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/drafts\r")
        let drafts = try terminal.waitForPrompt("alice> ")
        #expect(!drafts.contains("my own line"), "\(drafts)")
        #expect(try terminal.quit() == .exited(0))
    }

    /// Item 8: Ctrl-C during `^R` puts the user's own text (the draft and what they typed)
    /// on top of the undo stack, not the recalled history line.
    @Test func ctrlCDuringASearchSettlesTheUsersOwnTextOnTop() throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "an earlier line")
        try restore(terminal, "alice", "half")
        try terminal.send(" written\u{12}earl")
        try terminal.waitFor("earl")
        try terminal.send("\u{3}")
        try terminal.waitFor("the line a recall replaced is on the undo stack: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"half written\"")
        try terminal.waitForPrompt("alice> ")
        // The recalled line, as history gave it, was a copy: nothing more is on the stack.
        try terminal.send("\u{15}/undo\r")
        try terminal.waitFor("nothing to undo")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    /// D15: Ctrl-C after a recalled line the user edited was replaced by another recall:
    /// the user's own line is still the top entry, the edited recalled line below it (as
    /// history gave it, the line shown at Ctrl-C is not kept). With Backspace for the edit
    /// too: a line the user only deleted from is theirs, below their own line.
    @Test(arguments: ["X", backspace])
    func ctrlCAfterAnEditedRecallWasReplacedKeepsTheUsersLineOnTop(_ edit: String) throws {
        let terminal = try start()
        try terminal.open("alice")
        for line in ["one", "two"] {
            try terminal.send(line + "\r")
            try terminal.waitForPrompt("alice> ")
        }
        try terminal.send("mine\u{1B}[A")
        try terminal.waitFor("two")
        try terminal.send(edit + "\u{1B}[A")
        try terminal.waitFor("one")
        try terminal.send("\u{3}")
        try terminal.waitFor("the line a recall replaced is on the undo stack (2 entries)")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"mine\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}/undo\r")
        try terminal.waitFor("is back: \"\(edit == "X" ? "twoX" : "tw")\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["one", "two"])
    }

    /// D21: a recalled command run over the user's line in a chat keeps that line as the
    /// draft; a recalled line they edited on the way goes on the undo stack, and the notice
    /// says a line a recall replaced went there (it said the line typed before recalling
    /// one had, which stayed the draft).
    @Test func aRecalledCommandOverAnEditedRecallKeepsTheDraft() throws {
        let terminal = try start()
        try terminal.open("alice")
        for line in ["/chats", "one"] {
            try terminal.send(line + "\r")
            try terminal.waitForPrompt("alice> ")
        }
        try terminal.send("draft four\u{1B}[A")
        try terminal.waitFor("one")
        try terminal.send(" x\u{1B}[A")
        try terminal.waitFor("/chats")
        try terminal.send("\r")
        try terminal.waitFor("the line a recall replaced is on the undo stack: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/drafts\r")
        let drafts = try terminal.waitForPrompt("alice> ")
        #expect(drafts.contains("privateMessage_alice  \"draft four\"  cursor 10"), "\(drafts)")
        #expect(drafts.contains("undo stack (1,") && drafts.contains("privateMessage_alice  \"one x\""), "\(drafts)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["one"])
    }

    /// Item 8: `/quit` names the undo entries it forgets, as the Ctrl-D warning counts them.
    @Test func quitNamesTheUndoEntriesItForgets() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("kept\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("thrown\u{3}")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{4}")
        try terminal.waitFor("1 unsent draft and 1 entry on the undo stack would be forgotten")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/quit\r")
        try terminal.waitFor("1 draft discarded: privateMessage_alice; 1 entry on the undo stack forgotten")
        #expect(try terminal.waitForExit() == .exited(0))
        let piped = try fixture.runPiped("thrown\u{3}\n/quit\n")
        #expect(piped.output.hasSuffix("1 entry on the undo stack forgotten\n"), "\(piped.output)")
    }

    /// A helper's attack: text the line holds that no draft keeps (given back after a
    /// failed Enter at home, held over the `^X /` prompt, brought back by `/undo`) was
    /// forgotten without a word by a `/quit` typed after it. The quit names it, on a
    /// terminal and on a pipe.
    @Test(arguments: [
        ("abc\r", "/quit\r"), ("abc\u{18}/", "quit\r"),
    ])
    func quitNamesTheTextTheLineHeld(typed: String, quit: String) throws {
        let terminal = try start()
        try terminal.send(typed)
        try terminal.waitFor(typed.hasSuffix("\r") ? "no chat is open" : "command: ")
        try terminal.send(quit)
        try terminal.waitFor("the text in the line, \"abc\", is forgotten")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    @Test func quitNamesTheTextUndoBroughtIntoTheLine() throws {
        let piped = try fixture.runPiped("/open bob\nD\u{18}p\nabc\u{18}b\n/undo\n/drafts\n/quit\n")
        #expect(piped.status == 0, "\(piped.error)")
        #expect(
            piped.output.hasSuffix(
                "1 entry on the undo stack forgotten\nthe text in the line, \"abc\", is forgotten\n"),
            "\(piped.output)")
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("D\u{18}p")
        try terminal.waitForPrompt("profile bob> ")
        try terminal.send("abc\u{18}b")
        try terminal.waitFor("nothing here can keep that text")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("line is back: \"abc\"")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/drafts\r")
        try terminal.waitFor("undo stack (1,")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/quit\r")
        try terminal.waitFor("1 entry on the undo stack forgotten")
        try terminal.waitFor("the text in the line, \"abc\", is forgotten")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// A helper's attack: Ctrl-C after a `^X` lead-in (or after Escape) did nothing on a
    /// terminal, libedit swallowing both as an unbound sequence, and the next Enter sent
    /// the line; on a pipe the same bytes abandon it. Both abandon it now.
    @Test(arguments: ["\u{18}\u{3}", "\u{1B}\u{3}"])
    func ctrlCAfterALeadInAbandonsTheLine(keys: String) throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("bye")
        try terminal.waitFor("bye")
        try terminal.send(keys)
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\r")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").isEmpty)
    }

    /// A new user's trial: ` /attach FILE` typed into a restored draft ran, then Ctrl-C
    /// put the text on the undo stack and left the file attached, with a notice that did
    /// not say so, and the next, unrelated message sent the file. The files go with the
    /// abandoned line now, the notice names them, and `/undo` brings both back.
    @Test func ctrlCTakesTheDraftsFilesWithTheLine() throws {
        let file = fixture.root + "/notes.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("notes".utf8)))
        let notice = "line abandoned with its attached file notes.txt: /undo brings them back"
        let piped = try fixture.runPiped(
            "/open bob\nhello there\u{18}b\n/open bob\n /attach \(file)\n\u{3}ok\n/undo\n\n/quit\n")
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.output.contains(notice + "\n"), "\(piped.output)")
        #expect(piped.output.contains("draft for privateMessage_bob is back: \"hello there\", 1 attached\n"))
        let pipedStored = try fixture.storedDictionaries(in: "bob")
        let terminalFixture = try Fixture()
        let terminal = try start(in: terminalFixture)
        try restore(terminal, "bob", "hello there")
        try terminal.send(" /attach \(file)\r")
        try terminal.waitFor("attached: 1) notes.txt")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{3}")
        try terminal.waitFor(notice)
        try terminal.waitForPrompt("bob> ")
        try terminal.send("ok\r")
        try terminal.waitFor("you: ok")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("draft for privateMessage_bob is back: \"hello there\", 1 attached")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\r")
        try terminal.waitFor("you: hello there")
        #expect(try terminal.quit() == .exited(0))
        // As plistlib reads them: `ok` alone, then the file and the text it was written with.
        for stored in [pipedStored, try terminalFixture.storedDictionaries(in: "bob")] {
            #expect(stored.map { $0["content"] as? String } == ["ok", "", "hello there"], "\(stored)")
            #expect(stored.map { ($0["filePath"] as? String ?? "").hasSuffix("notes.txt") } == [false, true, false])
        }
    }

    /// A helper's attack: a paste during `/wait`, then Ctrl-C, ran the wait its whole time
    /// (the Ctrl-C was held with the paste's end until a pause no one waited for). A new
    /// user's trial: `never mind`, typed (unseen) during `/wait`, then Ctrl-C: the text came
    /// back in the line, and ` /drafts` typed next was sent with it. Now Ctrl-C stops the
    /// wait at once and then, as in a read, abandons what came before it, pasted or typed:
    /// onto the undo stack with the notice, and `/undo` brings it back. Alone, on an empty
    /// line, it only stops the wait.
    @Test(arguments: [true, false])
    func ctrlCDuringAWaitStopsItAndAbandonsWhatCameBefore(pasted: Bool) throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("/wait 1 60\r")
        try terminal.waitFor("/wait 1 60\r\n")
        try terminal.send(pasted ? Self.paste("never mind") : "never mind")
        try terminal.send("\u{3}")
        try terminal.waitFor("wait stopped: 0 of 1 message arrived", timeout: 20)
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/wait 1 60\r")
        try terminal.waitFor("/wait 1 60\r\n")
        try terminal.send("\u{3}")
        try terminal.waitFor("wait stopped: 0 of 1 message arrived", timeout: 20)
        let after = try terminal.waitForPrompt("bob> ")
        #expect(!after.contains("line abandoned"), "\(after)")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"never mind\"")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\r")
        try terminal.waitFor("you: never mind")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["never mind"])
    }
}

/// What the reference model of SPEC §1a found (/work/coord/28-model.md), each kept as a
/// test through the binary.
extension LineOriginTests {
    /// D10: a recalled command that fails over the user's own line keeps that line as the
    /// draft with its cursor where the user left it (the search moved it meanwhile).
    @Test func aFailedRecalledCommandKeepsTheUsersCursor() throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("/open nobody\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("abc def\u{1}\u{12}nob")
        try terminal.waitFor("nob")
        try terminal.send("\r")
        try terminal.waitFor("no user 'nobody'")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"abc def\"  cursor 0"), "\(shown)")
        #expect(shown.contains("edit line: \"/open nobody\""), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    /// D5: Ctrl-C on a recalled line as history gave it, over an empty line, keeps nothing:
    /// a history line is not the user's text, and no notice says otherwise.
    @Test func ctrlCOnARecalledLineKeepsNoCopyOfHistory() throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "an earlier line")
        try terminal.open("alice")
        try terminal.send("\u{1B}[A")
        try terminal.waitFor("open alice")
        try terminal.send("\u{3}")
        let shown = try terminal.waitForPrompt("alice> ")
        #expect(!shown.contains("undo"), "\(shown)")
        try terminal.send("/drafts\r")
        let drafts = try terminal.waitForPrompt("alice> ")
        #expect(drafts.contains("no drafts in memory") && !drafts.contains("undo stack"), "\(drafts)")
        #expect(try terminal.quit() == .exited(0))
    }

    /// D6: an empty `^X /` prompt left with Ctrl-C or a leave key keeps nothing.
    @Test(arguments: ["\u{3}", "\u{18}b"])
    func anEmptyCommandPromptLeftKeepsNothing(_ key: String) throws {
        let result = try fixture.runPiped("/open alice\n\u{18}/\(key)\n/drafts\n")
        #expect(!result.output.contains("undo stack") && !result.output.contains("\"/\""), "\(result.output)")
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send(key)
        let shown = try terminal.waitForAny(["alice> ", "draftline> "])
        #expect(shown.map { !$0.before.contains("undo") } == true, "\(String(describing: shown))")
        try terminal.waitForRawMode()
        try terminal.send("/drafts\r")
        let drafts = try terminal.waitForAny(["alice> ", "draftline> "])
        #expect(drafts.map { !$0.before.contains("undo stack") } == true, "\(String(describing: drafts))")
        #expect(try terminal.quit() == .exited(0))
    }

    /// Reading 13: a blank line where no chat is open sends nothing and says nothing, as
    /// in a chat (it was "not sent '': no chat is open").
    @Test func aBlankLineWhereNoChatIsOpenIsNothing() throws {
        let result = try fixture.runPiped("\n   \n/profile bob\n\n")
        #expect(result.error.isEmpty, "\(result.error)")
    }

    /// D9, D18: a leave key with text where no chat is open does on a pipe what it does on
    /// a terminal, what its command does there: the text goes on the undo stack (one line
    /// says so) and the key acts (`^X o` asks for the name).
    @Test func aLeaveKeyWithTextAtHomeActsAsItsCommandOnAPipe() throws {
        let result = try fixture.runPiped("hello\u{18}o\nalice\n/expect screen alice\n/undo\n")
        #expect(result.output.contains("on the undo stack"), "\(result.output)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(result.output.contains("line is back: \"hello\""), "\(result.output)")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}

// MARK: - vi mode

extension LineOriginTests {
    /// Item 9: in vi mode Ctrl-L redraws in insert and in command mode and inserts nothing;
    /// no control key inserts itself unless quoted with `^V`.
    @Test func viCtrlLRedrawsAndNoControlKeyInsertsItself() throws {
        let terminal = try start(["--editor", "vi"])
        try terminal.open("alice")
        try terminal.send("are you\u{C} free?\u{1B}\u{C}")
        try terminal.waitFor("\u{1B}[2J")  // the screen cleared and drawn again
        // Keys that inserted themselves before: moves, ignored keys, a redraw, the bell.
        try terminal.send("a\u{1}\u{5}\u{2}\u{6}\u{F}\u{19}\u{12}\u{7}\u{16}\u{7}\r")
        try terminal.waitFor("you: ")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        let sent = try fixture.messages(in: "alice").map(\.content)
        #expect(sent.count == 1, "\(sent)")
        let controls = sent.first.map { $0.unicodeScalars.filter { $0.value < 0x20 }.map(\.value) } ?? []
        #expect(controls == [0x07], "only the quoted ^G is in the message: \(sent)")
        #expect(sent.first.map { $0.hasPrefix("are you free") && $0.contains("?") } == true, "\(sent)")
    }

    /// Item 9: Ctrl-D on an empty line in vi's command mode does what it does in insert
    /// mode: with drafts in memory it warns, and the next one quits.
    @Test func viCtrlDInCommandModeActsAsInInsertMode() throws {
        let terminal = try start(["--editor", "vi"])
        try terminal.open("alice")
        try terminal.send("kept\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{1B}\u{4}")
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("draftline> ")
        // Escape is a key in between: it carries on, and Ctrl-D in command mode warns again.
        try terminal.send("\u{1B}\u{4}")
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == .exited(0))
    }
}

// MARK: - A line that cannot be entered

extension LineOriginTests {
    /// Item 6: a line over 64 KiB (typing and two pastes under the limit each) refused on
    /// Enter is never destroyed: it is on the undo stack, named in the error line, and
    /// `/undo` brings it back; the draft it was typed into stays as restored.
    @Test func aLineTooLongToEnterGoesOnTheUndoStackWhole() throws {
        let terminal = try start()
        try restore(terminal, "alice", "typed start ")
        try terminal.waitFor("\u{1B}[?2004h")
        let half = String(repeating: "0123456789", count: 4000)  // 40,000 bytes
        for typed in ["X", "Y"] {
            try terminal.send("\u{1B}[200~" + half + "\u{1B}[201~")
            try terminal.send(typed)  // a key after the paste: it has been read whole
            try terminal.waitFor(typed, timeout: 60)
        }
        try terminal.send("\r")
        try terminal.waitFor("and the limit is 64 KiB; nothing was sent: it is on the undo stack", timeout: 60)
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"typed start \"  cursor 12"), "the draft as restored")
        #expect(shown.contains("privateMessage_alice  \"typed start 0123456789"), "the refused line on the stack")
        try terminal.send("/undo\r")
        try terminal.waitFor("draft for privateMessage_alice is back: \"typed start 0123456789", timeout: 60)
        try terminal.waitForPrompt("alice> ", timeout: 60)
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}

// MARK: - A paste is text

extension LineOriginTests {
    static func paste(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

    /// Item 4: a paste into a restored draft never makes it a command attempt: the draft
    /// and the paste are one message on Enter. On an empty line a pasted `/` line is a
    /// command, as in a shell.
    @Test func aPasteIntoARestoredDraftIsText() throws {
        let terminal = try start()
        try restore(terminal, "alice", "see ")
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.send(Self.paste("/etc/hosts is the file\rsecond line"))
        try terminal.send("\r")
        try terminal.waitFor("you: see /etc/hosts is the file")
        try terminal.waitForPrompt("alice> ")
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.send(Self.paste("/drafts"))
        try terminal.send("\r")
        try terminal.waitFor("no drafts in memory")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["see /etc/hosts is the file\nsecond line"])
    }

    /// Item 4 on a pipe: the same bytes mean the same.
    @Test func aPasteIntoARestoredDraftIsTextOnAPipe() throws {
        let lines = [
            "/open alice", "see \u{18}b", "/open alice", Self.paste("/etc/hosts is the file\rsecond line"),
            Self.paste("/expect messages 1"),
        ]
        let result = try fixture.runPiped(lines.joined(separator: "\n") + "\n")
        #expect(result.output.contains("ok: the chat holds 1 message"), "\(result.output) \(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["see /etc/hosts is the file\nsecond line"])
    }

    /// Item 5: an `ESC[201~` before the paste's real end (the last one of the burst) is
    /// text, and so is every CR in the paste: nothing is entered.
    @Test func anEarlyPasteEndAndItsCRsAreText() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.send(Self.paste("A\u{1B}[201~\rB\rC"))
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"A^[[201~^JB^JC\""), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
        // A pipe line is one burst too: its last end marker ends the paste.
        let piped = try fixture.runPiped(
            "/open alice\n" + Self.paste("A\u{1B}[201~\rB") + "\u{15}\n/expect messages 0\n")
        #expect(piped.output.contains("ok: the chat holds 0 messages"), "\(piped.output) \(piped.error)")
    }

    /// Item 5: a paste during `/wait` is held for the edit line, never read as keys.
    @Test func aPasteDuringWaitWaitsForTheEditLine() throws {
        let terminal = try start()
        try restore(terminal, "alice", "draft ")
        try terminal.send("/wait 1 1\r")
        try terminal.waitForReadToEnd()
        try terminal.waitFor("\u{1B}[?2004h")  // the wait takes pastes bracketed
        try terminal.send(Self.paste("one\rtwo\u{3}"))
        try terminal.waitFor("0 of 1 message arrived")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"draft one^Jtwo^C\""), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// Item 5: a paste during the tour is refused in one line; its Ctrl-C is text, not the
    /// interrupt key, and it skips nothing.
    @Test func aPasteDuringTheTourIsRefusedInOneLine() throws {
        let terminal = try fixture.startTerminal(["--tour", "--tour-speed", "0.01"])
        try terminal.waitFor(String(Tour.steps[0].narration.prefix(20)), timeout: 20)
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.send(Self.paste("pasted\u{3}"))
        let refused = try terminal.waitFor("the tour does not take a paste")
        #expect(!refused.contains("tour stopped"))
        try terminal.send(" ")  // a key skips ahead
        try terminal.waitFor(String(Tour.steps[1].narration.prefix(20)), timeout: 20)
        try terminal.send("\u{3}")
        try terminal.waitFor("tour stopped")
        _ = try terminal.waitForExit()
    }

    /// Item 7: an unterminated paste start never holds keys back: what follows is shown as
    /// it arrives (its Enter is text), and after a second of silence the paste is over:
    /// keys are keys again. The second is waited for: silence is what is tested.
    @Test func anUnterminatedPasteStartHoldsNothingBack() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.send("\u{1B}[200~shown at once\r")
        try terminal.waitFor("shown at once")
        usleep(1_500_000)
        try terminal.send("\r")
        try terminal.waitFor("you: shown at once")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["shown at once\n"])
    }
}

// MARK: - A long line in and out of libedit

extension LineOriginTests {
    /// Ways a line goes out of libedit and back in, each ending with the line in alice's
    /// edit line.
    enum LongLinePath: String, CaseIterable, CustomTestStringConvertible {
        case upThenDown, searchThenCancel, searchThenCtrlC, commandKeyAndBack, leaveAndBack, failedCommand
        case resize, refusedEnter

        var testDescription: String { rawValue }
    }

    /// D13 and every other way out of libedit and back: a line longer than libedit's saved
    /// copy of the line (1,024 characters) comes back whole, text and cursor. Up then
    /// Down and `^R` then `^G` brought its end back as NULs. Each path ends with `^X b`,
    /// and the draft map at home shows what the edit line held, to the last character.
    @Test(arguments: LongLinePath.allCases)
    func aLongLineComesBackWhole(_ path: LongLinePath) throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "an earlier line")
        try terminal.open("alice")
        try terminal.waitFor("\u{1B}[?2004h")
        // Five times libedit's copy (longer makes `^R` slow: libedit matches its pattern at
        // every place in the line, each match a regular expression compiled anew).
        let long = "start " + String(repeating: "0123456789", count: 500) + " END"
        var expected = long + "!"
        if path == .failedCommand {
            try terminal.send("/opne ")
            expected = "/opne " + expected
        }
        try terminal.send(Self.paste(long))
        try terminal.send("!")  // a key after the paste: it has been read whole
        try terminal.waitFor("!", timeout: 60)
        switch path {
        case .upThenDown:
            try terminal.send("\u{1B}[A")
            try terminal.waitFor("open alice")
            try terminal.send("\u{1B}[B")
        case .searchThenCancel:
            try terminal.send("\u{12}earl")
            try terminal.waitFor("earlier line")
            try terminal.send("\u{7}")
        case .searchThenCtrlC:
            try terminal.send("\u{12}earl")
            try terminal.waitFor("earlier line")
            try terminal.send("\u{3}")
            try terminal.waitFor("on the undo stack: /undo brings it back", timeout: 60)
            try terminal.waitForPrompt("alice> ", timeout: 60)
            try terminal.send("/undo\r")
            try terminal.waitFor("is back: \"start 0123", timeout: 60)
        case .commandKeyAndBack:
            try terminal.send("\u{18}/")
            try terminal.waitForPrompt("command: /", timeout: 60)
            try terminal.send("chats\r")
            try terminal.waitFor("Draft: start 0123", timeout: 60)
        case .leaveAndBack:
            try terminal.send("\u{18}b")
            try terminal.waitForPrompt("draftline> ", timeout: 60)
            try terminal.send("/open alice\r")
        case .failedCommand:
            try terminal.send("\r")
            try terminal.waitFor("unknown command '/opne'", timeout: 60)
        case .resize:
            terminal.resize(rows: 12, columns: 50)
            try terminal.send("\u{18}d")
            try terminal.waitFor("edit line: ", timeout: 60)
            terminal.resize(rows: 24, columns: 80)
            try terminal.send("\u{18}d")
            try terminal.waitFor("edit line: ", timeout: 60)
        case .refusedEnter:
            // Over 64 KiB with a second paste, under the limit itself (the "!" between them).
            let more = String(repeating: "y", count: 62_000)
            try terminal.send(Self.paste(more))
            try terminal.send("?")
            try terminal.waitFor("?", timeout: 60)
            try terminal.send("\r")
            try terminal.waitFor("nothing was sent: it is on the undo stack", timeout: 60)
            try terminal.waitForPrompt("alice> ", timeout: 60)
            try terminal.send("/undo\r")
            try terminal.waitFor("is back: \"start 0123", timeout: 60)
            expected += more + "?"
        }
        // The line is in the edit line again: kept as the draft, it shows what libedit holds.
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ", timeout: 60)
        let shown = try terminal.drafts(prompt: "draftline> ")
        let count = expected.unicodeScalars.count
        #expect(
            shown.contains("privateMessage_alice  \"\(expected)\"  cursor \(count)  media 0"),
            "\(shown.count) characters shown; NULs: \(shown.components(separatedBy: "^@").count - 1)")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// D14: each return to one's own line makes it the user's again, the second too: after
    /// Up, Down, typing, Up, Down, the line deleted with `^U` is gone (the user deleted
    /// it), not brought back as the draft or put on the undo stack with a notice.
    @Test(arguments: [true, false])
    func aSecondReturnAfterTypingLeavesTheLineTheUsers(inChat: Bool) throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "an earlier line")
        let prompt = inChat ? "alice> " : "draftline> "
        if inChat { try terminal.open("alice") }
        for typed in ["e1", "X2"] {
            try terminal.send(typed)
            try terminal.send("\u{1B}[A")
            try terminal.waitFor(inChat ? "open alice" : "earlier line")
            try terminal.send("\u{1B}[B")
            try terminal.waitFor(typed)
        }
        try terminal.send("\u{15}/drafts\r")
        let shown = try terminal.waitForPrompt(prompt)
        #expect(shown.contains("no drafts in memory") && !shown.contains("undo"), "\(shown)")
        let line = try terminal.drafts(prompt: prompt)
        #expect(line.contains("edit line: \"\"  cursor 0") && !line.contains("undo stack"), "\(line)")
        #expect(try terminal.quit() == .exited(0))
    }
}
