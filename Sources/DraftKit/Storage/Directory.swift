import CFileSystem
import Foundation
import Glibc

/// A directory held open as a descriptor: every file in it is reached relative to it (the
/// `*at` calls), so a component of its path swapped for a link is never followed.
final class Directory {
    /// The directory's descriptor.
    let descriptor: FileDescriptor
    /// Its path, for messages only: nothing is opened by it.
    let path: String

    private init(descriptor: FileDescriptor) {
        self.descriptor = descriptor
        path = descriptor.path
    }

    deinit { descriptor.close() }

    /// The path of `name` in this directory, for messages.
    func path(of name: String) -> String { path + "/" + name }

    // MARK: - Opening directories

    /// Opens the directory at `path`, made with its missing parents (0700) when `create` is
    /// set. Links in the path are followed: it is the user's to choose.
    static func open(_ path: String, create: Bool, requirePrivate: Bool = true) throws(FileError) -> Directory {
        if create { try makeParents(path) }
        let fd = Syscall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOTDIR {
                var info = stat()
                let kind = Syscall.stat(path, &info) == 0 ? FileKind(mode: info.st_mode) : .other
                throw FileError("open", path: path, refusal: .notDirectory(kind))
            }
            throw FileError("open", path: path)
        }
        let directory = Directory(descriptor: FileDescriptor(rawValue: fd, path: path))
        if requirePrivate { try directory.checkPrivate() }
        return directory
    }

    /// Makes `path` and its missing parents (0700), syncing the directory each was made in,
    /// so a power cut cannot lose a new data directory's name.
    private static func makeParents(_ path: String) throws(FileError) {
        func missing(_ path: String) throws(FileError) -> Bool {
            var info = stat()
            if Syscall.stat(path, &info) == 0 { return false }
            guard errno == ENOENT else { throw FileError("stat", path: path) }
            return true
        }
        guard try missing(path) else { return }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty, try missing(parent) { try makeParents(parent) }
        if Syscall.mkdir(path, 0o700) == 0 {
            guard Syscall.chmod(path, 0o700) == 0 else { throw FileError("chmod", path: path) }
            let made = try open(
                parent.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : parent, create: false,
                requirePrivate: false)
            try made.sync()
        } else if errno != EEXIST {
            throw FileError("mkdir", path: path)
        }
    }

    /// Opens the sub-directory `name`; `nil` when it does not exist. A link, a file or a
    /// directory that is not privately this user's is an error.
    func subdirectory(_ name: String) throws(FileError) -> Directory? {
        let fd = Syscall.openat(
            descriptor.rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0, shown: path(of: name))
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw FileError("open", path: path(of: name), refusal: .symbolicLink)
            case ENOTDIR:
                let kind = (try? status(of: name))??.kind ?? .other
                throw FileError("open", path: path(of: name), refusal: .notDirectory(kind))
            default: throw FileError("open", path: path(of: name))
            }
        }
        let directory = Directory(descriptor: FileDescriptor(rawValue: fd, path: path(of: name)))
        try directory.checkPrivate()
        return directory
    }

    /// Makes the sub-directory `name` (0700) when it is missing, and opens it. A `mkdirat`
    /// refused where it exists already (a read-only file system) is no error.
    func makeSubdirectory(_ name: String) throws(FileError) -> (directory: Directory, made: Bool) {
        var made = false
        if Syscall.mkdirat(descriptor.rawValue, name, 0o700, shown: path(of: name)) == 0 {
            made = true
        } else if errno != EEXIST {
            let failure = FileError("mkdir", path: path(of: name))
            guard let existing = try? subdirectory(name) else { throw failure }
            return (existing, false)
        }
        guard let directory = try subdirectory(name) else {
            throw FileError("open", path: path(of: name), code: ENOENT)
        }
        if made { try directory.descriptor.setMode(0o700) }
        return (directory, made)
    }

    /// Checks that this is a directory of this user's that no one else may write to.
    func checkPrivate() throws(FileError) {
        let info = try descriptor.status()
        guard info.isDirectory else { throw FileError("open", path: path, refusal: .notDirectory(info.kind)) }
        if info.owner != geteuid() { throw FileError("open", path: path, refusal: .anotherUsers) }
        if info.mode & S_ISVTX != 0 || info.mode & (S_IWGRP | S_IWOTH) != 0 {
            throw FileError("open", path: path, refusal: .shared)
        }
    }

    // MARK: - Entries

    /// What is at `name`, a link counting as itself; `nil` only for `ENOENT`.
    func status(of name: String) throws(FileError) -> FileStatus? {
        var info = stat()
        guard Syscall.fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW, shown: path(of: name)) == 0
        else {
            if errno == ENOENT { return nil }
            throw FileError("fstatat", path: path(of: name))
        }
        return FileStatus(info)
    }

    /// Whether anything is at `name`.
    func exists(_ name: String) throws(FileError) -> Bool { try status(of: name) != nil }

    /// The names in the directory, without `.` and `..`: a `readdir` that ends with `errno`
    /// set is an error, never the end of the listing.
    func names() throws(FileError) -> [String] {
        let fd = Syscall.openat(descriptor.rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, shown: path)
        guard fd >= 0 else { throw FileError("open", path: path) }
        guard let stream = Syscall.fdopendir(fd, shown: path) else {
            let error = FileError("fdopendir", path: path)
            _ = Syscall.close(fd, shown: path)
            throw error
        }
        defer { Syscall.closedir(stream, shown: path) }
        var names: [String] = []
        while true {
            guard let name = Syscall.readdir(stream, shown: path) else {
                if errno != 0 { throw FileError("readdir", path: path) }
                return names
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Opens the file `name` in this directory (``FileDescriptor/open(_:in:path:access:create:owned:)``).
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
        guard
            Syscall.renameat(
                descriptor.rawValue, name, target.descriptor.rawValue, newName, shown: target.path(of: newName),
                source: path(of: name)) == 0
        else {
            throw FileError("rename", path: target.path(of: newName))
        }
    }

    /// Removes the file `name` (`unlinkat`); a missing file is not an error.
    func remove(_ name: String) throws(FileError) {
        guard Syscall.unlinkat(descriptor.rawValue, name, 0, shown: path(of: name)) == 0 || errno == ENOENT else {
            throw FileError("unlink", path: path(of: name))
        }
    }

    /// The target of the symbolic link `name`, or `nil`: for hints only (any failure is no link).
    func linkTarget(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = Syscall.readlinkat(descriptor.rawValue, name, &buffer, buffer.count - 1, shown: path(of: name))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Points the symbolic link `name` at `target` atomically (made in `temporary`, renamed);
    /// not synced: for hints.
    func replaceLink(_ name: String, to target: String, temporary: Directory) throws(FileError) {
        let made = Self.temporaryName("link")
        guard Syscall.symlinkat(target, temporary.descriptor.rawValue, made, shown: temporary.path(of: made)) == 0
        else {
            throw FileError("symlink", path: temporary.path(of: made))
        }
        do throws(FileError) {
            try temporary.rename(made, to: name, in: self)
        } catch {
            try? temporary.remove(made)
            throw error
        }
    }

    /// Flushes the directory's entries to disk (`fsync`).
    func sync() throws(FileError) { try descriptor.sync() }

    /// Commits everything written to the file system this directory is on (`syncfs`).
    func syncFileSystem() throws(FileError) {
        guard Syscall.syncfs(descriptor.rawValue, shown: path) == 0 else { throw FileError("syncfs", path: path) }
    }

    // MARK: - Replacing files

    /// Replaces `name` with `data` atomically, mode 0600: written in `temporary`, synced,
    /// renamed over `name`, this directory synced. A failure before the rename leaves the old
    /// file (it throws); once renamed, a failed directory sync is returned, not thrown. With
    /// `durable` off nothing is synced: for caches and bulk imports.
    func replace(
        _ name: String, with data: some ContiguousBytes, temporary: Directory, durable: Bool = true
    ) throws(FileError) -> FileError? {
        var ignored = AppendTimings()
        return try replace(name, with: data, temporary: temporary, durable: durable, timings: &ignored)
    }

    /// ``replace(_:with:temporary:durable:)``, adding the time of each step to `timings`.
    func replace(
        _ name: String, with data: some ContiguousBytes, temporary: Directory, durable: Bool,
        timings: inout AppendTimings
    ) throws(FileError) -> FileError? {
        let made = Self.temporaryName("tmp")
        let opened: FileDescriptor?
        do throws(FileError) {
            opened = try timings.measure(\.create) { () throws(FileError) in
                try temporary.open(made, access: .write, create: .new)
            }
        } catch {
            // Made, then refused (its `fstat` failed): the name is this process's alone.
            try? temporary.remove(made)
            throw error
        }
        guard let file = opened else { throw FileError("open", path: temporary.path(of: made), code: ENOENT) }
        var closed = false
        do throws(FileError) {
            try timings.measure(\.create) { () throws(FileError) in try file.setMode(0o600) }
            try timings.measure(\.write) { () throws(FileError) in try file.writeAll(data) }
            if durable { try timings.measure(\.sync) { () throws(FileError) in try file.sync() } }
            closed = true
            try timings.measure(\.create) { () throws(FileError) in try file.closeChecked() }
            try timings.measure(\.rename) { () throws(FileError) in try temporary.rename(made, to: name, in: self) }
        } catch {
            if !closed { file.close() }
            try? temporary.remove(made)
            throw error
        }
        guard durable else { return nil }
        do throws(FileError) {
            try timings.measure(\.rename) { () throws(FileError) in try sync() }
        } catch {
            return error
        }
        return nil
    }

    /// A name no other process picks: the process ID and 64 random bits.
    static func temporaryName(_ suffix: String) -> String {
        "\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(suffix)"
    }
}
