import Glibc

/// An exclusive `flock` on a lock file of its own (the data files are replaced by rename),
/// shared by every draftline on one data directory; reentrant within the object. No wait is
/// unbounded: past ``limit`` the body does not run and the error names the holders.
final class FileLock {
    let path: String
    private let file: FileDescriptor
    private var depth = 0
    /// The longest wait before giving up, in seconds; `nil` waits for as long as it takes
    /// (still telling ``onWait`` who holds it).
    var limit: Double? = 30
    /// When a wait is said: past a second, a person wonders.
    static let noticeAfter = 1.0
    /// Told once a wait, after ``noticeAfter`` seconds, who holds the lock.
    var onWait: ((LockWait) -> Void)?

    /// Why the data directory cannot be written, when the lock file could only be opened
    /// for reading: the lock still orders readers, and the history refuses every write.
    let readOnly: FileError?

    /// Opens the lock file `name` in `directory`, made (0600) when missing; an existing one
    /// must be a regular file of this user's. Where it can only be opened for reading, it
    /// is (`flock` needs no write access) and ``readOnly`` says why.
    init(_ name: String, in directory: Directory) throws(FileError) {
        path = directory.path(of: name)
        var made: FileDescriptor?
        do throws(FileError) {
            made = try directory.open(name, access: .readWrite, create: .new)
        } catch {
            guard error.code == EEXIST || error.isReadOnly else { throw error }
        }
        if let made {
            do throws(FileError) { try made.setMode(0o600) } catch {
                made.close()
                throw error
            }
            file = made
            readOnly = nil
            return
        }
        do throws(FileError) {
            guard let existing = try directory.open(name, access: .readWrite, owned: true) else {
                throw FileError("open", path: path, code: ENOENT)
            }
            file = existing
            readOnly = nil
        } catch {
            guard error.isReadOnly else { throw error }
            guard let existing = try directory.open(name, access: .read, owned: true) else {
                throw FileError("open", path: path, code: ENOENT)
            }
            file = existing
            readOnly = error
        }
    }

    deinit { file.close() }

    /// Runs `body` while holding the lock.
    func withLock<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T {
        if depth == 0 { try Self.take(file, LOCK_EX, path: path, limit: limit, onWait: onWait) }
        return try holding(body)
    }

    /// Runs `body` when the lock is free now (or held already); `nil` when another holds it.
    func withLockIfFree<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T? {
        if depth == 0, try !file.lock(LOCK_EX | LOCK_NB) { return nil }
        return try holding(body)
    }

    /// Runs `body` with the lock taken, releasing it when the outermost body returns.
    private func holding<T>(_ body: () throws(FileError) -> T) throws(FileError) -> T {
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { _ = try? file.lock(LOCK_UN) }
        }
        return try body()
    }

    /// Takes `operation` on `file` without ever blocking in the kernel (`LOCK_NB`, tried
    /// again), until `limit` seconds; `onWait` hears who holds it after ``noticeAfter``.
    static func take(
        _ file: FileDescriptor, _ operation: Int32, path: String, limit: Double?, onWait: ((LockWait) -> Void)?
    ) throws(FileError) {
        let start = SuspendingClock.now
        var noticed = false
        while true {
            if try file.lock(operation | LOCK_NB) { return }
            let waited = (SuspendingClock.now - start) / .seconds(1)
            func wait() -> LockWait {
                LockWait(path: path, holders: (try? file.status()).map(LockHolder.holders) ?? [], waited: waited)
            }
            if let limit, waited >= limit { throw FileError("flock", path: path, refusal: .lockHeld(wait())) }
            if !noticed && waited >= noticeAfter {
                noticed = true
                onWait?(wait())
            }
            // A writer that sends back to back holds the lock for a millisecond or more and
            // leaves it free for a fraction of one: tried every 10 ms, a second's wait missed
            // every gap often enough to fail a send (DurabilityTests' two writers, 2 runs of 3
            // on a loaded machine). Tried every millisecond it finds one.
            usleep(waited < noticeAfter ? 1_000 : 10_000)
        }
    }
}
