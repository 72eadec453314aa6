/// A failure of the network layer: the C call that failed and its `errno`, or what TLS
/// said.
public struct ConnectionError: Error, Equatable, Sendable {
    /// What failed.
    public enum Kind: Equatable, Sendable {
        /// A system call failed with this `errno`.
        case system(Int32)
        /// The name did not resolve (`getaddrinfo`'s code and its text).
        case resolution(code: Int32, text: String)
        /// The TLS handshake or a TLS read or write failed (OpenSSL's reason).
        case tls(String)
        /// The server's certificate was not accepted (the verification's reason).
        case certificate(String)
        /// The connection did not open within the time allowed.
        case timedOut
    }

    /// The operation, by the C function it wraps (`connect`, `SSL_connect`).
    public var operation: String
    public var kind: Kind

    public init(_ operation: String, _ kind: Kind) {
        self.operation = operation
        self.kind = kind
    }
}
