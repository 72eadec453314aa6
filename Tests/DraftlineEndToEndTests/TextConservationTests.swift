import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// The situations a new user and a QA engineer hit where text was lost or sent by mistake
/// (issue 18), each replayed on the real binary through a pseudo-terminal: the text ends
/// as a message sent on purpose, a draft, or an entry on the undo stack, and a notice says
/// when it went on the undo stack without being asked.
@Suite("Text conservation on a terminal: the situations that leaked")
struct TextConservationTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func start(_ arguments: [String] = []) throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(arguments, environment: ["NO_COLOR": "1"], columns: 160)
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// `^X d` above the line: the drafts, the undo stack and the edit line as they are.
    func observe(_ terminal: PseudoTerminal, prompt: String) throws -> String {
        try terminal.send("\u{18}d")
        let shown = try terminal.waitFor("edit line: ")
        let line = try terminal.waitFor("\r\n")
        try terminal.waitFor(prompt)
        return shown + "edit line: " + line
    }

    @Test func aRecalledCommandOverAnEditedDraftKeepsTheEdits() throws {
        let terminal = try start()
        try terminal.open("carol")
        try terminal.send("carol draft\u{18}p")
        try terminal.waitForPrompt("profile carol> ")
        try terminal.send("/drafts\r")
        try terminal.waitForPrompt("profile carol> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("carol> ")
        try terminal.send(" EXTRA")
        try terminal.send("\u{1B}[A")  // Up: recalls /drafts
        try terminal.send("\r")
        try terminal.waitFor("privateMessage_carol  \"carol draft EXTRA\"")
        try terminal.waitForPrompt("carol> ")
        let seen = try observe(terminal, prompt: "carol> ")
        #expect(seen.contains("edit line: \"carol draft EXTRA\""), "\(seen)")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "carol").isEmpty)
    }

    /// On a profile the line holds text it cannot keep as a draft; `/undo` typed into it
    /// brings back a line from the undo stack: the text that was there goes on the undo
    /// stack in its place (it was dropped: found by the conservation test).
    @Test func undoTypedIntoALineOnAProfileKeepsTheTextItReplaces() throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("/nosuchcommand\r")
        try terminal.waitFor("unknown command")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{15}/profile bob\r")
        try terminal.waitForPrompt("profile bob> ")
        // Up over typed text: the text goes on the undo stack as a line.
        try terminal.send("typed here\u{1B}[A\u{15}\r")
        try terminal.waitFor("on the undo stack")
        try terminal.waitForPrompt("profile bob> ")
        try terminal.send("abc def\r")  // a message where no chat is open: the line stays
        try terminal.waitFor("no chat is open")
        try terminal.waitForPrompt("profile bob> ")
        try terminal.send("\u{1}\u{6}\u{6}\u{6}/undo\r")
        try terminal.waitFor("line is back")
        try terminal.waitForPrompt("profile bob> ")
        let seen = try observe(terminal, prompt: "profile bob> ")
        #expect(seen.contains("edit line: \"typed here\""), "\(seen)")
        #expect(seen.contains("(line)  \"abc def\""), "the text /undo replaced is not on the undo stack: \(seen)")
        #expect(try terminal.quit() == .exited(0))
    }

    /// A failed command comes back in the line, the newest line of the history too: Up
    /// recalls that same line (nothing replaced), a second Up an older one. The text given
    /// back is the user's, in no draft: the second recall keeps it on the undo stack (it
    /// was dropped, so a Ctrl-D after clearing the line quit with nothing to warn of).
    @Test func recallingTwiceOverAFailedCommandGivenBackKeepsIt() throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("/history\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("AAA\u{1}/discard now\r")
        try terminal.waitFor("usage is /discard")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{1B}[A")
        try terminal.send("\u{1B}[A")
        try terminal.send(" more\u{15}\u{4}")
        try terminal.waitFor("would be forgotten")
        try terminal.waitForPrompt("bob> ")
        let seen = try observe(terminal, prompt: "bob> ")
        #expect(seen.contains("\"/discard nowAAA\""), "the line given back is not on the undo stack: \(seen)")
        #expect(try terminal.quit() == .exited(0))
    }

    @Test func aFailedCommandGivesTheLineBackAsEntered() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("hello there\u{1}/history \r")
        try terminal.waitFor("error: 'hello' is not a count")
        try terminal.waitForPrompt("alice> ")
        let seen = try observe(terminal, prompt: "alice> ")
        #expect(seen.contains("edit line: \"/history hello there\""), "\(seen)")
        // A usage error typed into a restored draft: the whole line back, nothing sent.
        try terminal.send("\u{15}kept words\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("/drafts third\r")
        try terminal.waitFor("error: unexpected 'third'")
        try terminal.waitForPrompt("alice> ")
        let again = try observe(terminal, prompt: "alice> ")
        #expect(again.contains("edit line: \"kept words/drafts third\""), "\(again)")
        #expect(again.contains("privateMessage_alice  \"kept words\""), "the draft stays: \(again)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    @Test(arguments: ["/profile alice", "/back"])
    func ctrlCWhereNoDraftIsKeptPutsTheLineOnTheUndoStack(_ screen: String) throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send(screen + "\r")
        let prompt = screen == "/back" ? "draftline> " : "profile alice> "
        try terminal.waitForPrompt(prompt)
        try terminal.send("typed on profile\u{3}")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt(prompt)
        try terminal.send("/undo\r")
        try terminal.waitFor("line is back: \"typed on profile\"")
        try terminal.waitForPrompt(prompt)
        let seen = try observe(terminal, prompt: prompt)
        #expect(seen.contains("edit line: \"typed on profile\""), "\(seen)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    @Test func ctrlDAfterClearingARestoredDraftLeavesTheLineEmptyAndTheVeryNextQuits() throws {
        let terminal = try start()
        // (bob's draft is what the warning counts: alice's, emptied with Ctrl-U, is no draft.)
        try terminal.open("bob")
        try terminal.send("bob's draft\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("restored draft\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{15}\u{4}")  // Ctrl-U, Ctrl-D
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("alice> ")
        let seen = try observe(terminal, prompt: "alice> ")
        #expect(seen.contains("edit line: \"\""), "the warning changed the line: \(seen)")
        try terminal.send("\u{4}")  // after ^X d, a key: it carries on, and this warns again
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")  // the very next key
        #expect(try terminal.waitForExit() == .exited(0))
    }

    @Test func aMistypedCommandOnARestoredDraftIsNeverSent() throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("Can we move it\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("/drfts\r")
        try terminal.waitFor("error: unknown command '/drfts'")
        try terminal.waitForPrompt("bob> ")
        let seen = try observe(terminal, prompt: "bob> ")
        #expect(seen.contains("edit line: \"Can we move it/drfts\""), "\(seen)")
        // `//` still sends a literal slash.
        try terminal.send("\u{15}\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("//usr/bin\r")
        try terminal.waitFor("you: /usr/bin")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["/usr/bin"])
    }

    @Test func aMultiLinePasteIsInsertedAndSentAsOneMessageOnEnter() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.waitFor("\u{1B}[?2004h")  // bracketed paste is on while a line is read
        try terminal.send("\u{1B}[200~line one\rline two\rline three\u{1B}[201~")
        let seen = try observe(terminal, prompt: "alice> ")
        #expect(seen.contains("edit line: \"line one^Jline two^Jline three\""), "\(seen)")
        #expect(try fixture.messages(in: "alice").isEmpty, "a paste sent something")
        try terminal.send("\r")
        try terminal.waitFor("  you: line one\r\n       line two\r\n       line three")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["line one\nline two\nline three"])
        // Off again once draftline stops reading.
        let text = terminal.text
        let lastOn = try #require(text.range(of: "\u{1B}[?2004h", options: .backwards))
        #expect(text[lastOn.upperBound...].contains("\u{1B}[?2004l"))
    }

    @Test func aPasteLongerThanALineIsRefusedWithOneLine() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.waitFor("\u{1B}[?2004h")
        let big = String(repeating: "0123456789abcdef", count: 5000)  // 80,000 bytes
        try terminal.send("\u{1B}[200~" + big + "\u{1B}[201~")
        try terminal.waitFor("error: paste refused: it is 80000 bytes and the limit is 64 KiB; nothing was inserted")
        try terminal.send("kept\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["kept"])
    }

    @Test func textTypedJustBeforeCtrlCIsPartOfTheAbandonedLine() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("throw away\u{3}")  // one write: a fast typist, a paste, a script
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("draft for privateMessage_alice is back: \"throw away\"")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// A command typed at the end of a restored draft after a space is still a command: it
    /// runs, and the draft stays as it was; `//` there sends one `/`.
    @Test func aCommandSetApartByASpaceInARestoredDraftRuns() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("draft one\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send(" /chats\r")
        try terminal.waitFor("Draft: draft one")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(" //x\r")
        try terminal.waitFor("you: draft one /x")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["draft one /x"])
    }

    /// Ctrl-C at `^X /`'s prompt keeps the half-typed command as a command: brought back into
    /// a chat's line by `/undo`, Enter runs it rather than sending it.
    @Test func aCommandAbandonedAtItsPromptComesBackAsACommand() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("drafts\u{3}")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"/drafts\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("no drafts in memory")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// Quitting forgets the undo stack too: Ctrl-D warns first when only the stack holds
    /// text, and the second press quits.
    @Test func ctrlDWarnsOfTheUndoStackToo() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("a paragraph\u{3}")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")
        try terminal.waitFor("1 entry on the undo stack would be forgotten: Ctrl-D again (or /quit) quits")
        try terminal.waitForRawMode()  // between reads the terminal's own mode takes ^D as its end of file
        try terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// Between reads (here during `/wait`) Ctrl-C is a key like the others (the terminal
    /// stays in the editor's mode): the wait takes it and stops, and then, as in a read, it
    /// abandons what was typed ahead of it: onto the undo stack, from where `/undo` brings it.
    @Test func textTypedAheadOfCtrlCDuringAWaitIsAbandonedWithIt() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("/wait 1 30\r")
        try terminal.waitForReadToEnd()
        try terminal.send("typed during the wait\u{3}")
        try terminal.waitFor("wait stopped: 0 of 1 message arrived")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"typed during the wait\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("you: typed during the wait")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["typed during the wait"])
    }

    @Test func aRecallSentOverADraftSaysSoAndUndoSaysWhatItReplaced() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("an earlier line\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("half written\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{12}earl")  // ^R and a pattern: the earlier line replaces the draft
        try terminal.waitFor("earl")
        try terminal.send("\r")
        try terminal.waitFor("the line a recall replaced is on the undo stack: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("newer\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("/undo\r")
        try terminal.waitFor(
            "draft for privateMessage_alice is back: \"half written\"; the draft that was there is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor(
            "draft for privateMessage_alice is back: \"newer\"; the draft that was there is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["an earlier line", "an earlier line"])
    }

    @Test func detachTracesTheDraftAsSavedWhileItStays() throws {
        let file = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1])))
        let terminal = try start(["--trace"])
        try terminal.open("alice")
        try terminal.send("/attach \(file)\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("words\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("/detach\r")
        try terminal.waitFor("trace: saved privateMessage_alice (/detach) \"words\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }
}
