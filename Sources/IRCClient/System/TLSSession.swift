import COpenSSL
import Glibc

/// One TLS client session over a socket that does not block, with OpenSSL: it owns its
/// `SSL_CTX` and `SSL` and frees them in `deinit`. Each method wraps the OpenSSL call its
/// summary names.
///
/// The server's certificate is verified against the system's store
/// (`SSL_CTX_set_default_verify_paths`) or one CA file (`SSL_CTX_load_verify_locations`),
/// and must name the host connected to (`SSL_set1_host`, or
/// `X509_VERIFY_PARAM_set1_ip_asc` for an address); TLS 1.2 at least.
final class TLSSession {
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    /// What a step of the handshake, a read or a write needs before it can go on.
    enum Want: Equatable {
        case read
        case write
    }

    /// Sets up a session for `host` on `descriptor` (`SSL_CTX_new`, `SSL_new`,
    /// `SSL_set_fd`).
    init(descriptor: Int32, host: String, caFile: String?) throws(ConnectionError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("SSL_CTX_new") }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = dl_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        let loaded =
            caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1 else {
            let failure = Self.failure(
                caFile == nil ? "SSL_CTX_set_default_verify_paths" : "SSL_CTX_load_verify_locations")
            SSL_CTX_free(context)
            throw failure
        }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw Self.failure("SSL_new")
        }
        self.ssl = ssl
        _ = dl_SSL_set_mode(ssl, Int(SSL_MODE_ENABLE_PARTIAL_WRITE) | Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        guard SSL_set_fd(ssl, descriptor) == 1 else { throw Self.failure("SSL_set_fd") }
        let isAddress =
            host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        if isAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 else {
                throw Self.failure("X509_VERIFY_PARAM_set1_ip_asc")
            }
        } else {
            guard SSL_set1_host(ssl, host) == 1 else { throw Self.failure("SSL_set1_host") }
            _ = dl_SSL_set_tlsext_host_name(ssl, host)
        }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Takes the handshake a step further (`SSL_connect`): `nil` when it is done, else
    /// what it waits for.
    func handshake() throws(ConnectionError) -> Want? {
        ERR_clear_error()
        let status = SSL_connect(ssl)
        if status == 1 { return nil }
        switch SSL_get_error(ssl, status) {
        case SSL_ERROR_WANT_READ: return .read
        case SSL_ERROR_WANT_WRITE: return .write
        default:
            let verdict = SSL_get_verify_result(ssl)
            if verdict != X509_V_OK {
                throw ConnectionError(
                    "SSL_connect", .certificate(String(cString: X509_verify_cert_error_string(verdict))))
            }
            throw Self.failure("SSL_connect")
        }
    }

    /// What one read gave.
    enum Received: Equatable {
        case bytes(Int)
        case waiting(Want)
        case end
    }

    /// Reads decrypted bytes (`SSL_read`).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ConnectionError) -> Received {
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if count > 0 { return .bytes(Int(count)) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ: return .waiting(.read)
        case SSL_ERROR_WANT_WRITE: return .waiting(.write)
        case SSL_ERROR_ZERO_RETURN: return .end
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0:
            // The peer closed the socket without a close_notify (a killed server).
            if errno == 0 || count == 0 { return .end }
            throw ConnectionError("SSL_read", .system(errno))
        default: throw Self.failure("SSL_read")
        }
    }

    /// Bytes OpenSSL holds decrypted already (`SSL_pending`): the socket will not say so.
    var buffered: Int { Int(SSL_pending(ssl)) }

    /// Writes what TLS takes now (`SSL_write`, partial writes allowed); returns the bytes
    /// taken and, when it took none, what it waits for.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ConnectionError) -> (Int, Want?) {
        guard bytes.count > 0 else { return (0, nil) }
        ERR_clear_error()
        let count = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
        if count > 0 { return (Int(count), nil) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ: return (0, .read)
        case SSL_ERROR_WANT_WRITE: return (0, .write)
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0: throw ConnectionError("SSL_write", .system(errno))
        default: throw Self.failure("SSL_write")
        }
    }

    /// The failure of `operation` with OpenSSL's first queued reason (`ERR_get_error`,
    /// `ERR_error_string_n`).
    private static func failure(_ operation: String) -> ConnectionError {
        let code = ERR_get_error()
        guard code != 0 else { return ConnectionError(operation, .tls("failed")) }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return ConnectionError(
            operation, .tls(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
}
