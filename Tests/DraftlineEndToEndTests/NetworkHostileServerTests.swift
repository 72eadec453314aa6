import DraftlineTestSupport
import Foundation
import IRCFixtures
import ProgramDriver
import Testing

/// SPEC §6 "faults", through the binary: a hostile server's lines (escape sequences that
/// would retitle or clear the terminal, NUL, invalid UTF-8, CTCP, a line far over the
/// limit) reach the screen harmlessly and the history as text; keys stay the user's.
extension NetworkEndToEndTests {
    @Test("A hostile server's lines are shown and stored harmlessly; the edit line stays the user's")
    func aHostileServerIsHarmless() throws {
        let server = try ScriptedServer {
            var bytes = Array(":bob!b@h PRIVMSG alice :\u{1B}]0;pwned\u{7}\u{1B}[2Jcleared?\r\n".utf8)
            bytes +=
                Array(":bob!b@h PRIVMSG alice :bad ".utf8) + [0xFF, 0x00, 0xC3] + Array(" \u{3}04red\u{F}\r\n".utf8)
            bytes += Array(":bob!b@h PRIVMSG alice :\u{1}VERSION\u{1}\r\n".utf8)
            bytes += Array(":bob!b@h PRIVMSG alice :".utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 100_000)
            bytes += Array("\r\n:bob!b@h PRIVMSG alice :last one\r\n".utf8)
            return bytes
        }
        let alice = try Fixture()
        let terminal = try alice.startTerminal(
            ["--server", "irc://127.0.0.1:\(server.port)", "--as", "alice"], environment: ["NO_COLOR": "1"])
        try terminal.waitFor("last one", timeout: 20)
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open bob\r")
        try terminal.waitFor("last one")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("still mine")
        try terminal.waitFor("still mine")
        let screen = terminal.text
        // No escape sequence of the server's reached the terminal as one.
        #expect(!screen.contains("\u{1B}]0;pwned"), "\(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}[2Jcleared"), "\(screen.debugDescription)")
        #expect(!screen.contains("\u{0}"), "\(screen.debugDescription)")
        #expect(screen.contains("cleared?"))
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
        let stored = try alice.messages(in: "alice+bob").map(\.content)
        #expect(stored.first?.hasSuffix("cleared?") == true, "\(stored)")
        #expect(stored.contains("bad \u{FFFD}\u{FFFD}\u{FFFD} red"), "\(stored)")
        #expect(stored.last == "last one", "\(stored)")
        #expect(stored.allSatisfy { $0.utf8.count < 10_000 }, "\(stored.map(\.utf8.count))")
    }
}
