import Glibc

/// An exclusive advisory lock on a lock file, shared by every draftline process that uses
/// one data directory.
///
/// Wraps `flock(LOCK_EX)` on a file of its own (never on the data files, which are
/// replaced by rename). The file descriptor stays open for the life of the object. The
/// lock is reentrant within the object: a body that takes it again runs at once, and the
/// lock is released when the outermost body returns.
final class FileLock {
    let path: String
    private let fd: Int32
    private var depth = 0

    init(path: String) throws(FileError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError("open", path: path) }
        fchmod(fd, 0o600)
    }

    deinit { close(fd) }

    /// Runs `body` while holding the lock.
    func withLock<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T {
        if depth == 0 {
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else { throw FileError("flock", path: path) }
            }
        }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { flock(fd, LOCK_UN) }
        }
        return try body()
    }
}
