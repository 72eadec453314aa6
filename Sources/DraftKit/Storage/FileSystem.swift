import Foundation
import Glibc

/// The file-system calls storage needs, in one place.
///
/// Each function wraps one or a few POSIX calls and turns a failure into a
/// ``FileError``. This is the only layer of DraftKit that calls the C library for
/// files. The writing calls take a ``FaultInjector`` so that tests can make one fail as a
/// full disk or a failing device does.
enum FileSystem {
    /// Decides whether an operation fails before it runs: `(operation, path)` to an `errno`
    /// value, or 0 to let it run. `nil` in normal use.
    typealias FaultInjector = @Sendable (_ operation: String, _ path: String) -> Int32

    private static func check(_ faults: FaultInjector?, _ operation: String, _ path: String) throws(FileError) {
        if let code = faults?(operation, path), code != 0 { throw FileError(operation, path: path, code: code) }
    }

    /// Whether something exists at `path`, a link counting as itself (`lstat`).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates a directory with mode 0700, whatever the umask, if it is missing (`mkdir`,
    /// `chmod` of what it just made), and returns whether it made it. A directory that was
    /// there already is checked to be private (``checkPrivateDirectory(_:followLink:)``)
    /// and left as it is.
    @discardableResult
    static func makeDirectory(_ path: String, followLink: Bool = false) throws(FileError) -> Bool {
        if mkdir(path, 0o700) == 0 {
            try setMode(path, 0o700)
            return true
        }
        guard errno == EEXIST else { throw FileError("mkdir", path: path) }
        try checkPrivateDirectory(path, followLink: followLink)
        return false
    }

    /// Creates a directory and any missing parents, each with mode 0700 (`mkdir`); an
    /// existing one (the data directory given, say) must be a private directory. Returns
    /// whether the last one was made.
    @discardableResult
    static func makeDirectories(_ path: String) throws(FileError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 {
            try checkPrivateDirectory(path, followLink: true)
            return false
        }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty && !exists(parent) { try makeDirectories(parent) }
        return try makeDirectory(path, followLink: true)
    }

    /// Checks that `path` is a directory of this user's that no one else may write to
    /// (`stat`, or `lstat` when a link makes no sense there): not a file, a link, a shared
    /// directory (sticky, writable by group or others) or another user's. Changes nothing.
    static func checkPrivateDirectory(_ path: String, followLink: Bool) throws(FileError) {
        var info = stat()
        guard (followLink ? stat(path, &info) : lstat(path, &info)) == 0 else { throw FileError("stat", path: path) }
        func refuse(_ why: String) -> FileError {
            FileError("open", path: path, code: 0, detail: why)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw refuse("it is \(kindName(info.st_mode)), not a directory") }
        if info.st_uid != geteuid() { throw refuse("it belongs to another user: give a directory of your own") }
        if info.st_mode & S_ISVTX != 0 || info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            throw refuse("it is shared (sticky, or writable by others): give a directory of your own")
        }
    }

    /// Sets a path's permission bits (`chmod`), whatever the umask was when it was made.
    static func setMode(_ path: String, _ mode: mode_t) throws(FileError) {
        guard chmod(path, mode) == 0 else { throw FileError("chmod", path: path) }
    }

    /// The permission bits of a path (`stat`).
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The most bytes ``read(_:limit:)`` takes from one file by default: 64 MiB.
    static let defaultReadLimit = 64 * 1024 * 1024

    /// The whole contents of a regular file (`open`, `fstat`, `read`), or `nil` when it
    /// does not exist.
    ///
    /// Opened with `O_NONBLOCK`, so a FIFO or a device where a file belongs cannot make it
    /// wait, and `O_NOFOLLOW`, so a link is never read through (`ELOOP`); checked with
    /// `fstat` to be a regular file before a byte is read; more than `limit` bytes is an
    /// error (`EFBIG`), never an allocation of whatever size a file claims.
    static func read(_ path: String, limit: Int = FileSystem.defaultReadLimit) throws(FileError) -> Data? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw FileError("open", path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError("fstat", path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileError("open", path: path, code: 0, detail: "\(kindName(info.st_mode)), not a regular file")
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError("read", path: path)
            }
            if n == 0 { return data }
            guard data.count + n <= limit else { throw FileError("read", path: path, code: EFBIG) }
            data.append(contentsOf: chunk[0..<n])
        }
    }

    /// What kind of file a mode names, in words.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    /// The names in a directory, without `.` and `..` (`opendir`, `readdir`); empty when
    /// the directory does not exist.
    static func names(in path: String) throws(FileError) -> [String] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw FileError("opendir", path: path)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Points the symbolic link `path` at `target`, replacing it atomically: the link is
    /// made in `temporaryDirectory` (`symlink`) and renamed over `path`. Not synced: used
    /// for hints that are checked before use.
    static func replaceLink(_ path: String, to target: String, temporaryDirectory: String) throws(FileError) {
        let temporary = "\(temporaryDirectory)/\(getpid())-\(UInt64.random(in: 0...UInt64.max)).link"
        guard symlink(target, temporary) == 0 else { throw FileError("symlink", path: temporary) }
        do throws(FileError) {
            try rename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The target of a symbolic link (`readlink`), or `nil`.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a file (`unlink`); a missing file is not an error.
    static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileError("unlink", path: path) }
    }

    /// Renames a file (`rename`).
    static func rename(_ from: String, to: String) throws(FileError) {
        guard Glibc.rename(from, to) == 0 else { throw FileError("rename", path: to) }
    }

    /// Flushes a directory's entries to disk (`open`, `fsync`), so that a rename or a new
    /// file in it survives a power failure.
    static func syncDirectory(_ path: String, faults: FaultInjector? = nil) throws(FileError) {
        try check(faults, "fsync", path)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("open", path: path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError("fsync", path: path) }
    }

    /// Replaces `path` with `data`, durably and atomically, with mode 0600.
    ///
    /// Writes a temporary file in `temporaryDirectory` (same file system), `fchmod`s it to
    /// 0600, `fsync`s it, `rename`s it over `path` and `fsync`s the directory. A crash at
    /// any moment leaves either the old file or the new one, never a mixture; a failure
    /// leaves the old file untouched and removes the temporary one.
    ///
    /// With `durable` off, the two `fsync` calls are skipped: for bulk imports that sync
    /// once at the end.
    static func replace(
        _ path: String, with data: Data, temporaryDirectory: String, durable: Bool = true,
        faults: FaultInjector? = nil
    ) throws(FileError) {
        let temporary = "\(temporaryDirectory)/\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError("open", path: temporary) }
        var closed = false
        do throws(FileError) {
            guard fchmod(fd, 0o600) == 0 else { throw FileError("fchmod", path: temporary) }
            try check(faults, "write", path)
            let failed = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return true
                    }
                    offset += n
                }
                return false
            }
            if failed { throw FileError("write", path: temporary) }
            try check(faults, "fsync", path)
            guard !durable || fsync(fd) == 0 else { throw FileError("fsync", path: temporary) }
            closed = true
            guard close(fd) == 0 else { throw FileError("close", path: temporary) }
            try rename(temporary, to: path)
        } catch {
            if !closed { close(fd) }
            unlink(temporary)
            throw error
        }
        if durable {
            try syncDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]), faults: faults)
        }
    }
}
