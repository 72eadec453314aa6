import DraftKit
import Glibc
import IRCClient
import IRCFixtures
import IRCProtocol
import ProgramDriver
import Testing

/// The client against real servers, InspIRCd and ngircd, started by the test on free
/// loopback ports and stopped by their process IDs.
@Suite("The IRC client against InspIRCd and ngircd", .serialized)
struct ServerIntegrationTests {
    static let bob = try! GlobalKey(validating: "bob")
    static let text = "你好世界 👩‍👩‍👧 e\u{301} مرحبا"

    @Test(
        "Connect, negotiate capabilities, a PRIVMSG each way with CJK and emoji, acknowledged",
        arguments: IRCServer.Kind.allCases)
    func messageEachWay(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        let alice = try ClientHarness(port: server.port, nick: "alice")
        let capabilities = try alice.connected()
        if kind == .inspircd {
            #expect(capabilities.isSuperset(of: ["message-tags", "echo-message", "server-time"]))
        } else {
            #expect(capabilities.isEmpty)
        }
        let id = try alice.client.send(.text(Self.text), to: .privateChat(Self.bob))
        let line = try bob.waitFor { $0.contains("PRIVMSG bob :") }
        #expect(line.hasPrefix(":alice!"))
        #expect(line.hasSuffix("PRIVMSG bob :" + Self.text))
        try alice.acknowledged(id)
        try bob.send("PRIVMSG alice :" + Self.text)
        let arrival = try alice.waitFor("bob's message") {
            if case .arrived = $0 { return true }
            return false
        }
        guard case .arrived(let message) = arrival else { return }
        #expect(message.sender == Self.bob)
        #expect(message.target == .privateChat(Self.bob))
        #expect(message.content == .text(Self.text))
        #expect((message.time != nil) == (kind == .inspircd))
    }

