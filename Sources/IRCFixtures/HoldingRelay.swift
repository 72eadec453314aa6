import Foundation
import Glibc
import ProgramDriver

/// A relay on a free loopback port between one client and a server on 127.0.0.1, that can
/// make the server slow as the client sees it: from the first of the server's lines that
/// matches what it holds, it holds that line and every later one back (in order) until
/// ``release()``. The client's lines go through at once, so the server acts on them as
/// usual (it relays a PRIVMSG to its receiver) while the client waits for its echo.
public final class HoldingRelay: @unchecked Sendable {
    /// Where the client connects.
    public let port: Int
    private let listener: Int32
    private let upstream: Int
    private let holds: @Sendable (String) -> Bool
    private let lock = NSCondition()
    private var released = false
    private var stopped = false
    private var heldLines = 0

    /// Listens for one client, to be relayed to 127.0.0.1:`upstream`; `holds` says which
    /// of the server's lines (without CRLF) starts the holding.
    public init(to upstream: Int, holding holds: @escaping @Sendable (String) -> Bool) throws {
        self.upstream = upstream
        self.holds = holds
        port = try LoopbackPort.free()
        listener = try LoopbackPort.listener(on: port)
        Thread { [self] in run() }.start()
    }

    deinit { close(listener) }

    /// Lets what was held (and everything after it) through.
    public func release() {
        lock.lock()
        released = true
        lock.unlock()
    }

    /// Ends the relay's connections.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Waits until at least one of the server's lines is held back; throws after `timeout`.
    public func waitUntilHolding(timeout: Double = 10) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while heldLines == 0 {
            guard lock.wait(until: deadline) else {
                throw PseudoTerminal.Failure(description: "the relay held no line within \(timeout) s")
            }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func run() {
        var client: Int32 = -1
        while client < 0 {
            if isStopped { return }
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 100) > 0 { client = accept(listener, nil, nil) }
        }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer {
            close(client)
            if server >= 0 { close(server) }
        }
        guard server >= 0, LoopbackPort.withAddress(upstream, { connect(server, $0, $1) == 0 }) else { return }
        for descriptor in [client, server] {
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var fromServer: [UInt8] = []
        var held: [UInt8] = []
        var holding = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !isStopped {
            lock.lock()
            let letGo = released
            lock.unlock()
            if letGo, !held.isEmpty {
                guard Self.write(held, to: client) else { return }
                held = []
            }
            var entries = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&entries, 2, 50) >= 0 || errno == EINTR else { return }
            if entries[0].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                guard count > 0, Self.write(Array(chunk[0..<count]), to: server) else { return }
            }
            if entries[1].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { recv(server, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                fromServer += chunk[0..<count]
                var through: [UInt8] = []
                while let newline = fromServer.firstIndex(of: 0x0A) {
                    let line = Array(fromServer[...newline])
                    fromServer.removeSubrange(...newline)
                    if !letGo, !holding {
                        var text = String(decoding: line.dropLast(), as: UTF8.self)
                        if text.hasSuffix("\r") { text.removeLast() }
                        holding = holds(text)
                    }
                    if holding && !letGo {
                        held += line
                        lock.lock()
                        heldLines += 1
                        lock.broadcast()
                        lock.unlock()
                    } else {
                        through += line
                    }
                }
                guard through.isEmpty || Self.write(through, to: client) else { return }
            }
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            rest = rest.dropFirst(count)
        }
        return true
    }
}
