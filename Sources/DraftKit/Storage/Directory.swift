import CFileSystem
import Foundation
import Glibc

/// A directory held open as a descriptor: every file in it is opened, made, renamed,
/// listed and removed relative to that descriptor (`openat`, `mkdirat`, `renameat`,
/// `unlinkat`, `fstatat`, `readlinkat`), so a component of its path swapped for a link
/// while draftline runs is never followed.
///
/// A sub-directory is opened with `O_DIRECTORY | O_NOFOLLOW` and must be a private
/// directory of this user's. The descriptor is closed when the object goes.
final class Directory {
    /// The directory's descriptor.
    let descriptor: FileDescriptor
    /// Its path, for messages only: nothing is opened by it.
    let path: String

    /// Decides whether an operation fails before it runs: `(operation, path)` to an
    /// `errno` value, or 0 to let it run. `nil` in normal use; tests play a full disk.
    typealias FaultInjector = @Sendable (_ operation: String, _ path: String) -> Int32

    private init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        path = descriptor.path
    }

    deinit { descriptor.close() }

    /// The path of `name` in this directory, for messages.
    func path(of name: String) -> String { path + "/" + name }

    // MARK: - Opening directories

    /// Opens the directory at `path` (`open` with `O_DIRECTORY`), making it and its
    /// missing parents with mode 0700 when `create` is set. Links in the path given are
    /// followed (it is the user's to choose); with `requirePrivate` the directory itself
    /// must be private (``checkPrivate()``), checked on the descriptor, not the path.
    static func open(_ path: String, create: Bool, requirePrivate: Bool = true) throws(FileError) -> Directory {
        if create { try makeParents(path) }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOTDIR {
                throw FileError("open", path: path, code: 0, detail: "it is not a directory")
            }
            throw FileError("open", path: path)
        }
        let directory = Directory(descriptor: FileDescriptor(rawValue: fd, path: path))
        if requirePrivate { try directory.checkPrivate() }
        return directory
    }

    /// Makes `path` and its missing parents (`mkdir`, then `chmod` 0700 on each made).
    private static func makeParents(_ path: String) throws(FileError) {
        var info = stat()
        guard stat(path, &info) != 0 else { return }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty, stat(parent, &info) != 0 { try makeParents(parent) }
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else { throw FileError("chmod", path: path) }
        } else if errno != EEXIST {
            throw FileError("mkdir", path: path)
        }
    }

    /// Opens the sub-directory `name` (`openat` with `O_DIRECTORY | O_NOFOLLOW`); `nil`
    /// when it does not exist. A link, a file or a directory that is not privately this
    /// user's is an error.
    func subdirectory(_ name: String) throws(FileError) -> Directory? {
        let fd = openat(descriptor.rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw FileError("open", path: path(of: name), code: 0, detail: "it is a symbolic link")
            case ENOTDIR:
                let kind = status(of: name)?.kindName ?? "not a directory"
                throw FileError("open", path: path(of: name), code: 0, detail: "it is \(kind), not a directory")
            default: throw FileError("open", path: path(of: name))
            }
        }
        let directory = Directory(descriptor: FileDescriptor(rawValue: fd, path: path(of: name)))
        try directory.checkPrivate()
        return directory
    }

    /// Makes the sub-directory `name` with mode 0700 when it is missing (`mkdirat`, then
    /// `fchmod` of what was made), and opens it; `made` says whether it was made.
    func makeSubdirectory(_ name: String) throws(FileError) -> (directory: Directory, made: Bool) {
        var made = false
        if mkdirat(descriptor.rawValue, name, 0o700) == 0 {
            made = true
        } else if errno != EEXIST {
            throw FileError("mkdir", path: path(of: name))
        }
        guard let directory = try subdirectory(name) else {
            throw FileError("open", path: path(of: name), code: ENOENT)
        }
        if made { try directory.descriptor.setMode(0o700) }
        return (directory, made)
    }

    /// Checks that this is a directory of this user's that no one else may write to
    /// (`fstat`): not another user's, not shared (sticky, writable by group or others).
    func checkPrivate() throws(FileError) {
        let info = try descriptor.status()
        func refuse(_ why: String) -> FileError { FileError("open", path: path, code: 0, detail: why) }
        guard info.isDirectory else { throw refuse("it is \(info.kindName), not a directory") }
        if info.owner != geteuid() { throw refuse("it belongs to another user: give a directory of your own") }
        if info.mode & S_ISVTX != 0 || info.mode & (S_IWGRP | S_IWOTH) != 0 {
            throw refuse("it is shared (sticky, or writable by others): give a directory of your own")
        }
    }

    // MARK: - Entries

    /// What is at `name`, a link counting as itself (`fstatat` with
    /// `AT_SYMLINK_NOFOLLOW`); `nil` when nothing is.
    func status(of name: String) -> FileStatus? {
        var info = stat()
        guard fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStatus(info)
    }

    /// Whether anything is at `name` (``status(of:)``).
    func exists(_ name: String) -> Bool { status(of: name) != nil }

    /// The names in the directory, without `.` and `..` (`openat` of `.`, `fdopendir`,
    /// `readdir`).
    func names() throws(FileError) -> [String] {
        let fd = openat(descriptor.rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("open", path: path) }
        guard let stream = fdopendir(fd) else {
            let error = FileError("fdopendir", path: path)
            Glibc.close(fd)
            throw error
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Opens the file `name` in this directory through the one open-and-check
    /// (``FileDescriptor/open(_:in:path:access:create:owned:)``).
    func open(
        _ name: String, access: FileDescriptor.Access, create: FileDescriptor.Creation = .never, owned: Bool = false
    ) throws(FileError) -> FileDescriptor? {
        try FileDescriptor.open(
            name, in: descriptor, path: path(of: name), access: access, create: create, owned: owned)
    }

    /// The most bytes ``read(_:limit:)`` takes from one file by default: 64 MiB.
    static let defaultReadLimit = 64 * 1024 * 1024

    /// The whole contents of the regular file `name`, or `nil` when it does not exist;
    /// more than `limit` bytes is an error (`EFBIG`).
    func read(_ name: String, limit: Int = Directory.defaultReadLimit) throws(FileError) -> Data? {
        guard let file = try open(name, access: .read) else { return nil }
        return try file.closeAfter { file throws(FileError) in try file.readAll(limit: limit) }
    }

    /// Renames `name` to `newName` in `target` (`renameat`).
    func rename(_ name: String, to newName: String, in target: Directory? = nil) throws(FileError) {
        let target = target ?? self
        guard renameat(descriptor.rawValue, name, target.descriptor.rawValue, newName) == 0 else {
            throw FileError("rename", path: target.path(of: newName))
        }
    }

    /// Removes the file `name` (`unlinkat`); a missing file is not an error.
    func remove(_ name: String) throws(FileError) {
        guard unlinkat(descriptor.rawValue, name, 0) == 0 || errno == ENOENT else {
            throw FileError("unlink", path: path(of: name))
        }
    }

    /// The target of the symbolic link `name` (`readlinkat`), or `nil`.
    func linkTarget(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlinkat(descriptor.rawValue, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Points the symbolic link `name` at `target`, atomically: made in `temporary`
    /// (`symlinkat`) and renamed over `name`. Not synced: used for hints checked before use.
    func replaceLink(_ name: String, to target: String, temporary: Directory) throws(FileError) {
        let made = Self.temporaryName("link")
        guard symlinkat(target, temporary.descriptor.rawValue, made) == 0 else {
            throw FileError("symlink", path: temporary.path(of: made))
        }
        do throws(FileError) {
            try temporary.rename(made, to: name, in: self)
        } catch {
            try? temporary.remove(made)
            throw error
        }
    }

    /// Flushes the directory's entries to disk (`fsync`), so a rename or a new file in it
    /// survives a power failure.
    func sync(faults: FaultInjector? = nil) throws(FileError) {
        try Self.check(faults, "fsync", path)
        try descriptor.sync()
    }

    /// Commits everything written to the file system this directory is on (`syncfs`),
    /// rather than every file system of the machine (`sync`).
    func syncFileSystem() throws(FileError) {
        guard dl_syncfs(descriptor.rawValue) == 0 else { throw FileError("syncfs", path: path) }
    }

    // MARK: - Replacing files

    /// Replaces `name` with `data`, durably and atomically, with mode 0600.
    ///
    /// Writes a new file in `temporary` (same file system), `fchmod`s it to 0600,
    /// `fsync`s it, renames it over `name` and `fsync`s this directory. A crash at any
    /// moment leaves the old file or the new one, never a mixture; a failure leaves the
    /// old file untouched and removes the temporary one. With `durable` off the two
    /// `fsync` calls are skipped: for caches and for bulk imports that sync once at the
    /// end.
    func replace(
        _ name: String, with data: Data, temporary: Directory, durable: Bool = true, faults: FaultInjector? = nil
    ) throws(FileError) {
        var ignored = AppendTimings()
        try replace(name, with: data, temporary: temporary, durable: durable, faults: faults, timings: &ignored)
    }

    /// Replaces `name` with `data` (``replace(_:with:temporary:durable:faults:)``), adding
    /// the time of each step to `timings`.
    func replace(
        _ name: String, with data: some ContiguousBytes, temporary: Directory, durable: Bool, faults: FaultInjector?,
        timings: inout AppendTimings
    ) throws(FileError) {
        let made = Self.temporaryName("tmp")
        let opened = try timings.measure(\.create) { () throws(FileError) in
            try temporary.open(made, access: .write, create: .new)
        }
        guard let file = opened else { throw FileError("open", path: temporary.path(of: made), code: ENOENT) }
        var closed = false
        do throws(FileError) {
            try timings.measure(\.create) { () throws(FileError) in try file.setMode(0o600) }
            try timings.measure(\.write) { () throws(FileError) in
                try Self.check(faults, "write", path(of: name))
                try file.writeAll(data)
            }
            try timings.measure(\.sync) { () throws(FileError) in
                try Self.check(faults, "fsync", path(of: name))
                if durable { try file.sync() }
            }
            closed = true
            try timings.measure(\.create) { () throws(FileError) in try file.closeChecked() }
            try timings.measure(\.rename) { () throws(FileError) in try temporary.rename(made, to: name, in: self) }
        } catch {
            if !closed { file.close() }
            try? temporary.remove(made)
            throw error
        }
        if durable { try timings.measure(\.rename) { () throws(FileError) in try sync(faults: faults) } }
    }

    /// A name no other process picks: the process ID and 64 random bits.
    static func temporaryName(_ suffix: String) -> String {
        "\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(suffix)"
    }

    private static func check(_ faults: FaultInjector?, _ operation: String, _ path: String) throws(FileError) {
        if let code = faults?(operation, path), code != 0 { throw FileError(operation, path: path, code: code) }
    }
}
