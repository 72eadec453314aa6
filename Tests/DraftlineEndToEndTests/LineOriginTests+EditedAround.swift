import DraftlineTestSupport
import Foundation
import Testing

/// SPEC §1a "the line's baseline" when the draft's own text is edited around a command
/// typed into it (issue 28's second trial: after `draft one /histroy` came back, `Ctrl-A X`
/// and Enter sent `Xdraft one /histroy`, on a terminal and on a pipe). The line remembers
/// which part was typed: it stays a command attempt, and a command that runs keeps the
/// user's edits as the draft.
extension LineOriginTests {
    /// On a terminal: Enter after editing the draft part is the attempt again; text typed
    /// right where the draft ends, before the attempt, is the draft's; the corrected command
    /// runs and the draft is what the user made of it.
    @Test func editingTheDraftAroundAFailedCommandKeepsItAnAttempt() throws {
        let terminal = try start()
        try restore(terminal, "alice", "draft one")
        try terminal.send(" /histroy\r")
        try terminal.waitFor("unknown command '/histroy'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1}X\r")
        try terminal.waitFor("unknown command '/histroy'")
        try terminal.waitForPrompt("alice> ")
        // Left of the attempt, where the draft ends: typed there, it is the draft's.
        try terminal.send("\u{5}" + String(repeating: "\u{2}", count: 9) + "s\r")
        try terminal.waitFor("unknown command '/histroy'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{5}" + String(repeating: Self.backspace, count: 8) + "/drafts\r")
        try terminal.waitFor("privateMessage_alice  \"Xdraft ones\"  cursor 11")
        try terminal.waitForPrompt("alice> ")
        #expect(try fixture.messages(in: "alice").isEmpty)
        try terminal.send("\r")
        try terminal.waitFor("you: Xdraft ones")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["Xdraft ones"])
    }

    /// On a pipe, the same keys as bytes: a line that starts with an editing key after a
    /// failed command edits the line a terminal gives back.
    @Test func editingTheDraftAroundAFailedCommandKeepsItAnAttemptOnAPipe() throws {
        let script = [
            "/open alice", "draft one\u{18}b", "/open alice", " /histroy", "\u{1}X",
            "/expect draft privateMessage_alice \"draft one\" cursor 9", "/expect messages 0",
            " /histroy", "\u{1}X\u{5}" + String(repeating: "\u{7F}", count: 8) + "/drafts",
            "/expect draft privateMessage_alice \"Xdraft one\" cursor 10", "",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.error.components(separatedBy: "unknown command '/histroy'").count == 4, "\(result.error)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["Xdraft one"])
    }

    /// A trial (issue 28): the draft's own text edited after a failed command (Ctrl-A
    /// Ctrl-D, Enter: the attempt again), then the attempt deleted and the line sent. The
    /// user edited the draft with editing keys: it is what they send, no draft is left on
    /// the undo stack and no notice says one was replaced.
    @Test func aDraftEditedAfterAFailedCommandIsSentAsEdited() throws {
        let terminal = try start()
        try restore(terminal, "alice", "hey bob")
        try terminal.send("/x\r")
        try terminal.waitFor("unknown command '/x'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1}\u{4}\r")
        try terminal.waitFor("unknown command '/x'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{5}" + String(repeating: Self.backspace, count: 2) + "\r")
        try terminal.waitFor("you: ey bob")
        let after = try terminal.waitForPrompt("alice> ")
        #expect(!after.contains("undo stack"), "\(after)")
        try terminal.send("/drafts\r")
        try terminal.waitFor("no drafts in memory")
        let listed = try terminal.waitForPrompt("alice> ")
        #expect(!listed.contains("undo stack ("), "\(listed)")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["ey bob"])
    }

    /// The same on a pipe: each line that starts with an editing key edits the failed line
    /// a terminal gives back, and the empty line after it is its Enter.
    @Test func aDraftEditedAfterAFailedCommandIsSentAsEditedOnAPipe() throws {
        let script = [
            "/open alice", "hey bob\u{18}b", "/open alice", "/x", "\u{1}\u{4}", "",
            "\u{5}" + String(repeating: "\u{7F}", count: 2), "", "/expect undo 0", "/expect messages 1",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.error.components(separatedBy: "unknown command '/x'").count == 3, "\(result.error)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(!result.output.contains("on the undo stack"), "\(result.output)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["ey bob"])
    }

    /// The conservation test, emacs sequence 361: the user's line `hello`, a recalled line
    /// edited (`second sent X`), then Up to an older line that happens to spell `hello`,
    /// sent. The user's own line goes on the undo stack on top, above the edited recall, as
    /// after Ctrl-C: `/undo` brings back what they typed last.
    @Test func aRecallSentPutsTheOwnLineOnTopOfTheEditedRecalls() throws {
        let terminal = try start()
        try terminal.open("bob")
        for line in ["old hello one", "second sent"] {
            try terminal.send(line + "\r")
            try terminal.waitFor("you: " + line)
            try terminal.waitForPrompt("bob> ")
        }
        try terminal.send("hello\u{12}second\u{5} X\u{1B}[A\r")
        try terminal.waitFor("on the undo stack (2 entries)")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/drafts\r")
        try terminal.waitFor("undo stack (2, /undo brings back the first):")
        let listed = try terminal.waitForPrompt("bob> ")
        let hello = try #require(listed.range(of: "\"hello\""))
        let edited = try #require(listed.range(of: "\"second sent X\""))
        #expect(hello.lowerBound < edited.lowerBound, "\(listed)")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["old hello one", "second sent", "old hello one"])
    }

    /// An attempt kept by a leave key, brought back, then the draft's text edited around it:
    /// still the attempt (the typed part is known by the draft's baseline), nothing sent.
    @Test func aKeptAttemptEditedAroundIsStillAnAttempt() throws {
        let terminal = try start()
        try restore(terminal, "alice", "draft one")
        try terminal.send(" /histroy\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{1}X\r")
        try terminal.waitFor("unknown command '/histroy'")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"Xdraft one /histroy\""), "\(shown)")
        #expect(try fixture.messages(in: "alice").isEmpty)
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// Ctrl-C during `^R` over a recalled line that holds the draft's text (a command once
    /// typed into it, now in history): the user's own line is still the top entry; a
    /// recalled line, edited or not, is a copy of history and never stands for it.
    @Test func ctrlCDuringASearchKeepsTheDraftThoughTheRecalledLineHoldsIt() throws {
        let terminal = try start()
        try enterIntoHistory(terminal, "bob", "half written and more")
        try restore(terminal, "alice", "half written")
        try terminal.send("\u{12}more\u{5}X")
        try terminal.waitFor("moreX")
        try terminal.send("\u{3}")
        try terminal.waitFor("line abandoned (2 entries)")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"half written\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}/undo\r")
        try terminal.waitFor("\"half written and moreX\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }
}
