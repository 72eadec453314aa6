import Glibc

/// One address to connect to, as `getaddrinfo` gave it.
struct SocketAddress: Sendable {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t

    /// The numeric form (`127.0.0.1`, `::1`), by `getnameinfo`.
    var numeric: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var copy = storage
        let status = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return "?" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The addresses of `host` for a TCP connection to `port` (`getaddrinfo`); with
    /// `numericOnly`, only when `host` is an address already (no lookup, no wait).
    static func resolve(_ host: String, port: Int, numericOnly: Bool) throws(ConnectionError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_ADDRCONFIG | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            if status == EAI_NONAME && numericOnly { return [] }
            let text = String(cString: gai_strerror(status))
            throw ConnectionError("getaddrinfo", .resolution(code: status, text: text))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry {
            var storage = sockaddr_storage()
            let length = current.pointee.ai_addrlen
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: current.pointee.ai_addr, count: Int(length)))
            }
            addresses.append(SocketAddress(family: current.pointee.ai_family, storage: storage, length: length))
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
