import DraftlineTestSupport
import Foundation
import IRCFixtures
import ProgramDriver
import Testing

/// Quitting with a send in flight (SPEC §6: a send counts only when the server has it):
/// draftline waits for its fate before the QUIT goes. The server is made slow for alice
/// by a relay that holds back her echo (and all after it) until the test lets it go, so
/// the send is certainly in flight when she quits; bob, on the server itself, gets it.
extension NetworkEndToEndTests {
    /// bob on a pipe, waiting for alice's one message; and a relay to the server that
    /// holds alice's echo of her message to bob.
    func slowEchoSetUp(_ server: IRCServer, bob: Fixture) throws -> (PipedProcess, HoldingRelay) {
        let bobs = try start(bob, arguments(bob, server, as: "bob") + ["--strict"])
        try bobs.waitFor("connected to irc://127.0.0.1:\(server.port) as bob")
        try bobs.write("/open alice\n/wait total 1 20\n/expect last-message \"hello bob\" from alice\n/quit\n")
        let relay = try HoldingRelay(to: server.port) { $0.contains(" PRIVMSG bob :hello bob") }
        return (bobs, relay)
    }

    /// alice on a terminal through `relay`, in the chat with bob, having typed a message
    /// and `/quit` at once (the next line typed before the message shows as sent).
    func sendAndQuit(_ alice: Fixture, through relay: HoldingRelay) throws -> PseudoTerminal {
        let terminal = try alice.startTerminal(
            ["--server", "irc://127.0.0.1:\(relay.port)", "--as", "alice"], environment: ["NO_COLOR": "1"],
            columns: 120)
        try terminal.waitForPrompt("draftline> ", timeout: 20)
        try terminal.open("bob")
        try terminal.send("hello bob\r/quit\r")
        // The server relayed it (bob has it) and echoed it; the echo is held: in flight.
        try relay.waitUntilHolding()
        return terminal
    }

    @Test("Quitting right after a send waits for the server's echo: the message is in both histories once")
    func quittingWaitsForTheEcho() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let bob = try Fixture()
        let (bobs, relay) = try slowEchoSetUp(server, bob: bob)
        defer { relay.stop() }
        let terminal = try sendAndQuit(alice, through: relay)
        #expect(try bobs.waitForExit(timeout: 30) == .exited(0), "\(bobs.text)")
        // Not thrown: with no wait at quit, what the histories hold is the failure to see.
        #expect((try? terminal.waitFor("waiting for the server to confirm 1 message…")) != nil)
        relay.release()
        #expect((try? terminal.waitFor("you: hello bob")) != nil)
        #expect(try terminal.waitForExit(timeout: 10) == .exited(0))
        #expect(try alice.messages(in: "alice+bob").map(\.content) == ["hello bob"])
        #expect(try bob.messages(in: "alice+bob").map(\.content) == ["hello bob"])
    }

    @Test("A send the server does not confirm by quitting's deadline is named in quit's line, exit status 3")
    func anUnconfirmedSendIsNamedAtQuit() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let bob = try Fixture()
        let (bobs, relay) = try slowEchoSetUp(server, bob: bob)
        defer { relay.stop() }
        let terminal = try sendAndQuit(alice, through: relay)
        #expect(try bobs.waitForExit(timeout: 30) == .exited(0), "\(bobs.text)")
        try terminal.waitFor("waiting for the server to confirm 1 message…")
        let started = PseudoTerminal.now()
        try terminal.waitFor("1 message not confirmed by the server, so not in this history: 'hello bob'")
        #expect(try terminal.waitForExit(timeout: 10) == .exited(3))
        #expect(PseudoTerminal.now() - started < 6)
        #expect(try alice.messages(in: "alice+bob").isEmpty)
        #expect(try bob.messages(in: "alice+bob").map(\.content) == ["hello bob"])
    }

    @Test("On a pipe, a send still unconfirmed at the end of input is waited for, then named: exit status 3")
    func anUnconfirmedSendIsNamedAtTheEndOfAPipe() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let bob = try Fixture()
        let (bobs, relay) = try slowEchoSetUp(server, bob: bob)
        defer { relay.stop() }
        let alices = try PipedProcess(
            executable: Fixture.executable,
            arguments: [
                "--data-dir", alice.dataDirectory, "--server", "irc://127.0.0.1:\(relay.port)", "--as", "alice",
            ],
            environment: alice.environment())
        try alices.waitFor("connected to irc://127.0.0.1:\(relay.port) as alice")
        // The send on the last line: the pipe settles it (15 s at most), then its end of
        // input quits, which waits again before it names it.
        try alices.write("/open bob\nhello bob\n")
        alices.closeInput()
        try relay.waitUntilHolding()
        #expect(try bobs.waitForExit(timeout: 30) == .exited(0), "\(bobs.text)")
        try alices.waitFor("waiting for the server to confirm 1 message…", timeout: 30)
        try alices.waitFor("1 message not confirmed by the server, so not in this history: 'hello bob'")
        #expect(try alices.waitForExit(timeout: 10) == .exited(3), "\(alices.text)")
        #expect(try alice.messages(in: "alice+bob").isEmpty)
        #expect(try bob.messages(in: "alice+bob").map(\.content) == ["hello bob"])
    }
}
