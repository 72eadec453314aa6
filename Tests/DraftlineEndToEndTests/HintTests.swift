import DraftlineTestSupport
import Foundation
import Testing

/// What the line says fits where it is said: a hint names only what works there, and a
/// recalled line shows as it would be entered (a new user's trial, issue 28).
@Suite("Hints and recalls fit where they are shown", .serialized)
struct HintTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func start() throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(environment: ["NO_COLOR": "1"], columns: 160)
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// `//` sends a `/` in a chat's line only: at home, on a profile and at `^X /` an
    /// unknown command's error does not offer it.
    @Test func theSlashHintIsGivenWhereTwoSlashesSend() throws {
        let piped = try fixture.runPiped("/frob\n/open bob\n/frob\n/profile\n/frob\n/back\n\u{18}/frob\n")
        let errors = piped.error.split(separator: "\n").filter { $0.hasPrefix("error: unknown command") }
        let offer = ", or // to send a /"
        #expect(errors.map { $0.hasSuffix(offer) } == [false, true, false, false], "\(errors)")
        let terminal = try start()
        try terminal.send("\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("frob\r")
        let shown = try terminal.waitFor("type /help for the list")
        try terminal.waitForPrompt("command: /")
        #expect(!shown.contains(offer))
        try terminal.send("\u{3}")
        #expect(try terminal.quit() == .exited(0))
    }

    /// At `^X o` a name in capitals is told the way to write it, and a paste of two lines
    /// is told it holds a line break, not only a control character's caret form (a trial).
    @Test func aBadNameAtTheNamePromptSaysWhatToType() throws {
        let terminal = try start()
        try terminal.send("\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("Carol\r")
        let capitals = try terminal.waitFor("try 'carol'")
        #expect(capitals.contains("it holds capitals"), "\(capitals)")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("\u{15}\u{1B}[200~bob\ncarol\u{1B}[201~\r")
        let pasted = try terminal.waitFor("it holds a line break (a name is one line)")
        #expect(pasted.hasSuffix("error: 'bob^Jcarol' is not a valid global_key: "), "\(pasted)")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("\u{3}")
        try terminal.waitForPrompt("draftline> ")
        #expect(try terminal.quit() == .exited(0))
    }

    /// A new user's trial: Ctrl-C or Ctrl-D at `^X /` or `^X o` printed the chat's title
    /// and its last messages again under the prompt, as if the chat had been opened anew.
    /// A cancelled prompt goes back to the line it came from, and shows only what it says.
    @Test(arguments: ["\u{18}/prof\u{3}", "\u{18}obo\u{3}", "\u{18}o\u{4}", "\u{18}/\u{4}"])
    func aCancelledPromptShowsTheChatOnce(_ keys: String) throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("hi\r")
        try terminal.waitFor("you: hi")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("hello there")
        try terminal.waitFor("hello there")
        try terminal.send(keys)
        let shown = try terminal.waitForPrompt("bob> ")
        #expect(!shown.contains("── chat with"), "\(shown)")
        #expect(!shown.contains("you: hi"), "\(shown)")
        try terminal.send(" more\r")
        try terminal.waitFor("you: hello there more")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["hi", "hello there more"])
    }

    /// A new user's trial: Up at `^X o` recalled chat messages, and a name answered there
    /// was kept as a bare line, so Up in a chat brought back `carol`, which Enter sent.
    /// The prompt recalls the names `/open` took, and its answers are kept as that `/open`.
    @Test func upAtTheNamePromptRecallsNames() throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("hello there\r")
        try terminal.waitFor("you: hello there")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("carol\r")
        try terminal.waitForPrompt("carol> ")
        try terminal.send("\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("\u{1B}[A\u{1B}[A\r")  // carol, then bob
        try terminal.waitFor("── chat with Bob")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{1B}[A\r")  // the last line entered: `/open bob`, the answer just given
        try terminal.waitFor("already in the chat with bob")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["hello there"])
        #expect(
            try fixture.lineHistory() == ["/open bob", "hello there", "/open carol", "/open bob", "/open bob", "/quit"])
    }

    /// A new user's trial: `hello` restored, ` /dr` typed after it, and Tab did nothing
    /// (on an empty line it completes `/drafts`). A command typed into the draft completes
    /// as on an empty line, its name and its arguments; the draft stays as it was.
    @Test func tabCompletesACommandTypedIntoADraft() throws {
        let terminal = try start()
        try terminal.restore("hello", in: "alice")
        try terminal.send(" /dr\t")
        try terminal.waitFor("afts")
        try terminal.send("\r")
        try terminal.waitFor("privateMessage_alice  \"hello\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send(" /open bo\t\r")  // uncompleted, `/open bo` fails and alice's line is back
        try terminal.waitFor("── chat with Bob")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    /// A pipe has no Tab: an unknown name's error there does not offer it.
    @Test func aPipeIsNotOfferedTab() throws {
        let piped = try fixture.runPiped("/open zed\n")
        #expect(piped.error == "error: no user 'zed': check the global_key (/chats lists your conversations)\n")
        let terminal = try start()
        try terminal.send("/open zed\r")
        try terminal.waitFor("no user 'zed': /open then Tab lists who is here")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    /// Up at `^X /` recalls commands as the prompt takes them, without their `/`, and what
    /// is entered there is recalled there again; in a chat, Up recalls every line as typed
    /// (a `//` message with both slashes, so Enter sends it again).
    @Test func upAtTheCommandPromptRecallsCommandsWithoutTheirSlash() throws {
        let terminal = try start()
        try terminal.open("bob")
        for line in ["//etc is a folder", "/drafts", "hello"] {
            try terminal.send(line + "\r")
            try terminal.waitForPrompt("bob> ")
        }
        try terminal.send("\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("\u{1B}[A")
        let recalled = try terminal.waitFor("drafts")
        #expect(!recalled.hasSuffix("/drafts"), "\(recalled.suffix(40).debugDescription)")
        try terminal.send("\r")
        try terminal.waitFor("no drafts in memory")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{18}/")
        try terminal.waitForPrompt("command: /")
        try terminal.send("\u{1B}[A\u{1B}[A")
        try terminal.waitFor("open bob")
        try terminal.send("\u{3}")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A")
        try terminal.waitFor("etc is a folder")
        try terminal.send("\r")
        try terminal.waitFor("you: /etc is a folder")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["/etc is a folder", "hello", "/etc is a folder"])
    }
}
