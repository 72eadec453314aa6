import Glibc

/// An exclusive advisory lock on a lock file, shared by every draftline process that uses
/// one data directory.
///
/// Wraps `flock(LOCK_EX)` on a file of its own (never on the data files, which are
/// replaced by rename). The file descriptor stays open for the life of the object.
final class FileLock {
    let path: String
    private let fd: Int32

    init(path: String) throws(StorageError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StorageError("open", path: path) }
        fchmod(fd, 0o600)
    }

    deinit { close(fd) }

    /// Runs `body` while holding the lock.
    func withLock<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StorageError("flock", path: path) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
