import DraftlineTestSupport
import Foundation
import IRCFixtures
import ProgramDriver
import Testing

/// draftline on a chat server, on a pseudo-terminal (SPEC §6): what the edit line does
/// reaches the other side as a typing state, and never any of its text.
extension NetworkEndToEndTests {
    /// draftline on a terminal of its own, connected to `server` as `key`, at its first prompt.
    func startTerminal(
        _ fixture: Fixture, _ server: IRCServer, as key: String, _ extra: [String] = []
    ) throws
        -> PseudoTerminal
    {
        let terminal = try fixture.startTerminal(
            ["--server", "irc://127.0.0.1:\(server.port)", "--as", key] + extra, environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ", timeout: 20)
        return terminal
    }

    @Test(
        "Editing a chat's line on a terminal sends active, at most every 3 s and never its text; a command none",
        arguments: [[], ["--no-typing"]])
    func editingSendsActive(extra: [String]) throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob", capabilities: ["message-tags"])
        let alice = try Fixture()
        let terminal = try startTerminal(alice, server, as: "alice", extra)
        try terminal.open("bob")
        // A command typed in bob's chat and emptied again is no draft: no state for it.
        try terminal.send("/exp")
        try terminal.waitFor("/exp")
        try terminal.send("\u{15}")
        try terminal.send("h")
        try terminal.waitFor("h")
        if extra.isEmpty {
            let typed = try bob.collect(until: { $0.contains(" TAGMSG ") })
            let started = PseudoTerminal.now()
            #expect(Self.typingStates(typed) == ["active"], "\(typed)")
            #expect(typed.last?.hasSuffix(" bob") == true || typed.last?.hasSuffix(":bob") == true, "\(typed)")
            // More keys within 3 s send no other state; the message is its own end.
            try terminal.send("ello")
            try terminal.waitFor("ello")
            try terminal.send("\r")
            let sent = try bob.collect(until: { $0.contains("PRIVMSG bob :hello") })
            let seconds = PseudoTerminal.now() - started
            #expect(Self.typingStates(sent).count <= Int(seconds / 3), "\(seconds) s: \(sent)")
            #expect((typed + sent).allSatisfy { !$0.contains(" TAGMSG ") || !$0.contains("ello") }, "\(typed + sent)")
        } else {
            try terminal.send("ello\r")
            let sent = try bob.collect(until: { $0.contains("PRIVMSG bob :hello") })
            #expect(Self.typingStates(sent).isEmpty, "\(sent)")
        }
        // Stored once the server's echo is back: then shown as sent.
        try terminal.waitFor("you: hello")
        #expect(try terminal.quit() == .exited(0))
        #expect(try alice.messages(in: "alice+bob").map(\.content) == ["hello"])
    }
}

extension NetworkEndToEndTests {
    /// Has `bob` tell `alice` a typing state.
    static func tell(_ state: String, from bob: RawIRCPeer) throws { try bob.send("@+typing=\(state) TAGMSG alice") }

