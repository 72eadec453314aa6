import DraftlineTestSupport
import Foundation
import Testing

/// A new user's surprise, on the real binary through a pseudo-terminal: Up over
/// half-typed text recalls a command that fails; the command comes back to be fixed, and
/// one line says that the half-typed text is the chat's draft and how it comes back.
@Suite("A failed recalled command says where the text it replaced is")
struct RecalledCommandEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func theHalfTypedTextIsNamedAndComesBackAfterTheNextCommand() throws {
        let terminal = try fixture.startTerminal([], environment: ["NO_COLOR": "1"], columns: 160)
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open nosuchuser\r")
        try terminal.waitFor("error: no user 'nosuchuser'")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{15}")  // Ctrl-U: the command given back is cleared
        try terminal.open("alice")
        try terminal.send("half typed")
        try terminal.send("\u{1B}[A\u{1B}[A")  // Up twice: /open nosuchuser
        try terminal.send("\r")
        try terminal.waitFor("error: no user 'nosuchuser'")
        try terminal.waitFor(
            "your text is kept as this chat's draft: \"half typed\"; it is back in the line once a command runs here")
        try terminal.waitForPrompt("alice> ")
        let failed = try terminal.drafts(prompt: "alice> ")
        #expect(failed.contains("privateMessage_alice  \"half typed\""), "\(failed)")
        #expect(failed.contains("edit line: \"/open nosuchuser\""), "\(failed)")
        try terminal.send("\u{15}/chats\r")
        try terminal.waitForPrompt("alice> ")
        let after = try terminal.drafts(prompt: "alice> ")
        #expect(after.contains("edit line: \"half typed\"  cursor 10"), "\(after)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}
