import Glibc

/// A TCP socket that never blocks: each method wraps one C call, named in its summary.
///
/// The value does not close itself; its owner (``Connection``) calls ``close()`` once.
struct Socket {
    let descriptor: Int32

    /// A new socket for `family` (`socket` with `SOCK_NONBLOCK` and `SOCK_CLOEXEC`).
    static func open(family: Int32) throws(ConnectionError) -> Socket {
        let descriptor = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectionError("socket", .system(errno)) }
        return Socket(descriptor: descriptor)
    }

    /// Sends each write at once rather than waiting to fill a segment (`setsockopt`
    /// `TCP_NODELAY`): without it a line written right after another waits about 40 ms.
    func disableDelay() throws(ConnectionError) {
        var one: Int32 = 1
        guard setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
        else { throw ConnectionError("setsockopt", .system(errno)) }
    }

    /// Starts connecting (`connect`); returns whether it is open already (else it opens
    /// in the background: the socket becomes writable, then ``pendingError()`` says how).
    func connect(to address: SocketAddress) throws(ConnectionError) -> Bool {
        var storage = address.storage
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
        }
        if status == 0 { return true }
        guard errno == EINPROGRESS || errno == EINTR else { throw ConnectionError("connect", .system(errno)) }
        return false
    }

    /// The outcome of a connect that went on in the background (`getsockopt` `SO_ERROR`):
    /// 0 when it is open.
    func pendingError() -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }

    /// What one read gave.
    enum Received: Equatable {
        case bytes(Int)
        case wouldBlock
        case end
    }

    /// Reads what has arrived (`recv`).
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(ConnectionError) -> Received {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
            throw ConnectionError("recv", .system(errno))
        }
    }

    /// Writes what the socket takes now (`send` with `MSG_NOSIGNAL`: a closed peer is an
    /// `EPIPE`, never a SIGPIPE); returns how many bytes went (0: none fit now).
    func send(_ bytes: UnsafeRawBufferPointer) throws(ConnectionError) -> Int {
        while true {
            let count = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            throw ConnectionError("send", .system(errno))
        }
    }

    /// Closes the socket (`close`).
    func close() { _ = Glibc.close(descriptor) }
}
