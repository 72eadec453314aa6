import Glibc

/// A file-system call that failed: which call, on which path, and the `errno` it set.
///
/// Internal to the property-list backend: callers of a ``HistoryStore`` see a
/// ``StoreError``, which names no call or path.
struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, such as `fsync` or `rename`.
    var operation: String
    /// The path it was called on.
    var path: String
    /// The `errno` value; 0 when the failure was not a system call's (a parse error).
    var code: Int32
    /// Extra words, for failures that are not a system call's.
    var detail: String
    /// For a lock that stayed held past its limit: who held it (``FileLock``).
    var lockWait: LockWait?

    init(_ operation: String, path: String, code: Int32 = errno, detail: String = "") {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    var description: String {
        let reason = code != 0 ? String(cString: strerror(code)) : detail
        return "\(operation) \(path): \(reason)"
    }
}

extension FileError {
    /// The reason alone, without the call and the path.
    var reason: String { code != 0 ? String(cString: strerror(code)) : detail }
}
