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

    /// Opens the lock file, making it (mode 0600) when missing. An existing one must be a
    /// regular file of this user's; a link is never followed (`O_NOFOLLOW`; with
    /// `O_EXCL`, not even a dangling one), and nothing that was there is changed.
    init(path: String) throws(FileError) {
        self.path = path
        let made = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if made >= 0 {
            fchmod(made, 0o600)
            fd = made
            return
        }
        guard errno == EEXIST else { throw FileError("open", path: path) }
        let existing = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard existing >= 0 else {
            if errno == ELOOP {
                throw FileError("open", path: path, code: 0, detail: "it is a symbolic link: remove it")
            }
            throw FileError("open", path: path)
        }
        var info = stat()
        guard fstat(existing, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            close(existing)
            throw FileError("open", path: path, code: 0, detail: "it is not a regular file of yours: remove it")
        }
        fd = existing
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
