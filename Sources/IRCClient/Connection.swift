/// A TCP connection to a server, with TLS or without, that never blocks; it owns its
/// socket (and TLS session) and closes it in `deinit`.
///
/// Opening goes on in steps (``advance()``) while the caller waits on ``descriptor``:
/// the connect, then the TLS handshake. Writes are buffered (at most
/// ``maximumBuffered`` bytes: a server that reads nothing ends the connection rather than
/// memory) and go as the socket takes them (``flush()``).
public final class Connection {
    /// TLS settings: verify against the system's certificate store, or one CA file.
    public struct TLS: Equatable, Sendable {
        /// The host name the certificate must name (or the address).
        public var host: String
        /// A CA file to trust instead of the system's store (`--server-ca`).
        public var caFile: String?

        public init(host: String, caFile: String? = nil) {
            self.host = host
            self.caFile = caFile
        }
    }

    /// Where opening is.
    enum Stage: Equatable {
        case connecting
        case handshaking(TLSSession.Want)
        case open
    }

    /// The most bytes waiting to be written.
    public static let maximumBuffered = 256 * 1024

    /// The socket's descriptor.
    public var descriptor: Int32 { socket.descriptor }
    /// The address connected to, in numeric form.
    public let address: String

    private let socket: Socket
    private let tlsSettings: TLS?
    private var tls: TLSSession?
    private(set) var stage: Stage = .connecting
    private var output: [UInt8] = []
    private var written = 0
    private var readWaitsForWrite = false
    private var writeWaitsForRead = false

    /// Starts connecting to `address`.
    init(to address: SocketAddress, tls: TLS?) throws(ConnectionError) {
        socket = try Socket.open(family: address.family)
        self.address = address.numeric
        tlsSettings = tls
        do {
            try socket.disableDelay()
            if try socket.connect(to: address) { try opened() }
        } catch {
            socket.close()
            throw error
        }
    }

    deinit {
        tls = nil
        socket.close()
    }

    /// Whether the connection and its handshake are done.
    public var isOpen: Bool { stage == .open }

    /// Whether the caller should wait for the socket to become writable too.
    public var wantsWritable: Bool {
        switch stage {
        case .connecting: return true
        case .handshaking(let want): return want == .write
        case .open: return written < output.count || readWaitsForWrite
        }
    }

    /// Whether bytes are waiting inside TLS that the socket will not announce.
    public var hasBufferedInput: Bool { stage == .open && (tls?.buffered ?? 0) > 0 }

    /// Takes opening a step further when the socket is ready; returns whether it is open.
    public func advance() throws(ConnectionError) -> Bool {
        switch stage {
        case .open: return true
        case .connecting:
            let error = socket.pendingError()
            guard error == 0 else { throw ConnectionError("connect", .system(error)) }
            try opened()
        case .handshaking: try handshake()
        }
        return stage == .open
    }

    /// What one read gave.
    public enum Received: Equatable, Sendable {
        case bytes(Int)
        case nothing
        case end
    }

    /// Reads what has arrived into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(ConnectionError) -> Received {
        guard stage == .open else { return .nothing }
        guard let tls else {
            switch try socket.receive(into: buffer) {
            case .bytes(let count): return .bytes(count)
            case .wouldBlock: return .nothing
            case .end: return .end
            }
        }
        readWaitsForWrite = false
        switch try tls.read(into: buffer) {
        case .bytes(let count): return .bytes(count)
        case .waiting(let want):
            readWaitsForWrite = want == .write
            return .nothing
        case .end: return .end
        }
    }

    /// Adds bytes to write and writes what the socket takes now.
    public func write(_ bytes: [UInt8]) throws(ConnectionError) {
        if written == output.count {
            output.removeAll(keepingCapacity: true)
            written = 0
        }
        guard output.count - written + bytes.count <= Self.maximumBuffered else {
            throw ConnectionError("send", .system(105))  // ENOBUFS: the server reads nothing
        }
        output += bytes
        try flush()
    }

    /// Writes what the socket takes now of the buffered bytes.
    public func flush() throws(ConnectionError) {
        guard stage == .open else { return }
        while written < output.count {
            let result: Result<(Int, TLSSession.Want?), ConnectionError> = output[written...].withUnsafeBytes { bytes in
                if let tls { return Result { () throws(ConnectionError) in try tls.write(bytes) } }
                return Result { () throws(ConnectionError) in (try socket.send(bytes), nil) }
            }
            let (count, want) = try result.get()
            writeWaitsForRead = want == .read
            guard count > 0 else { return }
            written += count
        }
    }

    /// Bytes written but not yet taken by the socket.
    public var unwritten: Int { output.count - written }

    private func opened() throws(ConnectionError) {
        guard let tlsSettings else {
            stage = .open
            return
        }
        tls = try TLSSession(descriptor: socket.descriptor, host: tlsSettings.host, caFile: tlsSettings.caFile)
        stage = .handshaking(.write)
        try handshake()
    }

    private func handshake() throws(ConnectionError) {
        guard let tls else { return }
        if let want = try tls.handshake() {
            stage = .handshaking(want)
        } else {
            stage = .open
        }
    }
}
