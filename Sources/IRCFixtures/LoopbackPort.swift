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

    /// Whether something accepts connections on the port now.
    public static func isListening(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withAddress(port) { connect(descriptor, $0, $1) == 0 }
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