    @Test("Someone's typing shows above the edit line of their chat, ends by expiry, done or their message")
    func othersTypingIsShownOnTheirChat() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob", capabilities: ["message-tags", "echo-message"])
        let carol = try RawIRCPeer(port: server.port, nick: "carol")
        let alice = try Fixture()
        let terminal = try startTerminal(alice, server, as: "alice")
        // Away from bob's chat his typing shows nothing: not when it comes (its echo to bob
        // says the server relayed it before carol's message), nor when it is still on.
        try Self.tell("active", from: bob)
        try bob.waitFor { $0.contains("+typing=active") && $0.contains(" TAGMSG ") }
        try carol.send("PRIVMSG alice :hello from carol")
        try terminal.waitFor("hello from carol")
        try bob.send("PRIVMSG alice :first")
        let away = try terminal.waitFor("first · 1 unread")
        #expect(!away.contains("is typing"), "\(away)")
        try terminal.open("bob")
        try terminal.send("half typed, cursor in the middle")
        try terminal.waitFor("middle")
        try terminal.send(String(repeating: "\u{2}", count: 6))  // Ctrl-B: back before "middle"
        try Self.tell("active", from: bob)
        try terminal.waitFor("(bob is typing)")
        try terminal.waitFor("middle")  // the line drawn again below it
        let screen = ScreenModel(rows: 24, columns: 80, bytes: terminal.output)
        let line = try #require(screen.text.lastIndex(of: "bob> half typed, cursor in the middle"), "\(screen.text)")
        #expect(screen.text[line - 1] == "(bob is typing)", "\(screen.text)")
        #expect(screen.cursor.row == line && screen.cursor.column == "bob> half typed, cursor in the ".count)
        // Another active changes nothing shown; paused does, and done ends it.
        try Self.tell("active", from: bob)
        try Self.tell("paused", from: bob)
        #expect(try !terminal.waitFor("(bob left a draft here)").contains("is typing"))
        try Self.tell("done", from: bob)
        try terminal.waitFor("(bob no longer shows a draft here)")
        // bob's message ends his typing: the message shows it, no line of its own.
        try Self.tell("active", from: bob)
        try terminal.waitFor("(bob is typing)")
        try bob.send("PRIVMSG alice :hi there")
        try terminal.waitFor("bob: hi there")
        try Self.tell("active", from: bob)
        #expect(try !terminal.waitFor("(bob is typing)").contains("stopped"))
        // Unrenewed, an active ends 6 s after it came.
        let told = PseudoTerminal.now()
        try terminal.waitFor("(bob stopped typing)", timeout: 15)
        let seconds = PseudoTerminal.now() - told
        #expect(seconds > 4 && seconds < 10, "\(seconds) s")
        // alice's line and cursor stayed through all of it: Enter sends it whole.
        try terminal.send("very \r")
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :half typed, cursor in the very middle") }
        try terminal.waitFor("you: half typed, cursor in the very middle")
        #expect(try terminal.quit() == .exited(0))
        #expect(
            try alice.messages(in: "alice+bob").map(\.content) == [
                "first", "hi there", "half typed, cursor in the very middle",
            ])
    }
}

extension NetworkEndToEndTests {
    /// SPEC §6: a send the server refuses comes back into the edit line on a terminal (the
    /// line empty since Enter), the draft as before the send; Enter again tries again, and
    /// nothing is stored. (On a pipe it goes on the undo stack: ``aSendToNobodyIsNotSent()``.)
    @Test("A refused send is back in the edit line on a terminal")
    func aRefusedSendIsBackInTheEditLine() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let terminal = try startTerminal(alice, server, as: "alice")
        try terminal.open("carol")
        try terminal.send("hi carol\r")
        try terminal.waitFor("message not sent (nobody called carol is on the server)")
        try terminal.waitFor("back in the edit line")
        try terminal.waitForPrompt("carol> ")
        var shown = try terminal.drafts(prompt: "carol> ")
        #expect(shown.contains("privateMessage_carol  \"hi carol\"  cursor 8"), "\(shown)")
        #expect(shown.contains("edit line: \"hi carol\""), "\(shown)")
        #expect(!shown.contains("undo stack ("), "\(shown)")
        try terminal.send("\r")
        try terminal.waitFor("back in the edit line")
        try terminal.waitForPrompt("carol> ")
        shown = try terminal.drafts(prompt: "carol> ")
        #expect(shown.contains("edit line: \"hi carol\""), "\(shown)")
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(3))
        #expect(try alice.messages(in: "alice+carol").isEmpty)
    }
}

extension NetworkEndToEndTests {
    /// Entering a chat shows who is typing there already, not only a change after: bob's
    /// `active` came while alice was at home; opening his chat says so at once. A message
    /// of his before she opens it ends it (the client core's `done` comes first).
    @Test("Typing already on shows when the chat is entered")
    func typingAlreadyOnShowsOnEntering() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob", capabilities: ["message-tags", "echo-message"])
        let carol = try RawIRCPeer(port: server.port, nick: "carol")
        let alice = try Fixture()
        let terminal = try startTerminal(alice, server, as: "alice")
        try Self.tell("active", from: bob)
        try bob.waitFor { $0.contains("+typing=active") && $0.contains(" TAGMSG ") }
        // (The server relayed bob's state before carol's message: shown, alice has it.)
        try carol.send("PRIVMSG alice :hello from carol")
        try terminal.waitFor("hello from carol")
        try terminal.send("/open bob\r")
        let entered = try terminal.waitFor("(bob is typing)", timeout: 4)
        #expect(entered.contains("chat with"), "\(entered)")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try Self.tell("paused", from: bob)
        try bob.send("PRIVMSG alice :a message ends it")
        try terminal.waitFor("a message ends it")
        try terminal.send("/open carol\r")
        try terminal.waitForPrompt("carol> ")
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open bob\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{18}b")
        let after = try terminal.waitForPrompt("draftline> ")
        #expect(!after.contains("(bob left a draft here)"), "\(after)")
        #expect(try terminal.quit() == .exited(0))
    }
}
