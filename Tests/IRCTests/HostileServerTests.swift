import DraftKit
import Foundation
import Glibc
import IRCClient
import IRCFixtures
import IRCProtocol
import ProgramDriver
import Synchronization
import Testing

/// A server written by the test, that says what no real server should: floods, endless
/// lines, invalid UTF-8, NUL bytes, formatting codes. The client does bounded work on it.
@Suite("The IRC client against a hostile server")
struct HostileServerTests {
    @Test(
        "A flood of 10,000 lines, an endless line, invalid UTF-8, NUL and formatting: bounded takes, every line read once"
    )
    func flood() throws {
        let server = try ScriptedServer {
            var bytes: [UInt8] = []
            for number in 0..<10_000 { bytes += Array(":bob!b@h PRIVMSG alice :flood \(number)\r\n".utf8) }
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000) + [0x0A]
            bytes +=
                Array(":bob!b@h PRIVMSG alice :bad ".utf8) + [0xFF, 0x00, 0xC3]
                + Array(" \u{3}04,12red\u{F} \u{1B}[2J\n".utf8)
            bytes += Array(":bob!b@h PRIVMSG alice :last\r\n".utf8)
            return bytes
        }
        let alice = try ClientHarness(port: server.port, nick: "alice")
        try alice.connected()
        // With 100 KB of the flood waiting, one take handles a bounded part and says more waits.
        let deadline = PseudoTerminal.now() + 20
        while server.sent < 100_000 && PseudoTerminal.now() < deadline { usleep(1_000) }
        try #require(server.sent >= 100_000)
        let first = alice.takeOnce()
        #expect(first.hasMore)
        // 256 lines a take, as the module promises (IRCClient.linesPerTake), and 2 reports.
        #expect(first.events.count <= 258, "\(first.events.count) events in one take")
        try alice.waitFor("the last line", timeout: 60) {
            if case .arrived(let message) = $0 { return message.content == .text("last") }
            return false
        }
        let texts = alice.events.compactMap { event -> String? in
            guard case .arrived(let message) = event, case .text(let text) = message.content else { return nil }
            return text
        }
        #expect(texts.count == 10_002)
        #expect(texts.prefix(10_000) == (0..<10_000).map { "flood \($0)" }[...])
        // Invalid bytes and the NUL as U+FFFD, formatting codes stripped; the escape
        // sequence is kept as data (the presenter shows it harmlessly).
        #expect(texts[10_000] == "bad \u{FFFD}\u{FFFD}\u{FFFD} red \u{1B}[2J")
        #expect(alice.events.contains(.overlongLines(count: 1)))
        #expect(alice.mostEventsInOneTake <= 258)
    }
}
