import Foundation
import Glibc

/// An open file descriptor, in the manner of swift-system's: each method one C call through
/// ``Syscall``, throwing a ``FileError``. It does not close itself: its owner calls
/// ``close()`` once, or scopes it with ``closeAfter(_:)``.
struct FileDescriptor: Equatable, Sendable {
    /// The kernel's number for the open file.
    let rawValue: Int32
    /// The path it was opened by, for error messages.
    let path: String

    /// How a file is opened for ``open(_:in:path:access:create:)``.
    enum Access {
        case read
        case write
        /// Writes go to the end (`O_APPEND`).
        case append
        /// Writes go to the end, and the file can be read too.
        case readAppend
        case readWrite
    }

    /// Opens `name` relative to `directory` (a path when `nil`), never through a link, never
    /// waiting on a FIFO, and checks that it is a regular file (of this user's, when `owned`):
    /// the one open-and-check of every file draftline reads or writes. `nil` when the file
    /// does not exist and none was to be made (0600).
    static func open(
        _ name: String, in directory: FileDescriptor? = nil, path: String? = nil, access: Access,
        create: Creation = .never, owned: Bool = false
    ) throws(FileError) -> FileDescriptor? {
        let shown = path ?? name
        var flags = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        switch access {
        case .read: flags |= O_RDONLY
        case .write: flags |= O_WRONLY
        case .append: flags |= O_WRONLY | O_APPEND
        case .readAppend: flags |= O_RDWR | O_APPEND
        case .readWrite: flags |= O_RDWR
        }
        switch create {
        case .never: break
        case .ifMissing: flags |= O_CREAT
        case .new: flags |= O_CREAT | O_EXCL
        }
        let fd = Syscall.openat(directory?.rawValue ?? AT_FDCWD, name, flags, 0o600, shown: shown)
        guard fd >= 0 else {
            if errno == ENOENT && create == .never { return nil }
            if errno == ELOOP { throw FileError("open", path: shown, refusal: .symbolicLink) }
            throw FileError("open", path: shown)
        }
        let file = FileDescriptor(rawValue: fd, path: shown)
        do throws(FileError) {
            let info = try file.status()
            guard info.isRegularFile else { throw FileError("open", path: shown, refusal: .notRegularFile(info.kind)) }
            if owned && info.owner != geteuid() { throw FileError("open", path: shown, refusal: .anotherUsers) }
        } catch {
            file.close()
            throw error
        }
        return file
    }

    /// Whether ``open(_:in:path:access:create:owned:)`` makes a missing file.
    enum Creation {
        /// Never: a missing file is `nil`.
        case never
        /// When it is missing (`O_CREAT`).
        case ifMissing
        /// Always, and it must not exist yet (`O_CREAT | O_EXCL`).
        case new
    }

    /// What `fstat` says of the open file.
    func status() throws(FileError) -> FileStatus {
        var info = stat()
        guard Syscall.fstat(rawValue, &info, shown: path) == 0 else { throw FileError("fstat", path: path) }
        return FileStatus(info)
    }

    /// Reads up to `count` bytes at the current offset; empty at the end of the file.
    func read(upTo count: Int) throws(FileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { Syscall.read(rawValue, $0.baseAddress, count, shown: path) }
        guard n >= 0 else { throw FileError("read", path: path) }
        return Array(buffer[0..<n])
    }

    /// Reads up to `count` bytes at `offset` (`pread`), fewer only at the end of the file.
    func read(at offset: Int, upTo count: Int) throws(FileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes {
                Syscall.pread(rawValue, $0.baseAddress! + filled, count - filled, offset + filled, shown: path)
            }
            if n < 0 { throw FileError("pread", path: path) }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[0..<filled])
    }

    /// The rest of the file, at most `limit` bytes (more is refused, never allocated).
    func readAll(limit: Int) throws(FileError) -> Data {
        var data = Data()
        while true {
            let chunk = try read(upTo: 64 * 1024)
            if chunk.isEmpty { return data }
            guard data.count + chunk.count <= limit else {
                throw FileError("read", path: path, refusal: .tooLarge(limit: limit))
            }
            data.append(contentsOf: chunk)
        }
    }

    /// Writes every byte, again after a short write.
    func writeAll<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(FileError) {
        let failed = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let n = Syscall.write(rawValue, base + offset, buffer.count - offset, shown: path)
                if n < 0 { return errno }
                offset += n
            }
            return nil
        }
        if let failed { throw FileError("write", path: path, code: failed) }
    }

    /// Flushes the file's data and metadata to the disk (`fsync`).
    func sync() throws(FileError) {
        guard Syscall.fsync(rawValue, shown: path) == 0 else { throw FileError("fsync", path: path) }
    }

    /// Flushes the file's data and its size to the disk (`fdatasync`).
    func syncData() throws(FileError) {
        guard Syscall.fdatasync(rawValue, shown: path) == 0 else { throw FileError("fdatasync", path: path) }
    }

    /// Cuts the file back to `size` bytes (`ftruncate`).
    func truncate(to size: Int) throws(FileError) {
        guard Syscall.ftruncate(rawValue, size, shown: path) == 0 else { throw FileError("ftruncate", path: path) }
    }

    /// Sets the permission bits, whatever the umask (`fchmod`).
    func setMode(_ mode: mode_t) throws(FileError) {
        guard Syscall.fchmod(rawValue, mode, shown: path) == 0 else { throw FileError("fchmod", path: path) }
    }

    /// Closes the descriptor, ignoring a failure (``closeChecked()`` does not).
    func close() { _ = Syscall.close(rawValue, shown: path) }

    /// Closes the descriptor, throwing a deferred write error (`EINTR` is none on Linux).
    func closeChecked() throws(FileError) {
        guard Syscall.close(rawValue, shown: path) == 0 || errno == EINTR else { throw FileError("close", path: path) }
    }

    /// Takes or drops an advisory lock (`flock`); `false` when `LOCK_NB` was given and
    /// another process holds it.
    @discardableResult
    func lock(_ operation: Int32) throws(FileError) -> Bool {
        guard Syscall.flock(rawValue, operation, shown: path) == 0 else {
            if errno == EWOULDBLOCK && operation & LOCK_NB != 0 { return false }
            throw FileError("flock", path: path)
        }
        return true
    }

    /// Runs `body` with the descriptor, then closes it whatever happened.
    func closeAfter<T>(_ body: (FileDescriptor) throws(FileError) -> T) throws(FileError) -> T {
        defer { close() }
        return try body(self)
    }
}

/// What `fstat` or `fstatat` said of a file.
struct FileStatus: Equatable, Sendable {
    let mode: mode_t
    let owner: uid_t
    let device: UInt64
    let inode: UInt64
    let size: Int
    let links: Int
    /// The last change of the contents, in nanoseconds since 1970.
    let modified: Int64
    /// The last change of the contents or the status (a rename), likewise.
    let changed: Int64

    init(_ info: stat) {
        mode = info.st_mode
        owner = info.st_uid
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        links = Int(info.st_nlink)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    /// What kind of file it is.
    var kind: FileKind { FileKind(mode: mode) }

    /// Whether two statuses name one file (device and inode).
    func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}
