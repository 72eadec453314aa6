import Foundation
import Glibc
import ProgramDriver

/// Ports on 127.0.0.1 for servers of the tests.
public enum LoopbackPort {
    /// A port nothing uses now, below the kernel's range for the local ends of outgoing
    /// connections (32768 and up here): a port from that range (what binding port 0 gives)
    /// can be taken by a client's socket before the server binds it. Tried by binding it.
    public static func free() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw PseudoTerminal.Failure(description: "socket: \(errno)") }
            let bound = withAddress(port) { bind(descriptor, $0, $1) == 0 }
            close(descriptor)
            if bound { return port }
        }
        throw PseudoTerminal.Failure(description: "no free port between 20000 and 32000")
    }

    /// Who listens on a TCP port of this machine now.
    public enum Listener: Equatable, Sendable {
        /// Nothing listens on it.
        case nobody
        /// A socket of the process `pid` listens on it.
        case process
        /// Another process's socket listens on it (or one this process cannot see).
        case another
    }

    /// Who listens on `port` now: the listening sockets of /proc/net/tcp and tcp6 (their
    /// inodes), matched against the `socket:[inode]` links in /proc/`pid`/fd. A server that
    /// cannot bind its port (InspIRCd runs on without it) is not taken for the one that holds
    /// it: connecting proves only that something answers.
    public static func listener(on port: Int, owner pid: pid_t) -> Listener {
        let hexPort = ":" + String(format: "%04X", port)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                guard fields.count > 9, fields[1].hasSuffix(hexPort), fields[3] == "0A" else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        if inodes.isEmpty { return .nobody }
        let folder = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + name),
                link.hasPrefix("socket:[")
            else { continue }
            if inodes.contains(String(link.dropFirst(8).dropLast())) { return .process }
        }
        return .another
    }

    /// A socket listening on 127.0.0.1:`port` (a server written by a test); the caller
    /// closes it.
    public static func listener(on port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard descriptor >= 0, withAddress(port, { bind(descriptor, $0, $1) == 0 }), listen(descriptor, 8) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw PseudoTerminal.Failure(description: "listen on \(port): \(errno)")
        }
        return descriptor
    }

    /// 127.0.0.1:`port` as a `sockaddr_in`.
    static func address(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Calls `body` with 127.0.0.1:`port` as a `sockaddr` and its length.
    static func withAddress<T>(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = self.address(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
