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
    /// A one-client server on a free port: it welcomes the client, then writes `script`
    /// from a thread of its own (its writes block while the client does not read).
    final class FakeServer: @unchecked Sendable {
        let port: Int
        private let listener: Int32
        private let done = DispatchSemaphore(value: 0)
        private let sentBytes = Counter()
        /// How many bytes of the script the kernel has taken so far.
        var sent: Int { sentBytes.value.withLock { $0 } }

        /// A count the server's thread writes and the test reads.
        final class Counter: Sendable {
            let value = Mutex(0)
        }

        init(script: @escaping @Sendable () -> [UInt8]) throws {
            port = try LoopbackPort.free()
            let listener = try LoopbackPort.listener(on: port)
            self.listener = listener
            let done = self.done
            let sentBytes = self.sentBytes
            Thread {
                let client = accept(listener, nil, nil)
                defer {
                    close(client)
                    done.signal()
                }
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                var heard = ""
                while !heard.contains("USER ") {
                    let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { return }
                    heard += String(decoding: buffer[0..<count], as: UTF8.self)
                }
                let bytes = Array(":fake.test 001 alice :Welcome alice!alice@127.0.0.1\r\n".utf8) + script()
                var sent = 0
                while sent < bytes.count {
                    let count = bytes[sent...].withUnsafeBytes {
                        send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard count > 0 else { return }
                    sent += count
                    sentBytes.value.withLock { $0 = sent }
                }
                // Stay open until the client is done reading.
                while buffer.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
            }.start()
        }

        deinit {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    @Test(
        "A flood of 10,000 lines, an endless line, invalid UTF-8, NUL and formatting: bounded takes, every line read once"
    )
    func flood() throws {
        let server = try FakeServer {
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
