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
    private let file: FileDescriptor
    private var depth = 0

    /// Opens the lock file `name` in `directory`, making it (mode 0600) when missing. An
    /// existing one must be a regular file of this user's; a link is never followed
    /// (`O_NOFOLLOW`; with `O_EXCL`, not even a dangling one), and nothing that was there
    /// is changed.
    init(_ name: String, in directory: Directory) throws(FileError) {
        path = directory.path(of: name)
        var made: FileDescriptor?
        do throws(FileError) {
            made = try directory.open(name, access: .readWrite, create: .new)
        } catch {
            guard error.code == EEXIST else { throw error }
        }
        if let made {
            do throws(FileError) { try made.setMode(0o600) } catch {
                made.close()
                throw error
            }
            file = made
            return
        }
        do throws(FileError) {
            guard let existing = try directory.open(name, access: .readWrite, owned: true) else {
                throw FileError("open", path: path, code: ENOENT)
            }
            file = existing
        } catch {
            throw FileError("open", path: path, code: 0, detail: "\(error.reason): remove it")
        }
    }

    deinit { file.close() }

    /// Runs `body` while holding the lock.
    func withLock<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T {
        if depth == 0 {
            while flock(file.rawValue, LOCK_EX) != 0 {
                guard errno == EINTR else { throw FileError("flock", path: path) }
            }
        }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { flock(file.rawValue, LOCK_UN) }
        }
        return try body()
    }
}