    @Test("A send the pacing holds back goes at its slot, though the server says nothing meanwhile")
    func heldBackSendGoesAtItsSlot() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        let alice = try ClientHarness(port: server.port, nick: "alice", pacing: OutputPacing(burst: 1, interval: 0.5))
        try alice.connected()
        // The first takes the burst's one slot; once its echo is taken the server is silent,
        // and the second, held back, must go when the pacing allows, not at the server's
        // next line (its PING, minutes later).
        try alice.acknowledged(try alice.client.send(.text("first"), to: .privateChat(Self.bob)))
        try alice.acknowledged(try alice.client.send(.text("second"), to: .privateChat(Self.bob)))
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :second") }
    }

    @Test(
        "401 for a nick nobody has, 404 for a channel that will not take the message",
        arguments: IRCServer.Kind.allCases)
    func refusals(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        try bob.send("JOIN #tweet_5")
        try bob.waitFor { $0.contains("JOIN") }
        try bob.send("MODE #tweet_5 +m")
        try bob.waitFor { $0.contains("MODE #tweet_5") }
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        let toNobody = try alice.client.send(.text("hello?"), to: .privateChat(try GlobalKey(validating: "nobody")))
        try alice.waitFor("401") { $0 == .failed(toNobody, .noSuchNick("nobody"), delivered: 0) }
        let thread = InputTarget.comment(.tweet, id: 5, replyTo: nil)
        alice.client.open(thread)
        try alice.waitFor("the join") { $0 == .joined(thread) }
        let muted = try alice.client.send(.text("muted"), to: thread)
        try alice.waitFor("404") { $0 == .failed(muted, .cannotSendToChannel("#tweet_5"), delivered: 0) }
        // A message bob can see proves alice is still connected and in order.
        let fine = try alice.client.send(.text("still here"), to: .privateChat(Self.bob))
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :still here") }
        try alice.acknowledged(fine)
    }

    @Test("A reply in a thread goes as 'bob: text' to its channel, and comes back as a reply")
    func threadReply() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        try bob.send("JOIN #tweet_7")
        try bob.waitFor { $0.contains("JOIN") }
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        let thread = InputTarget.comment(.tweet, id: 7, replyTo: nil)
        alice.client.open(thread)
        try alice.waitFor("the join") { $0 == .joined(thread) }
        _ = try alice.client.send(.text("hi there"), to: .comment(.tweet, id: 7, replyTo: Self.bob))
        try bob.waitFor { $0.hasSuffix("PRIVMSG #tweet_7 :bob: hi there") }
        try bob.send("PRIVMSG #tweet_7 :alice: and you")
        let alicesKey = try GlobalKey(validating: "alice")
        try alice.waitFor("the reply") {
            guard case .arrived(let message) = $0 else { return false }
            return message.sender == Self.bob && message.target == .comment(.tweet, id: 7, replyTo: alicesKey)
                && message.content == .text("and you")
        }
    }

    @Test(
        "Typing as a TAGMSG +typing, seen by the other side; none to a server without message-tags",
        arguments: IRCServer.Kind.allCases)
    func typing(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let bob = try RawIRCPeer(
            port: server.port, nick: "bob", capabilities: kind == .inspircd ? ["message-tags"] : [])
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        alice.client.note(.edited(hasText: true), in: .privateChat(Self.bob))
        alice.client.note(.left(hasDraft: true), in: .privateChat(Self.bob))
        _ = try alice.client.send(.text("after typing"), to: .privateChat(Self.bob))
        let lines = try bob.collect(until: { $0.hasSuffix("PRIVMSG bob :after typing") })
        let typing = lines.filter { $0.contains("TAGMSG") }
        if kind == .inspircd {
            #expect(typing.count == 2)
            #expect(typing.first?.contains("+typing=active") == true)
            #expect(typing.last?.contains("+typing=paused") == true)
            // No character of a draft ever travels: the tags hold the state alone.
            for line in typing { #expect(line.split(separator: " ").last == "bob" || line.hasSuffix(":bob")) }
            try bob.send("@+typing=active TAGMSG alice")
            try alice.waitFor("bob's typing") {
                $0 == .typing(from: Self.bob, in: .privateChat(Self.bob), state: .active)
            }
        } else {
            #expect(typing.isEmpty)
        }
    }

    @Test(
        "A server restart: one disconnect, back after the back-off, the thread's channel joined again",
        arguments: IRCServer.Kind.allCases)
    func restart(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        let thread = InputTarget.comment(.topic, id: 3, replyTo: nil)
        alice.client.open(thread)
        try alice.waitFor("the join") { $0 == .joined(thread) }
        try server.restart()
        let lost = try alice.waitFor("the disconnect") {
            if case .disconnected = $0 { return true }
            return false
        }
        guard case .disconnected(_, let retryIn) = lost else { return }
        #expect(retryIn == 1)
        #expect(throws: SendRefusal.notConnected) {
            try alice.client.send(.text("while away"), to: .privateChat(Self.bob))
        }
        try alice.waitFor("the reconnect") {
            if case .connected(_, _, again: true) = $0 { return true }
            return false
        }
        try alice.waitFor("the join again") { $0 == .joined(thread) }
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        _ = try alice.client.send(.text("back"), to: .privateChat(Self.bob))
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :back") }
    }

    @Test("Two linked servers: alice on one, bob on the other, a message each way", arguments: IRCServer.Kind.allCases)
    func linked(kind: IRCServer.Kind) throws {
        let (a, b) = try IRCServer.linkedPair(kind)
        let bob = try RawIRCPeer(port: b.port, nick: "bob")
        let alice = try ClientHarness(port: a.port, nick: "alice")
        try alice.connected()
        let id = try alice.client.send(.text(Self.text), to: .privateChat(Self.bob))
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :" + Self.text) }
        try alice.acknowledged(id)
        try bob.send("PRIVMSG alice :over the link")
        try alice.waitFor("bob's message") {
            if case .arrived(let message) = $0 { return message.content == .text("over the link") }
            return false
        }
    }

    @Test(
        "Registration refused: the nick in use, a nick the server refuses; the client stops",
        arguments: IRCServer.Kind.allCases)
    func registrationRefused(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let holder = try RawIRCPeer(port: server.port, nick: "alice")
        let second = try ClientHarness(port: server.port, nick: "alice")
        try second.waitFor("the refusal") { $0 == .couldNotConnect(.registration(.nickInUse("alice"))) }
        #expect(second.client.isStopped)
        let dotted = try ClientHarness(port: server.port, nick: "a.b")
        try dotted.waitFor("the refusal") {
            if case .couldNotConnect(.registration(.erroneousNick)) = $0 { return true }
            return false
        }
        _ = holder
    }

    @Test("A server that never welcomes: refused after the welcome timeout, never a hang")
    func noWelcome() throws {
        let port = try LoopbackPort.free()
        let listener = try LoopbackPort.listener(on: port)  // accepts, and never says a word
        defer { close(listener) }
        let started = PseudoTerminal.now()
        let alice = try ClientHarness(port: port, nick: "alice", welcomeTimeout: 1)
        try alice.waitFor("the timeout", timeout: 5) { $0 == .couldNotConnect(.registration(.noWelcome(seconds: 1))) }
        #expect(PseudoTerminal.now() - started < 3)
    }

    @Test("A host name resolves on the resolver's thread; each address is tried in turn (localhost's ::1 refuses)")
    func hostName() throws {
        let server = try IRCServer(.ngircd)
        let alice = try ClientHarness(port: server.port, nick: "alice", host: "localhost")
        try alice.connected()
    }

    @Test("Quit: done for a chat that showed typing, then QUIT, both reaching the other side")
    func quit() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob", capabilities: ["message-tags"])
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        alice.client.note(.left(hasDraft: true), in: .privateChat(Self.bob))
        try bob.waitFor { $0.contains("+typing=paused") }
        alice.client.quit()
        #expect(alice.client.isStopped)
        try bob.waitFor({ $0.contains("+typing=done") && $0.contains("TAGMSG") }, timeout: 10)
        // alice's QUIT reached the server: it no longer has her.
        let deadline = PseudoTerminal.now() + 10
        while true {
            try bob.send("ISON alice")
            if try bob.waitFor({ $0.contains(" 303 ") }).hasSuffix(":") { break }
            try #require(PseudoTerminal.now() < deadline, "the server still has alice")
            _ = try bob.pending(wait: 0.1)
        }
    }

    @Test("A server killed (a bare EOF, then refused connections): back-off retries until it is back")
    func killedServer() throws {
        let server = try IRCServer(.ngircd)
        let alice = try ClientHarness(
            port: server.port, nick: "alice", reconnect: ReconnectPolicy(first: 0.2, maximum: 0.4))
        try alice.connected()
        server.stop(signal: SIGKILL)
        // A killed server's kernel ends the connection with a FIN, or with a RST when a line
        // of the client's was still unread there (a PING under load): both are the server gone.
        try alice.waitFor("the disconnect") {
            $0 == .disconnected(.closedByServer, retryIn: 0.2)
                || $0 == .disconnected(.connection(ConnectionError("recv", .system(ECONNRESET))), retryIn: 0.2)
        }
        try alice.waitFor("a retry refused") {
            if case .retryFailed(.connection(ConnectionError("connect", .system(ECONNREFUSED))), 0.4) = $0 {
                return true
            }
            return false
        }
        try server.start()
        try alice.waitFor("the reconnect") {
            if case .connected(_, _, again: true) = $0 { return true }
            return false
        }
    }

    @Test("A port nobody listens on: one failure, the client stops")
    func refusedConnection() throws {
        let alice = try ClientHarness(port: try LoopbackPort.free(), nick: "alice")
        try alice.waitFor("the failure") {
            $0 == .couldNotConnect(.connection(ConnectionError("connect", .system(ECONNREFUSED))))
        }
    }

    @Test("TLS: verified against the given CA; refused without it, and for a name the certificate does not hold")
    func tls() throws {
        let server = try IRCServer(.ngircd, tls: true)
        let port = try #require(server.tlsPort)
        let alice = try ClientHarness(port: port, nick: "alice", tls: true, caFile: server.certificate)
        try alice.connected()
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        _ = try alice.client.send(.text("over TLS " + Self.text), to: .privateChat(Self.bob))
        try bob.waitFor { $0.hasSuffix("PRIVMSG bob :over TLS " + Self.text) }
        let untrusted = try ClientHarness(port: port, nick: "carol", tls: true)
        try untrusted.waitFor("the refusal") {
            if case .couldNotConnect(.connection(let error)) = $0, case .certificate = error.kind { return true }
            return false
        }
        let wrongName = try ClientHarness(
            port: port, nick: "dave", tls: true, host: "localhost", caFile: server.certificate)
        try wrongName.waitFor("the refusal") {
            if case .couldNotConnect(.connection(let error)) = $0, case .certificate = error.kind { return true }
            return false
        }
    }
}
