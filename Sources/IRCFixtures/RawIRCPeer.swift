import Glibc
import ProgramDriver

/// A bare IRC client over a plain socket, written apart from the IRC module (its own
/// socket code, lines as text): an independent other side for tests and the benchmark.
/// It registers, answers PING, and waits for lines with deadlines.
public final class RawIRCPeer {
    public let nick: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Lines received and not yet consumed by a wait.
    private var lines: [String] = []

    /// Connects to 127.0.0.1:`port`, asks for `capabilities` (when given) and registers as
    /// `nick`; returns once welcomed (`001`).
    public init(port: Int, nick: String, capabilities: [String] = [], timeout: Double = 10) throws {
        self.nick = nick
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw PseudoTerminal.Failure(description: "socket: \(errno)") }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let connected = LoopbackPort.withAddress(port) { connect(descriptor, $0, $1) == 0 }
        guard connected else {
            close(descriptor)
            throw PseudoTerminal.Failure(description: "connect to \(port): \(errno)")
        }
        if !capabilities.isEmpty {
            try send("CAP LS 302")
            try send("CAP REQ :" + capabilities.joined(separator: " "))
        }
        try send("NICK \(nick)")
        try send("USER \(nick) 0 * :raw peer")
        if !capabilities.isEmpty {
            try waitFor({ $0.contains(" CAP ") && ($0.contains(" ACK ") || $0.contains(" NAK ")) }, timeout: timeout)
            try send("CAP END")
        }
        try waitFor({ $0.split(separator: " ").dropFirst().first == "001" || $0.contains(" 001 ") }, timeout: timeout)
    }

    deinit { close(descriptor) }

    /// Writes one line (CRLF added).
    public func send(_ line: String) throws {
        var bytes = Array((line + "\r\n").utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw PseudoTerminal.Failure(description: "send: \(errno)") }
            bytes = bytes.dropFirst(count)
        }
    }

    /// Waits for a line that matches, consuming it and every line before it; returns it.
    @discardableResult
    public func waitFor(_ matches: (String) -> Bool, timeout: Double = 10) throws -> String {
        let deadline = PseudoTerminal.now() + timeout
        while true {
            if let index = lines.firstIndex(where: matches) {
                let line = lines[index]
                lines.removeFirst(index + 1)
                return line
            }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(
                    description: "\(nick): no such line within \(timeout) s; last: \(lines.suffix(5))")
            }
            try pump(until: deadline)
        }
    }

    /// The lines up to and including the first that matches.
    public func collect(until matches: (String) -> Bool, timeout: Double = 10) throws -> [String] {
        let deadline = PseudoTerminal.now() + timeout
        while true {
            if let index = lines.firstIndex(where: matches) {
                defer { lines.removeFirst(index + 1) }
                return Array(lines[...index])
            }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(description: "\(nick): no such line within \(timeout) s")
            }
            try pump(until: deadline)
        }
    }

    /// The lines received so far and not consumed, after reading what has arrived within
    /// `wait` seconds.
    public func pending(wait: Double = 0) throws -> [String] {
        let deadline = PseudoTerminal.now() + wait
        repeat { try pump(until: deadline) } while PseudoTerminal.now() < deadline
        return lines
    }

    private func pump(until deadline: Double) throws {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(deadline - PseudoTerminal.now(), 1)) * 1000)
        guard poll(&entry, 1, milliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw PseudoTerminal.Failure(description: "\(nick): the server closed the connection") }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: 0x0A) {
            var line = buffer[..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            buffer.removeSubrange(...newline)
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("PING ") {
                try send("PONG " + text.dropFirst(5))
            } else {
                lines.append(text)
            }
        }
    }
}
