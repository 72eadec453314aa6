import Glibc

/// Append-only files that other processes follow: the journal.
extension FileSystem {
    /// Opens a regular file of this user's for appending (`open` with `O_APPEND`,
    /// `O_CREAT`, `O_NOFOLLOW` and `O_NONBLOCK`, then `fstat`): a link, a FIFO or another
    /// user's file is refused.
    private static func openLogForAppending(_ path: String) throws(FileError) -> Int32 {
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw FileError("open", path: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = FileError("fstat", path: path)
            close(fd)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw FileError("open", path: path, code: 0, detail: "\(kindName(info.st_mode)) of another kind or owner")
        }
        return fd
    }

    /// Appends `bytes` to a log file with one `write` (so that readers never see half a
    /// line written by one process and half by another) and returns the file's size then;
    /// with `rotation`, a file over its size is renamed to its path, so that the next
    /// append starts a new one.
    /// A file that does not end with a newline (a short write on a full disk, an edit by
    /// hand) gets one first, so that its broken last line stays one line of its own. Not
    /// synced: a log is a notification, not data. Callers serialise appends (a lock).
    @discardableResult
    static func appendToLog(
        _ path: String, _ bytes: [UInt8], rotation: (size: Int, to: String)? = nil
    ) throws(FileError) -> Int {
        let fd = try openLogForAppending(path)
        defer { close(fd) }
        var bytes = bytes
        let size = size(of: fd)
        var last: UInt8 = 0x0A
        if size > 0, pread(fd, &last, 1, off_t(size - 1)) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError("write", path: path)
            }
            written += n
        }
        let total = size + bytes.count
        if let rotation, total > rotation.size { try rename(path, to: rotation.to) }
        return total
    }

    /// Opens a log file for reading (`O_NONBLOCK`, `O_NOFOLLOW`), when it exists and is a
    /// regular file; `nil` otherwise.
    static func openLog(_ path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The size of an open file (`fstat`).
    static func size(of fd: Int32) -> Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Whether `path` names the file open as `fd` (`fstat`, `lstat`: same device and inode).
    static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The bytes of an open file from `offset` to its end (`pread`), at most `limit`.
    static func read(_ fd: Int32, from offset: Int, limit: Int) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while result.count < limit {
            let n = chunk.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress, min($0.count, limit - result.count), off_t(offset + result.count))
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            result += chunk[0..<n]
        }
        return result
    }

    /// Closes a log opened with ``openLog(_:)`` (`close`).
    static func closeLog(_ fd: Int32) { _ = close(fd) }
}

extension FileSystem {
    /// Commits everything written to disk (`sync`; Glibc's module leaves out `syncfs`).
    static func syncAll() { sync() }
}
