import DraftlineTestSupport
import Foundation
import IRCFixtures
import Testing

/// A comment thread on a chat server (SPEC §6): its channel, joined when the thread is
/// opened and again after the server comes back, so that what others say there arrives
/// before this side ever sent a word.
extension NetworkEndToEndTests {
    /// Whether `line` shows `nick` in a channel: its own `JOIN`, or the names a join lists.
    static func shows(_ nick: String, inChannel line: String) -> Bool {
        if line.hasPrefix(":\(nick)!") && line.contains(" JOIN ") { return true }
        guard line.contains(" 353 "), let names = line.split(separator: ":", omittingEmptySubsequences: false).last
        else { return false }
        return names.split(separator: " ").contains { $0.drop { "@+%&~".contains($0) } == nick }
    }

    @Test(
        "A thread's channel is joined when /comment opens it, and again after a server restart",
        arguments: IRCServer.Kind.allCases)
    func aThreadsChannelIsJoinedWhenOpened(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let bob = try RawIRCPeer(port: server.port, nick: "bob")
        try bob.send("JOIN #tweet_42")
        try bob.waitFor { $0.contains(" 366 ") }
        let alice = try Fixture()
        let alices = try start(alice, arguments(alice, server, as: "alice") + ["--strict"])
        try alices.waitFor("connected to irc://127.0.0.1:\(server.port) as alice")
        // alice only opens the thread: nothing is sent before bob's messages arrive.
        try alices.write(
            "/comment tweet 42\n/wait total 1 30\n/expect last-message \"before\" from bob\n"
                + "/wait total 2 60\n/expect last-message \"after the restart\" from bob\n/quit\n")
        try bob.waitFor({ Self.shows("alice", inChannel: $0) }, timeout: 20)
        try bob.send("PRIVMSG #tweet_42 :before")
        try alices.waitFor("bob: before")
        try server.restart()
        try alices.waitFor("back on irc://127.0.0.1:\(server.port) as alice", timeout: 30)
        let bobAgain = try RawIRCPeer(port: server.port, nick: "bob")
        try bobAgain.send("JOIN #tweet_42")
        // alice is in the channel already (the names list her) or joins it after bob.
        try bobAgain.waitFor({ Self.shows("alice", inChannel: $0) }, timeout: 20)
        try bobAgain.send("PRIVMSG #tweet_42 :after the restart")
        #expect(try alices.waitForExit(timeout: 60) == .exited(0), "\(alices.text)")
        #expect(try alice.messages(in: "tweet_42", thread: true).map(\.content) == ["before", "after the restart"])
        #expect(try alice.messages(in: "tweet_42", thread: true).map(\.sender) == ["bob", "bob"])
    }
}
