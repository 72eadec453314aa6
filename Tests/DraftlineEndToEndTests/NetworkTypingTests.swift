import DraftlineTestSupport
import Foundation
import IRCFixtures
import Testing

/// The draft's state on the wire (SPEC §6): what a raw IRC peer reads of a draftline's
/// drafts, `+typing` TAGMSGs and never a character of them.
extension NetworkEndToEndTests {
    /// The `+typing` states of the TAGMSGs among `lines`, in order.
    static func typingStates(_ lines: [String]) -> [String] {
        lines.filter { $0.contains(" TAGMSG ") }.compactMap { line in
            line.split(separator: ";").flatMap { $0.split(separator: " ") }.first { $0.hasPrefix("+typing=") }
                .map { String($0.dropFirst("+typing=".count)) }
        }
    }

    /// Leaves a draft, empties it, leaves another, quits with it.
    static let draftMoves = "/open bob\nhalf a thought\u{18}b/open bob\n\u{15}\n\n/open bob\nagain\u{18}b/quit\n"

    @Test("A draft left is paused, a draft emptied or forgotten is done, and none of its text travels")
    func theDraftsStateTravels() throws {
        let server = try IRCServer(.inspircd)
        let bob = try RawIRCPeer(port: server.port, nick: "bob", capabilities: ["message-tags"])
        let alice = try Fixture()
        let result = try alice.runPiped(Self.draftMoves, arguments: arguments(alice, server, as: "alice"))
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines =
            try bob.collect(until: { Self.typingStates([$0]).count == 1 && $0.contains("done") })
            + bob.collect(until: { Self.typingStates([$0]).count == 1 && $0.contains("done") })
        #expect(Self.typingStates(lines) == ["paused", "done", "paused", "done"], "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("half") && !$0.contains("again") }, "\(lines)")
        // Nothing more: alice has quit (the server had all her lines, and relayed them to bob
        // before it answers bob's own PING on his connection).
        try bob.send("PING :barrier")
        let rest = try bob.collect(until: { $0.contains("PONG") && $0.contains("barrier") })
        #expect(Self.typingStates(rest).isEmpty, "\(rest)")
    }

    @Test(
        "Without message-tags, or with --no-typing, nothing tagged is sent",
        arguments: [(IRCServer.Kind.ngircd, [String]()), (.inspircd, ["--no-typing"])])
    func noStateWhereNoneMayGo(kind: IRCServer.Kind, extra: [String]) throws {
        let server = try IRCServer(kind)
        let bob = try RawIRCPeer(
            port: server.port, nick: "bob", capabilities: kind == .inspircd ? ["message-tags"] : [])
        let alice = try Fixture()
        let result = try alice.runPiped(
            Self.draftMoves.replacingOccurrences(of: "/quit", with: "/open bob\n sent at last\n/quit"),
            arguments: arguments(alice, server, as: "alice") + extra)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let lines = try bob.collect(until: { $0.contains("PRIVMSG bob :") })
        #expect(lines.last?.hasSuffix("again sent at last") == true, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("TAGMSG") && !$0.contains("typing") }, "\(lines)")
    }
}
