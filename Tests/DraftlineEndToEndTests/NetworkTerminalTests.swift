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
