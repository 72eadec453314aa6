import CEventPoll
import Foundation
import Glibc
import Synchronization

/// A host name being resolved on a thread of its own (`getaddrinfo` may wait seconds on a
/// resolver; the keyboard must not). It owns an `eventfd` that becomes readable when the
/// answer is in, and closes it in `deinit` (after the thread let go of it).
final class Resolution: Sendable {
    /// Readable when ``result`` is set.
    let descriptor: Int32
    private let answer = Mutex<Result<[SocketAddress], ConnectionError>?>(nil)

    /// Resolves `host` for `port`: at once for an address (no lookup), else on a thread.
    init(host: String, port: Int) throws(ConnectionError) {
        descriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard descriptor >= 0 else { throw ConnectionError("eventfd", .system(errno)) }
        if let numeric = try? SocketAddress.resolve(host, port: port, numericOnly: true), !numeric.isEmpty {
            finish(.success(numeric))
            return
        }
        let thread = Thread { [self] in
            finish(
                Result { () throws(ConnectionError) in try SocketAddress.resolve(host, port: port, numericOnly: false) }
            )
        }
        thread.start()
    }

    deinit { close(descriptor) }

    /// The addresses, or why there are none; `nil` while the lookup runs.
    var result: Result<[SocketAddress], ConnectionError>? { answer.withLock { $0 } }

    private func finish(_ result: Result<[SocketAddress], ConnectionError>) {
        answer.withLock { $0 = result }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }
}
