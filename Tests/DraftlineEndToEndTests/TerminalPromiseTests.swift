import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// SPEC §1a with the real binary on a terminal: each situation a new user hit, where
/// text was lost or sent by mistake.
@Suite("The promise on a terminal", .serialized)
struct TerminalPromiseTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func start(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(
            arguments, environment: environment.merging(["NO_COLOR": "1"]) { a, _ in a }, columns: 160)
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// Leaves `user`'s chat with `text` as its draft, the cursor `back` characters from
    /// the end, and enters it again.
    func leaveDraft(_ terminal: PseudoTerminal, _ user: String, _ text: String, back: Int = 0) throws {
        try terminal.restore(text, in: user, back: back)
    }

    /// Types each `/expect` line and waits for its "ok:" (a failed one times out, and its
    /// status 1 fails the quit).
    func expect(_ terminal: PseudoTerminal, _ checks: [String], prompt: String) throws {
        for check in checks {
            try terminal.send(check + "\r")
            try terminal.waitFor("ok: ")
            try terminal.waitForPrompt(prompt)
        }
    }

    /// Two drafts: bob's kept at home, alice's "emptied soon" restored in her open chat.
    func keepBobsDraftAndRestoreAlices(_ terminal: PseudoTerminal) throws {
        try terminal.open("bob")
        try terminal.send("kept for bob\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try leaveDraft(terminal, "alice", "emptied soon")
    }

    @Test func aCommandTypedIntoARestoredDraftRunsAndNothingIsSent() throws {
        let terminal = try start()
        try leaveDraft(terminal, "bob", "hello bob, meeting at 5", back: 5)
        try terminal.send("/drafts\r")
        try terminal.waitFor("privateMessage_bob  \"hello bob, meeting at 5\"  cursor 18")
        try terminal.waitForPrompt("bob> ")
        // The cursor at 0, and /discard: the draft is discarded, not glued to the command.
        try terminal.send("\u{1}\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("/discard\r")
        try terminal.waitFor("draft discarded: /undo brings it back")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").isEmpty)
        let lines = try fixture.lineHistory()
        #expect(lines.contains("/drafts") && lines.contains("/discard"), "\(lines)")
        #expect(!lines.contains { $0.contains("meeting") }, "a draft reached the disk: \(lines)")
    }

    @Test func ctrlCEmptiesTheLineAndUndoBringsItBack() throws {
        let terminal = try start()
        try leaveDraft(terminal, "dmitri", "draft one")
        try terminal.send(" more")
        try terminal.waitFor("more")  // typed before Ctrl-C: the terminal flushes unread input on a signal
        try terminal.send("\u{3}")
        try terminal.waitFor("line abandoned: /undo brings it back")
        try terminal.waitForPrompt("dmitri> ")
        try terminal.send("\r")  // the line is empty: nothing is sent
        try terminal.waitForPrompt("dmitri> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"draft one more\"")
        try terminal.waitForPrompt("dmitri> ")
        try terminal.send("\r")  // the draft is in the line again
        try terminal.waitForPrompt("dmitri> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "dmitri").map(\.content) == ["draft one more"])
    }

    /// A Ctrl-C that lands while libedit is busy between two reads used to leave it
    /// waiting on a cooked terminal; now every one ends the line.
    @Test func ctrlCPressedWhileTheEditorIsBusyIsNeverLost() throws {
        let terminal = try start()
        try terminal.open("alice")
        for round in 0..<30 {
            try terminal.send(String(repeating: "typing fast \(round) ", count: 8))
            try terminal.send("\u{3}")
            try terminal.waitFor("alice> ", timeout: 10)
            try terminal.waitForRawMode()
        }
        try terminal.send("\u{15}still here\r")
        try terminal.waitFor("  you: still here")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["still here"])
    }

    @Test func ctrlDAtTheNamePromptCancelsItAndCtrlDWithDraftsAsksTwice() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("kept\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("\u{4}")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{4}")
        try terminal.waitFor("1 unsent draft would be forgotten: Ctrl-D again (or /quit) quits")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\r")  // the draft survived the first Ctrl-D
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")  // no drafts now: quits at once
        #expect(try terminal.waitForExit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["kept"])
    }

    /// A new user's trial: Up, Up, Enter on the last run's `/quit` forgot two drafts without
    /// a word. A `/quit` recalled as it was warns as Ctrl-D does; recalled again at once (or
    /// typed) it quits; typed first, it quits at once, as ever.
    @Test func aRecalledQuitWarnsBeforeForgettingDrafts() throws {
        let first = try start()
        try first.send("/quit\r")
        #expect(try first.waitForExit() == .exited(0))
        let terminal = try start()
        try leaveDraft(terminal, "bob", "important draft for bob")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{1B}[A\u{1B}[A")
        try terminal.waitFor("quit")  // libedit redraws what changed: "/open bob" to "/quit"
        try terminal.send("\r")
        try terminal.waitFor("1 unsent draft would be forgotten: Ctrl-D again (or /quit) quits")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/drafts\r")  // a line in between: the warning is disarmed
        try terminal.waitFor("drafts in memory (1)")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{1B}[A\u{1B}[A")
        try terminal.waitFor("quit")
        try terminal.send("\r")
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{1B}[A\r")
        try terminal.waitFor("1 draft discarded: privateMessage_bob")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// A helper's attack: the same `/quit` recalled at `^X /` quit at once and forgot the
    /// draft. It warns there too, and the draft is back in the line; typed, it quits.
    @Test func aQuitRecalledAtTheCommandPromptWarnsToo() throws {
        let first = try start()
        try first.send("/quit\r")
        #expect(try first.waitForExit() == .exited(0))
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("precious\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("\u{1B}[A\u{1B}[A")  // `open alice`, then `quit`
        try terminal.waitFor("quit")
        try terminal.send("\r")
        try terminal.waitFor("1 unsent draft would be forgotten: Ctrl-D again (or /quit) quits")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"precious\""), "\(shown)")
        try terminal.send("\u{18}/quit\r")  // typed, it quits
        try terminal.waitFor("1 draft discarded: privateMessage_alice")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    @Test func aLineRecalledWithCtrlRIsSentAndTheDraftGoesOnTheUndoStack() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("an earlier line\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("half written\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{12}earl")  // ^R, then the search
        try terminal.waitFor("earl")
        try terminal.send("\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"half written\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("!\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(
            try fixture.messages(in: "alice").map(\.content) == ["an earlier line", "an earlier line", "half written!"])
    }

    @Test func undoSaysWhenItPutsANewerDraftOnTheStack() throws {
        let terminal = try start()
        try leaveDraft(terminal, "alice", "older")
        try terminal.send("/discard\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("newer text\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("the draft that was there is on the undo stack")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"newer text\"")
        try terminal.waitForPrompt("draftline> ")
        #expect(try terminal.quit() == .exited(0))
    }

    @Test(arguments: [["--editor", "vi"], []])
    func everyKeyWorksInViCommandMode(_ arguments: [String]) throws {
        if arguments.isEmpty {
            try "bind -v\n".write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        }
        let terminal = try start(arguments)
        try terminal.open("alice")
        try terminal.send("in vi\u{1B}")  // Escape: command mode
        try terminal.send("\u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("\u{1B}\u{18}b")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1B}\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("drafts\r")
        try terminal.waitFor("privateMessage_alice  \"in vi\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1B}\u{18}d")
        try terminal.waitFor("drafts in memory (1):")
        try terminal.send("\u{1B}\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("bob\r")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
    }

    @Test func theCommandKeyKeepsTheDraftCursorAndAll() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("half a thought\u{2}\u{2}\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("chats\r")
        try terminal.waitFor("Draft: half a thought")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("|\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["half a thoug|ht"])
    }

    @Test func everyPlaceThatNamesAKeyNamesTheBindingInForce() throws {
        let editrc = "draftline:bind ^T draftline-profile\ndraftline:bind ^Y draftline-back\n"
        try editrc.write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        let terminal = try start(["--trace"])
        try terminal.open("alice")
        try terminal.send("x\u{14}")  // ^T
        try terminal.waitFor("trace: saved privateMessage_alice (^T (draftline-profile))")
        try terminal.waitFor("/back or ^Y returns")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/help\r")
        try terminal.waitFor("  ^T    draftline-profile")
        try terminal.waitForPrompt("profile alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// D17: a draft the user emptied in the line (Ctrl-U) is no draft: the Ctrl-D warning
    /// and the quit's list count what would be lost, bob's draft, not alice's emptied one.
    @Test func ctrlDAndQuitCountNoDraftTheUserEmptied() throws {
        let terminal = try start()
        try keepBobsDraftAndRestoreAlices(terminal)
        try terminal.send("\u{15}\u{4}")
        try terminal.waitFor("1 unsent draft would be forgotten")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")
        try terminal.waitFor("1 draft discarded: privateMessage_bob\r\n")
        #expect(try terminal.waitForExit() == .exited(0))
        // The same with /quit typed on the emptied line; typed into the draft it counts it.
        for (keys, said) in [
            ("\u{15}/quit\r", "1 draft discarded: privateMessage_bob\r\n"),
            ("/quit\r", "2 drafts discarded: privateMessage_alice, privateMessage_bob\r\n"),
        ] {
            let again = try start()
            try keepBobsDraftAndRestoreAlices(again)
            try again.send(keys)
            try again.waitFor(said)
            #expect(try again.waitForExit() == .exited(0))
        }
    }

    /// D20: the Ctrl-D warning changes nothing, the ledger's judgement included; and a
    /// restored draft emptied with Ctrl-U, then a new line sent, goes on the undo stack with
    /// the notice, as it does with a command between (issue 28's second trial: it had
    /// vanished without a word, though `/undo` brings back a draft "emptied or lost").
    /// With the warning between or not, on a terminal and on a pipe: the same.
    @Test(arguments: [false, true])
    func aDraftEmptiedThenReplacedByASendGoesOnTheUndoStack(warning: Bool) throws {
        let terminal = try start()
        try keepBobsDraftAndRestoreAlices(terminal)
        try terminal.send("\u{15}")
        if warning {
            try terminal.send("\u{4}")
            try terminal.waitFor("1 unsent draft would be forgotten")
            try terminal.waitForPrompt("alice> ")
        }
        try terminal.send("something else\r")
        try terminal.waitFor("you: something else")
        try terminal.waitFor("the draft you replaced is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"emptied soon\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["something else"])
        let piped = try Fixture().runPiped(
            "/open bob\nkept for bob\u{18}b\n/open alice\nemptied soon\u{18}b\n/open alice\n"
                + (warning ? "\u{15}\u{4}\n" : "\u{15}") + "something else\n/expect undo 1\n/undo\n"
                + "/expect draft alice \"emptied soon\"\n")
        #expect(piped.status == 0, "\(piped.output) \(piped.error)")
        #expect(
            (piped.output + piped.error).contains("the draft you replaced is on the undo stack"),
            "\(piped.output) \(piped.error)")
    }

    /// A restored draft emptied with Ctrl-U and replaced by a new line that is then
    /// abandoned (Ctrl-C) or kept (`^X b`) goes on the undo stack with the notice, as it does
    /// under a send: the new line never held it (it vanished without a word). Ctrl-C puts
    /// the new line over it; `^X b` keeps the new line as the draft. A pipe: the same.
    @Test(arguments: ["\u{3}", "\u{18}b"])
    func aDraftEmptiedThenReplacedAndAbandonedOrKeptGoesOnTheUndoStack(key: String) throws {
        let interrupt = key == "\u{3}"
        let terminal = try start()
        try leaveDraft(terminal, "alice", "old draft")
        try terminal.send("\u{15}new text" + key)
        try terminal.waitFor(interrupt ? "line abandoned (2 entries)" : "the draft you replaced is on the undo stack")
        let prompt = interrupt ? "alice> " : "draftline> "
        try terminal.waitForPrompt(prompt)
        let checks =
            interrupt
            ? ["/expect undo 2", "/expect undo-top \"new text\""]
            : ["/expect undo 1", "/expect undo-top \"old draft\"", "/expect draft privateMessage_alice \"new text\""]
        try expect(terminal, checks, prompt: prompt)
        #expect(try terminal.quit() == .exited(0))
        let piped = try Fixture().runPiped(
            "/open alice\nold draft\u{18}b\n/open alice\n\u{15}new text" + key + "\n"
                + checks.joined(separator: "\n") + "\n")
        #expect(piped.status == 0, "\(piped.output) \(piped.error)")
    }

    /// A history line recalled over an empty line and edited, then replaced by another
    /// recall that runs as a command, is no draft of the chat's: nothing of the user's own
    /// was there. It goes on the undo stack with the notice, and the chat has no draft.
    @Test func anEditedRecallOverAnEmptyLineIsNoDraft() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("/drafts\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("first message\r")
        try terminal.waitFor("you: first message")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1B}[A")
        try terminal.waitFor("first message")
        try terminal.send(" edited\u{1B}[A")
        try terminal.waitFor("/drafts")
        try terminal.send("\r")
        try terminal.waitFor("the line a recall replaced is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try expect(
            terminal, ["/expect no-draft privateMessage_alice", "/expect undo-top \"first message edited\""],
            prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// A recalled line the user typed into, then went back from to their own line with
    /// Down, is theirs: libedit forgets the edits of a history line, draftline keeps them on
    /// the undo stack with the notice when the read ends, their own line sent as it was.
    /// An own line that was empty is a way back as well (Down, not `^U`, emptied the line).
    @Test(arguments: ["my own text", ""])
    func anEditedRecallLeftWithDownGoesOnTheUndoStack(own: String) throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("from history\r")
        try terminal.waitFor("you: from history")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(own + "\u{1B}[A")
        try terminal.waitFor("from history")
        try terminal.send(" typed on recall")
        try terminal.waitFor("typed on recall")
        try terminal.send("\u{1B}[B")
        if own.isEmpty {
            try terminal.send("\u{03}")
        } else {
            try terminal.waitFor(own)
            try terminal.send("\r")
            try terminal.waitFor("you: " + own)
        }
        try terminal.waitFor("the recalled line you edited is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try expect(
            terminal, ["/expect undo 1", "/expect undo-top \"from history typed on recall\""], prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["from history"] + (own.isEmpty ? [] : [own]))
    }

    /// A word ending in `/` typed after a draft that ends in `/` is text: the line editor
    /// saw `local/` typed after `usr/`, not `/local` before the draft's own `/`, so the line
    /// is a message (it had been an unknown command that could never be sent, and `help/`
    /// ran `/help` and dropped the word, `quit/` quit). A pipe: the same.
    @Test(arguments: ["local/", "help/", "quit/"])
    func aWordEndingInASlashAfterADraftEndingInOneIsText(word: String) throws {
        let terminal = try start()
        try leaveDraft(terminal, "alice", "look in usr/")
        try terminal.send(word + "\r")
        try terminal.waitFor("you: look in usr/" + word)
        try terminal.waitForPrompt("alice> ")
        try expect(terminal, ["/expect no-draft privateMessage_alice", "/expect undo 0"], prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["look in usr/" + word])
        let pipe = try Fixture()
        let piped = try pipe.runPiped(
            "/open alice\nlook in usr/\u{18}b\n/open alice\n\(word)\n/expect no-draft privateMessage_alice\n")
        #expect(piped.status == 0, "\(piped.output) \(piped.error)")
        #expect(try pipe.messages(in: "alice").map(\.content) == ["look in usr/" + word])
    }

    /// A command typed after a failed `/`, given back, is that attempt again, never a
    /// message: `/` failed, `/drafts` typed after it makes `//drafts`, whose first `/` is
    /// the failed command's, not the escape (it had been sent as `/drafts`); the error says
    /// to delete it, and then `/drafts` runs. A `/` typed at the line's start still escapes.
    /// A pipe that fixes the failed line with an editing key: the same.
    @Test func aCommandTypedAfterAFailedSlashIsNeverSent() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("/\r")
        try terminal.waitFor("unknown command '/'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/drafts\r")
        try terminal.waitFor("unknown command '//drafts': delete the first / to run /drafts")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1}\u{4}\r")
        try terminal.waitFor("no drafts in memory")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/x\r")
        try terminal.waitFor("unknown command '/x'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1}/\r")
        try terminal.waitFor("you: /x")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["/x"])
        let pipe = try Fixture()
        let piped = try pipe.runPiped("/open alice\n/\n\u{5}/drafts\n/expect error unknown-command\n")
        #expect(piped.status == 0, "\(piped.output) \(piped.error)")
        #expect(piped.error.contains("unknown command '//drafts'"), "\(piped.error)")
        #expect(try pipe.messages(in: "alice").isEmpty)
    }

    /// The same inside a restored draft: `hi` restored, `/` failed and came back as `hi/`,
    /// `/drafts` typed after it makes `hi//drafts`, that attempt again, never the message
    /// `hi/drafts` (a QA attack; terminal and pipe, ` /` and `/x` fixed with Backspace too).
    @Test func aCommandTypedAfterAFailedSlashInADraftIsNeverSent() throws {
        let terminal = try start()
        try leaveDraft(terminal, "alice", "hi")
        try terminal.send("/\r")
        try terminal.waitFor("unknown command '/'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/drafts\r")
        try terminal.waitFor("unknown command '//drafts': delete the first / to run /drafts")
        try terminal.waitForPrompt("alice> ")
        // The draft's own text edited around the attempt: still that attempt.
        try terminal.send("\u{1}X\r")
        try terminal.waitFor("unknown command '//drafts'")
        try terminal.waitForPrompt("alice> ")
        try expect(
            terminal, ["\u{15}/expect messages 0", #"/expect draft privateMessage_alice "hi""#], prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
        for (failed, fix) in [
            ("/", "\u{5}/drafts"), (" /", "\u{5}/drafts"), ("/x", "\u{5}\u{7F}/drafts"),
            ("\u{1}X\u{5}/", "\u{5}/drafts"),
        ] {
            let pipe = try Fixture()
            let piped = try pipe.runPiped(
                "/open alice\nhi\u{18}b\n/open alice\n\(failed)\n\(fix)\n/expect messages 0\n")
            #expect(piped.status == 0, "\(failed) \(piped.output) \(piped.error)")
            #expect(try pipe.messages(in: "alice").isEmpty)
        }
    }

    /// Ctrl-C on a draft with a file attached takes the text and leaves the file; `/undo`
    /// gives the text back beside it: one draft again, text and file, nothing displaced (it
    /// had put the file-only draft on the stack in the text's place, and said so).
    @Test(arguments: [false, true])
    func undoAfterCtrlCGivesTheTextBackBesideItsAttachment(onPipe: Bool) throws {
        let photo = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: photo, contents: Data([0x89, 0x50])))
        let checks = [
            #"/expect draft privateMessage_alice "the caption" media 1"#, "/expect undo 0",
        ]
        if onPipe {
            let script = ["/open alice", "/attach \(photo)", "the caption\u{3}", "/undo"] + checks
            let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
            #expect(result.status == 0 && !result.error.contains("expectation failed"), "\(result.error)")
            #expect(!result.output.contains("newer draft"), "\(result.output)")
            return
        }
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("/attach \(photo)\r")
        try terminal.waitFor("photo.png")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("the caption\u{3}")
        try terminal.waitFor("line abandoned")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.waitFor("the caption")
        try expect(terminal, checks.map { "\u{15}" + $0 }, prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// A recalled line over an empty line, edited, then replaced by an older one the user
    /// deleted with `^U`: the line is still a recalled one, so the edited recall goes on the
    /// undo stack when a command runs, and the chat keeps no draft (it had been kept as the
    /// draft, and `/undo` then displaced it).
    @Test func anEditedRecallOverAnEmptyLineStaysNoDraftAfterAKilledRecall() throws {
        let terminal = try start()
        try terminal.open("alice")
        for text in ["first message", "second"] {
            try terminal.send(text + "\r")
            try terminal.waitFor("you: " + text)
            try terminal.waitForPrompt("alice> ")
        }
        try terminal.send("\u{1B}[A")
        try terminal.waitFor("second")
        try terminal.send(" edited\u{1B}[A")
        try terminal.waitFor("first message")
        try terminal.send("\u{15}/drafts\r")
        try terminal.waitFor("the line a recall replaced is on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try expect(
            terminal, ["/expect no-draft privateMessage_alice", "/expect undo-top \"second edited\""],
            prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// vi: a `/` typed in insert mode is text, no search that began, so the line before it
    /// is none of what a later recall replaces: the line deleted, a recalled line sent, and
    /// the deleted text stays deleted (it had gone on the undo stack, cut at the `/`, with a
    /// notice that a recall replaced it).
    @Test func aSlashTypedInViInsertModeBeginsNoSearch() throws {
        let terminal = try start(["--editor", "vi"])
        try terminal.open("alice")
        try terminal.send("first message\r")
        try terminal.waitFor("you: first message")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("see src/")
        try terminal.waitFor("src/")
        try terminal.send("\u{1B}")
        try terminal.send("0\u{0B}i\u{1B}[A")
        try terminal.waitFor("first message")
        try terminal.send("\r")
        try terminal.waitFor("you: first message")
        try terminal.waitForPrompt("alice> ")
        try expect(terminal, ["/expect no-draft privateMessage_alice", "/expect undo 0"], prompt: "alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// Text typed on a profile, then replaced by a recalled line that happens to start with
    /// it, refused there (no chat is open), goes on the undo stack: a history line as
    /// history gave it holds nothing of the user's (it was lost without a word, the line
    /// taken for holding it).
    @Test func ownTextUnderARefusedRecallThatSpellsItIsSetAside() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("help/me out\r")
        try terminal.waitFor("you: help/me out")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("help/\u{1B}[A")
        try terminal.waitFor("me out")
        try terminal.send("\r")
        try terminal.waitFor("no chat is open")
        try terminal.waitFor("the line a recall replaced is on the undo stack")
        try expect(
            terminal, ["\u{15}/expect undo 1", "/expect undo-top \"help/\""], prompt: "profile alice> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// A command pasted onto an empty line with the newline copied after it is that command
    /// (the newline is text, so the line waits for Enter; it had been "unknown command
    /// '/drafts^J'), and nothing is sent.
    @Test func aCommandPastedWithItsNewlineRuns() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("\u{1B}[200~/drafts\n\u{1B}[201~\r")
        try terminal.waitFor("no drafts in memory")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// D18: `^X b` on a profile with text in the line does what `/back` does there: the
    /// text goes on the undo stack, said in one line, and the key goes back (it refused:
    /// "the key did nothing"). `^X b` at home, where it cannot act, keeps the text.
    @Test func backKeyOnAProfileWithTextGoesAsBackDoes() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("\u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("abc def\u{18}b")
        try terminal.waitFor("on the undo stack")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("line is back: \"abc def\"")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{18}b")  // at home: nowhere to go, the text stays
        try terminal.waitFor("nothing to go back to")
        try terminal.waitForPrompt("draftline> ")
        let seen = try terminal.drafts(prompt: "draftline> ")
        #expect(seen.contains("edit line: \"abc def\""), "\(seen)")
        #expect(try terminal.quit() == .exited(0))
    }
}

/// SPEC §1a on a pipe: the same keys as bytes, and nothing glued after a failed send.
@Suite("The promise on a pipe")
struct PipePromiseTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func aBadNameAfterOpenOtherAsksAgainAndNothingIsTypedIntoADraft() throws {
        let result = try fixture.runPiped("/open bob\nleft\u{18}o\n/drafts\nalice\nhello alice\n")
        #expect(result.status == 0)
        #expect(result.error.contains("'/drafts' is not a valid global_key"))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hello alice"])
        #expect(try fixture.messages(in: "bob").isEmpty)
    }

    @Test func aFailedSendIsNamedAndPutOnTheUndoStackAndTheNextLineStandsAlone() throws {
        // A file where alice's chat directory belongs: every send to alice fails, even as root.
        try FileManager.default.createDirectory(
            atPath: fixture.dataDirectory + "/chats", withIntermediateDirectories: true)
        try #require(
            FileManager.default.createFile(atPath: fixture.dataDirectory + "/chats/alice", contents: Data("x".utf8)))
        let result = try fixture.runPiped("/open alice\ntwo\nthree\n/open bob\nfour\n/open alice\n/undo\n/drafts\n")
        #expect(result.status == 3)
        #expect(result.error.contains("'two' is on the undo stack"))
        #expect(result.error.contains("'three' is on the undo stack"))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["four"])
        #expect(result.output.contains("privateMessage_alice  \"three\""))
    }

    @Test func controlBytesActAsTheirKeys() throws {
        let script = [
            "/open alice", "draft one\u{18}b", "/open alice", " more\u{3}", "/undo", "\u{15}replaced", "/open bob",
            "kept\u{18}/drafts", "!",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["replaced"])
        #expect(try fixture.messages(in: "bob").map(\.content) == ["kept!"])
        #expect(result.output.contains("privateMessage_bob  \"kept\""))
    }

    @Test func ctrlDOnAnEmptyPipedLineAsksFirstWhenDraftsWouldBeLost() throws {
        let result = try fixture.runPiped("/open alice\nunsent\u{18}b\n\u{4}\n/drafts\n\u{4}\n\u{4}\n/drafts\n")
        #expect(result.status == 0)
        #expect(result.output.components(separatedBy: "1 unsent draft would be forgotten").count == 3)
        #expect(result.output.hasSuffix("1 draft discarded: privateMessage_alice\n"))
    }

    /// D17 on a pipe: Ctrl-U then Ctrl-D on alice's restored draft warns of bob's only.
    @Test func ctrlDAndQuitCountNoDraftTheUserEmptiedOnAPipe() throws {
        let prefix = "/open bob\nkept for bob\u{18}b\n/open alice\nemptied soon\u{18}b\n/open alice\n"
        let warned = try fixture.runPiped(prefix + "\u{15}\u{4}\n\u{4}\n")
        #expect(warned.status == 0, "\(warned.error)")
        #expect(warned.output.contains("1 unsent draft would be forgotten"), "\(warned.output)")
        #expect(warned.output.hasSuffix("1 draft discarded: privateMessage_bob\n"), "\(warned.output)")
        let quit = try fixture.runPiped(prefix + "\u{15}/quit\n")
        #expect(quit.output.hasSuffix("1 draft discarded: privateMessage_bob\n"), "\(quit.output)")
    }

    /// D18 on a pipe: the key goes back as `/back` does, the text on the undo stack.
    @Test func backKeyOnAProfileWithTextGoesAsBackDoesOnAPipe() throws {
        let result = try fixture.runPiped(
            "/open alice\n/profile\nabc def\u{18}b\n/expect screen alice\n/expect undo-top \"abc def\"\n")
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    @Test func aProfileReachedFromACommentThreadShowsItsDraft() throws {
        let result = try fixture.runPiped("/comment tweet 123 @bob\nreply to bob\u{18}p\n")
        #expect(result.output.contains("draft:      waiting (tweet_123_bob)"))
    }
}
