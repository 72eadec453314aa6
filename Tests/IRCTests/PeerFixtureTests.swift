import DraftKit
import IRCClient
import IRCFixtures
import IRCProtocol
import ProgramDriver
import Testing

/// The fixtures that drive irssi and WeeChat work: each connects, and a message goes each
/// way between it and the IRC client, CJK and emoji intact.
@Suite("irssi and WeeChat as peers", .serialized)
struct PeerFixtureTests {
    static let text = "你好 👩‍👩‍👧 e\u{301}"

    /// Waits until the server has `nick` (ISON), for a peer that registers on its own.
    static func waitUntilOnline(_ nick: String, port: Int, timeout: Double = 15) throws {
        let watcher = try RawIRCPeer(port: port, nick: "watch\(Int.random(in: 100...999))")
        let deadline = PseudoTerminal.now() + timeout
        while true {
            try watcher.send("ISON \(nick)")
            let reply = try watcher.waitFor { $0.contains(" 303 ") }
            if reply.lowercased().hasSuffix(":\(nick)") || reply.lowercased().contains(" \(nick)") { return }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(description: "\(nick) never came online")
            }
            _ = try watcher.pending(wait: 0.2)  // the next ISON after a pause
        }
    }

    @Test("irssi: a message each way with the client", arguments: IRCServer.Kind.allCases)
    func irssi(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let irssi = try IrssiPeer(port: server.port, nick: "bob")
        try Self.waitUntilOnline("bob", port: server.port)
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        _ = try alice.client.send(.text(Self.text), to: .privateChat(try GlobalKey(validating: "bob")))
        try irssi.waitForLog(of: "alice", containing: Self.text)
        try irssi.type("/msg alice back " + Self.text)
        try alice.waitFor("irssi's message") {
            if case .arrived(let message) = $0 { return message.content == .text("back " + Self.text) }
            return false
        }
    }

    @Test("WeeChat: a message each way with the client", arguments: IRCServer.Kind.allCases)
    func weechat(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let weechat = try WeeChatPeer(port: server.port, nick: "carol")
        try Self.waitUntilOnline("carol", port: server.port)
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        _ = try alice.client.send(.text(Self.text), to: .privateChat(try GlobalKey(validating: "carol")))
        try weechat.waitForLog(of: "alice", containing: Self.text)
        try weechat.command("/msg alice back " + Self.text)
        try alice.waitFor("WeeChat's message") {
            if case .arrived(let message) = $0 { return message.content == .text("back " + Self.text) }
            return false
        }
    }

    @Test("WeeChat's typing plugin sends +typing when its input changes, and the client shows it")
    func weechatTyping() throws {
        let server = try IRCServer(.inspircd)
        let weechat = try WeeChatPeer(port: server.port, nick: "carol")
        try Self.waitUntilOnline("carol", port: server.port)
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        let carol = try GlobalKey(validating: "carol")
        try weechat.command("/query alice")
        try weechat.input("hello", in: "alice")
        try alice.waitFor("carol's typing") { $0 == .typing(from: carol, in: .privateChat(carol), state: .active) }
        // And the other way: WeeChat is told of the client's paused, then done.
        alice.client.note(.left(hasDraft: true), in: .privateChat(carol))
        let deadline = PseudoTerminal.now() + 15
        while !weechat.typingSeen.contains(where: { $0 == ("paused", "alice") }) && PseudoTerminal.now() < deadline {
            alice.pump(for: 0.05)
        }
        #expect(weechat.typingSeen.contains { $0 == ("paused", "alice") }, Comment(rawValue: weechat.printed))
    }
}
