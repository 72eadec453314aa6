import Foundation
import Glibc

/// An open file descriptor: a small value over the `Int32` the kernel gave, in the manner
/// of swift-system's `FileDescriptor`.
///
/// Each method wraps one C call, named in its summary, made through ``Syscall`` (so a
/// ``FaultPlan`` can fail it), and throws a ``FileError`` that carries the call, the path
/// and `errno`. The value does not close itself: its owner calls ``close()`` once, or
/// scopes it with ``closeAfter(_:)``.
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

    /// Opens `name` relative to `directory` (`openat`; an absolute or relative path when
    /// `directory` is `nil`), never through a link, never waiting on a FIFO or a device,
    /// and checks with `fstat` that it is a regular file, of this user's when it is ours to
    /// write: the one open-and-check of every file draftline reads or writes.
    ///
    /// `O_NOFOLLOW` makes a link in the last component an error (`ELOOP`), `O_NONBLOCK`
    /// keeps a FIFO from blocking the open, `O_NOCTTY` keeps a terminal from becoming the
    /// controlling one, `O_CLOEXEC` keeps the descriptor from a child. With `create` set,
    /// a missing file is made with mode 0600 (`O_CREAT`, and `O_EXCL` when `create` is
    /// `.new`). Returns `nil` when the file does not exist and none was to be made.
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

    /// Reads up to `count` bytes at the current offset (`read`, again after `EINTR`); an
    /// empty result is the end of the file. Any other failure (`EAGAIN` included) throws.
    func read(upTo count: Int) throws(FileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { Syscall.read(rawValue, $0.baseAddress, count, shown: path) }
        guard n >= 0 else { throw FileError("read", path: path) }
        return Array(buffer[0..<n])
    }

    /// Reads up to `count` bytes at `offset` without moving the file's offset (`pread`,
    /// again after `EINTR`), fewer only at the end of the file.
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

    /// The rest of the file (`read` until it returns nothing), at most `limit` bytes: more
    /// is refused (``FileError/Refusal/tooLarge(limit:)``), never an allocation of whatever
    /// size a file claims. A short read is read on from; a failed one throws.
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

    /// Writes every byte (`write`, again after `EINTR` and after a short write), or throws
    /// with the `errno` of the write that failed.
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

    /// Flushes the file's data, and the metadata needed to read it back (its size), to the
    /// disk (`fdatasync`): what an append must have there before it is acknowledged.
    func syncData() throws(FileError) {
        guard Syscall.fdatasync(rawValue, shown: path) == 0 else { throw FileError("fdatasync", path: path) }
    }

    /// Cuts the file back to `size` bytes (`ftruncate`).
    func truncate(to size: Int) throws(FileError) {
        guard Syscall.ftruncate(rawValue, size, shown: path) == 0 else { throw FileError("ftruncate", path: path) }
    }

    /// Sets the permission bits, whatever the umask was when the file was made (`fchmod`).
    func setMode(_ mode: mode_t) throws(FileError) {
        guard Syscall.fchmod(rawValue, mode, shown: path) == 0 else { throw FileError("fchmod", path: path) }
    }

    /// Closes the descriptor (`close`). A failure is ignored here: after `close` the number
    /// is free whatever it returned; a writer that must know calls ``closeChecked()``.
    func close() { _ = Syscall.close(rawValue, shown: path) }

    /// Closes the descriptor (`close`) and says whether the kernel reported a deferred
    /// write error. `EINTR` is none: on Linux the descriptor is closed, and the data went
    /// where a write put it.
    func closeChecked() throws(FileError) {
        guard Syscall.close(rawValue, shown: path) == 0 || errno == EINTR else { throw FileError("close", path: path) }
    }

    /// Takes or drops an advisory lock on the file (`flock`, again after `EINTR`):
    /// `LOCK_EX`, `LOCK_SH`, `LOCK_UN`, with `LOCK_NB` not to wait. `false` when `LOCK_NB`
    /// was given and another process holds the lock.
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
