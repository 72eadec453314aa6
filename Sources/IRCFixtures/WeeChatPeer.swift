import Foundation
import Glibc
import ProgramDriver

/// WeeChat (headless) as the other side of a test: commands through its FIFO, what it
/// received in its logger's files, typing notifications on (its `typing` plugin), stopped
/// by its process ID.
public final class WeeChatPeer {
    public let nick: String
    /// Its home: config, logs, FIFO.
    public let directory: String
    public let process: ServerProcess

    /// Starts `weechat-headless` as `nick` on 127.0.0.1:`port`.
    public init(port: Int, nick: String) throws {
        self.nick = nick
        var template = Array((NSTemporaryDirectory() + "/draftline-weechat-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PseudoTerminal.Failure(description: "mkdtemp failed") }
        directory = String(cString: made)
        let commands = [
            "/set fifo.file.path \(directory)/fifo", "/set logger.file.path \(directory)/logs",
            "/set logger.file.flush_delay 0", "/set typing.look.enabled_nicks on", "/set typing.look.enabled_self on",
            "/set irc.look.typing_status_nicks on", "/set irc.look.typing_status_self on",
            "/server add test 127.0.0.1/\(port) -notls -nicks=\(nick)", "/connect test",
        ]
        process = try ServerProcess(
            ["/usr/bin/weechat-headless", "-d", directory, "--stdout", "-r", commands.joined(separator: ";")],
            environment: ["HOME": directory, "TERM": "dumb"], logPath: directory + "/stdout.log")
        // What its typing plugin is told of others (the IRC plugin's typing_set_nick signal:
        // buffer;state;nick), printed on the core buffer, which is logged. Through the FIFO:
        // the startup commands are evaluated, which would empty ${tg_signal_data}.
        try command(
            "/trigger add seentyping signal typing_set_nick \"\" \"\" \"/print -core typing-seen ${tg_signal_data}\"")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a command on the test server's buffer (`*/msg alice hi`), through the FIFO.
    public func command(_ text: String, timeout: Double = 10) throws {
        try write("irc.server.test */\(text.hasPrefix("/") ? String(text.dropFirst()) : text)\n", timeout: timeout)
    }

    /// Writes one line to the FIFO, once WeeChat reads it.
    private func write(_ text: String, timeout: Double) throws {
        let line = Array(text.utf8)
        let deadline = PseudoTerminal.now() + timeout
        var descriptor: Int32 = -1
        while descriptor < 0 {
            // Until WeeChat opens the FIFO, opening it without blocking fails (ENXIO).
            descriptor = open(directory + "/fifo", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 { break }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(
                    description: "WeeChat's FIFO did not open within \(timeout) s: \(process.logTail)")
            }
            usleep(20_000)
        }
        defer { close(descriptor) }
        let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw PseudoTerminal.Failure(description: "writing to WeeChat's FIFO: \(errno)")
        }
    }

    /// Types `text` into the input of its buffer with `target` (`/input insert`), as a
    /// person at WeeChat would: its typing plugin sees the input change (from 4 characters,
    /// `typing.look.input_min_chars`) and sends `+typing`.
    public func input(_ text: String, in target: String, timeout: Double = 10) throws {
        try write("irc.test.\(target) */input insert \(text)\n", timeout: timeout)
    }

    /// What WeeChat logged in its buffer with `target` (`irc.test.<target>.weechatlog`).
    public func log(of target: String) -> String {
        (try? String(contentsOfFile: "\(directory)/logs/irc.test.\(target.lowercased()).weechatlog", encoding: .utf8))
            ?? ""
    }

    /// Waits until its buffer with `target` logged `text`.
    public func waitForLog(of target: String, containing text: String, timeout: Double = 15) throws {
        let deadline = PseudoTerminal.now() + timeout
        while !log(of: target).contains(text) {
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(
                    description: "WeeChat did not log '\(text)' with \(target) within \(timeout) s: \(process.logTail)")
            }
            usleep(20_000)
        }
    }

    /// The typing states WeeChat was told of, in order: (state, nick), from its IRC
    /// plugin's `typing_set_nick` signal (`off`, `typing`, `paused`).
    public var typingSeen: [(state: String, nick: String)] {
        return printed.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "typing-seen ") else { return nil }
            let parts = line[range.upperBound...].split(separator: ";")
            guard parts.count >= 3 else { return nil }
            return (String(parts[parts.count - 2]), String(parts[parts.count - 1]))
        }
    }

    /// What WeeChat printed on its core buffer (its logger's file of it).
    public var printed: String {
        (try? String(contentsOfFile: "\(directory)/logs/core.weechat.weechatlog", encoding: .utf8)) ?? ""
    }

    /// Quits WeeChat (`/quit` through the FIFO), and stops it by its process ID if it does
    /// not end within 5 s.
    public func stop() {
        if process.termination == nil { try? command("/quit", timeout: 1) }
        let deadline = PseudoTerminal.now() + 5
        while process.termination == nil && PseudoTerminal.now() < deadline { usleep(10_000) }
        process.stop()
    }
}
