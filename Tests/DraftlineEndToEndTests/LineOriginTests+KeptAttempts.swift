import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// A draft kept with a command attempt in it (issue 28, D16): every way of leaving the
/// line and coming back to it keeps the baseline the attempt was typed into, so the line
/// brought back is an attempt again and nothing is sent; terminal and pipe agree.
extension LineOriginTests {
    /// A way of leaving the chat with the line as its draft and coming back to it, as keys.
    enum LeaveAndReturn: String, CaseIterable, CustomTestStringConvertible {
        case commandKey, backKey, openKeyCancelled, profileKey, recalledCommand

        var testDescription: String { rawValue }

        /// Leaves and comes back, waiting for the chat's prompt.
        func play(_ terminal: PseudoTerminal) throws {
            switch self {
            case .commandKey:
                try terminal.send("\u{18}/")
                try terminal.waitForPrompt("command: /")
                try terminal.send("drafts\r")
                try terminal.waitFor("drafts in memory")
            case .backKey:
                try terminal.send("\u{18}b")
                try terminal.waitForPrompt("draftline> ")
                try terminal.send("/open alice\r")
            case .openKeyCancelled:
                try terminal.send("\u{18}o")
                try terminal.waitForPrompt("open chat with: ")
                try terminal.send("\u{3}")
            case .profileKey:
                try terminal.send("\u{18}p")
                try terminal.waitForPrompt("profile alice> ")
                try terminal.send("\u{18}b")
            case .recalledCommand:
                // The failed attempt is the newest history line: recalled over the line, it
                // fails again; the line it replaced is kept as the draft.
                try terminal.send("\u{1B}[A")
                try terminal.waitFor("/attach /nope")
                try terminal.send("\r")
                try terminal.waitFor("error: cannot attach")
                try terminal.waitForPrompt("alice> ")
                try terminal.send("\u{15}/drafts\r")
                try terminal.waitFor("drafts in memory")
            }
            try terminal.waitForPrompt("alice> ")
        }
    }

    /// D16: ` /attach /nope` typed into the restored draft `hi there` fails and is given
    /// back; leaving with it keeps it as the draft, and back in the chat Enter is the same
    /// attempt (the error again, nothing sent); a known command typed onto it runs; with
    /// the attempt deleted the line is the message `hi there`.
    @Test(arguments: LeaveAndReturn.allCases)
    func anAttemptKeptByALeaveIsAnAttemptAgain(_ path: LeaveAndReturn) throws {
        let terminal = try start()
        try restore(terminal, "alice", "hi there")
        try terminal.send(" /attach /nope\r")
        try terminal.waitFor("error: cannot attach '/nope'")
        try terminal.waitForPrompt("alice> ")
        try path.play(terminal)
        try terminal.send("\r")
        try terminal.waitFor("error: cannot attach '/nope'")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"hi there /attach /nope\""), "\(shown)")
        #expect(shown.contains("edit line: \"hi there /attach /nope\""), "\(shown)")
        #expect(try fixture.messages(in: "alice").isEmpty)
        try terminal.send(" /chats\r")
        try terminal.waitFor("Draft: hi there /attach /nope")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(String(repeating: Self.backspace, count: 14) + "\r")
        try terminal.waitFor("you: hi there")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hi there"])
    }

    /// D16 on a pipe, the same keys as piped lines: the attempt left with `^X /`, `^X b`,
    /// `^X o` or `^X p` and come back to, then an empty line (Enter): the error again,
    /// nothing sent; a piped `/drafts` is a command, and leaves the draft as it is.
    @Test(arguments: [
        ["\u{18}/", "drafts"], ["\u{18}b", "/open alice"], ["\u{18}o", "\u{3}"], ["\u{18}p", "\u{18}b"],
    ])
    func anAttemptKeptByALeaveIsAnAttemptAgainOnAPipe(_ leave: [String]) throws {
        let script =
            ["/open alice", "hi there\u{18}b", "/open alice", " /attach /nope" + leave[0]] + leave.dropFirst() + [
                "", "/drafts", "/expect draft privateMessage_alice \"hi there /attach /nope\"", "/expect messages 0",
            ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.error.components(separatedBy: "error: cannot attach '/nope'").count == 2, "\(result.error)")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(result.output.contains("privateMessage_alice  \"hi there /attach /nope\""), "\(result.output)")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// An attempt abandoned with Ctrl-C and brought back by `/undo` is the attempt again:
    /// Enter gives the error and sends nothing (it sent "hi there /opne bob": `/undo` made
    /// the line its own baseline, so the attempt read as a message). SPEC §1a's law: the
    /// user typed a command, never a message.
    @Test func anAttemptAbandonedAndUndoneIsAnAttemptAgain() throws {
        let terminal = try start()
        try restore(terminal, "alice", "hi there")
        try terminal.send(" /opne bob\r")
        try terminal.waitFor("error: unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{3}")
        try terminal.waitFor("line abandoned")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("is back: \"hi there /opne bob\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("error: unknown command '/opne'")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// The same on a pipe: the attempt typed into the draft, Ctrl-C, `/undo`, an empty line.
    @Test func anAttemptAbandonedAndUndoneIsAnAttemptAgainOnAPipe() throws {
        let result = try fixture.runPiped(
            "/open alice\nhi there\u{18}b\n/open alice\n /opne bob\u{3}\n/undo\n\n/drafts\n")
        #expect(result.error.contains("unknown command '/opne'"), "\(result.error)")
        #expect(result.output.contains("privateMessage_alice  \"hi there /opne bob\""), "\(result.output)")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}
