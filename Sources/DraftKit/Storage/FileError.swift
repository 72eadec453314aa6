import Glibc

/// A file-system call that failed, or a file refused before it was used: which call, on
/// which path, and why — the `errno` the call set, or what was wrong with the file
/// (``Refusal``). Data only: the presenter words it.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, named as the C function (`open`, `fsync`, `rename`), or the
    /// step that refused the file (`open` for a file of the wrong kind, `encode`).
    public var operation: String
    /// The path it was called on.
    public var path: String
    /// The `errno` value; 0 when ``refusal`` says why instead.
    public var code: Int32
    /// What was wrong with the file, when no call failed.
    public var refusal: Refusal?

    /// Why a file was refused though every call succeeded.
    public enum Refusal: Equatable, Sendable {
        /// A symbolic link where a file or directory belongs: never followed.
        case symbolicLink
        /// A file of another kind where a regular file belongs.
        case notRegularFile(FileKind)
        /// A file of another kind where a directory belongs.
        case notDirectory(FileKind)
        /// Another user's file or directory.
        case anotherUsers
        /// A directory others may write to (sticky, or writable by group or others).
        case shared
        /// A file with other names (hard links), not written through.
        case otherNames
        /// More bytes than the most that is read of such a file.
        case tooLarge(limit: Int)
        /// What was to be written could not be encoded.
        case unencodable
        /// The file is there but does not hold what it must (it does not parse): it is left
        /// as it is.
        case doesNotParse
        /// A lock that stayed held past the wait's limit, and who held it (``FileLock``).
        case lockHeld(LockWait)
    }

    /// A failed call: `code` is the `errno` it set (by default, `errno` now).
    public init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
        refusal = nil
    }

    /// A refused file.
    public init(_ operation: String, path: String, refusal: Refusal) {
        self.operation = operation
        self.path = path
        code = 0
        self.refusal = refusal
    }

    /// Whether the call failed for a reason that may pass (a device error, a full disk, a
    /// signal, no descriptors left), rather than because of what the file is: a refusal,
    /// or a file that is not what its name says.
    public var isTransient: Bool {
        if case .lockHeld = refusal { return true }
        return refusal == nil && ![ELOOP, ENOTDIR, EISDIR, EFBIG].contains(code)
    }

    /// Whether the call was refused because the file system or the directory is not
    /// writable here (read-only, no permission).
    public var isReadOnly: Bool { refusal == nil && [EROFS, EACCES, EPERM].contains(code) }

    /// `body`'s result, or `nil` when it fails for what the file is (not ``isTransient``):
    /// such a file reads as missing, while a call that failed is still an error.
    static func nilUnlessTransient<T>(_ body: () throws(FileError) -> T?) throws(FileError) -> T? {
        do throws(FileError) { return try body() } catch {
            if error.isTransient { throw error }
            return nil
        }
    }

    /// For debugging only (the presenter words errors): the call, the path, and the
    /// C library's reason or the refusal's case.
    public var description: String {
        "\(operation) \(path): " + (refusal.map { "\($0)" } ?? String(cString: strerror(code)))
    }
}

/// What kind of file a path names (from `st_mode`).
public enum FileKind: Equatable, Sendable {
    case regularFile, directory, fifo, device, socket, symbolicLink, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR, S_IFBLK: self = .device
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }
}
