import Foundation
import Glibc

/// A file draftline writes at a path the user gave (`export FILE`, `--trace-file PATH`):
/// never a file but a regular one, and never inside the data directory, by any spelling
/// (`DATA/../DATA`, a link, a bind mount): the directories up to `/` are compared with it
/// by device and inode.
public struct OutputPath {
    /// The path as given.
    public let path: String
    /// The directory the file is in, opened once.
    let parent: Directory
    /// The file's name in it.
    let name: String

    /// Checks `path` against the data directory at `dataDirectory` (which may not exist
    /// yet: then nothing can be in it; one that cannot be opened refuses the path).
    public init(_ path: String, dataDirectory: String?) throws(OutputPathError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directoryPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard !name.isEmpty, name != ".", name != ".." else {
            throw OutputPathError(path: path, problem: .namesDirectory)
        }
        do {
            parent = try Directory.open(directoryPath, create: false, requirePrivate: false)
        } catch {
            throw OutputPathError(path: path, problem: .failed(error))
        }
        if let dataDirectory, let identity = try Self.identity(ofDataDirectory: dataDirectory, checking: path),
            try parent.isInside(identity)
        {
            throw OutputPathError(path: path, problem: .insideDataDirectory(dataDirectory))
        }
        try checkRegular()
    }

    /// The data directory's device and inode; `nil` only when it is not there (`ENOENT`).
    private static func identity(
        ofDataDirectory dataDirectory: String, checking path: String
    ) throws(OutputPathError) -> FileStatus? {
        do throws(FileError) {
            let data = try Directory.open(dataDirectory, create: false, requirePrivate: false)
            return try data.descriptor.status()
        } catch {
            if error.refusal == nil && error.code == ENOENT { return nil }
            throw OutputPathError(path: path, problem: .unplaceable(error))
        }
    }

    /// Refuses a name that holds something other than a regular file (or that cannot be
    /// looked at).
    private func checkRegular() throws(OutputPathError) {
        let existing: FileStatus?
        do throws(FileError) {
            existing = try parent.status(of: name)
        } catch {
            throw OutputPathError(path: path, problem: .failed(error))
        }
        if let existing, !existing.isRegularFile {
            throw OutputPathError(path: path, problem: .notRegularFile(existing.kind))
        }
    }

    /// Replaces the file with `data`, durably and atomically (``replaceUnnamed(with:)``, else
    /// under a temporary name); once in place, a failed sync of the directory is returned.
    public func replace(with data: Data) throws(OutputPathError) -> FileError? {
        try checkRegular()
        do throws(FileError) {
            if case .replaced(let unconfirmed) = try replaceUnnamed(with: data) { return unconfirmed }
            return try parent.replace(name, with: data, temporary: parent)
        } catch {
            throw OutputPathError(path: path, problem: .failed(error))
        }
    }

    /// Writes `data` into a file without a name (`O_TMPFILE`), syncs it, then names it and
    /// renames it over the destination with the stopping signals held off between the two:
    /// an export killed at any moment leaves nothing beside the destination (a named
    /// temporary file was left for good, up to the history's size).
    func replaceUnnamed(with data: Data) throws(FileError) -> Unnamed {
        let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
        let opened = Syscall.openat(
            parent.descriptor.rawValue, ".", temporaryFile | O_WRONLY | O_CLOEXEC, 0o600, shown: parent.path)
        guard opened >= 0 else {
            if [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) { return .unsupported }
            throw FileError("open", path: parent.path)
        }
        let file = FileDescriptor(rawValue: opened, path: parent.path(of: name))
        defer { file.close() }
        try file.setMode(0o600)
        try file.writeAll(data)
        try file.sync()
        var stops = sigset_t()
        var previous = sigset_t()
        sigemptyset(&stops)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&stops, signal) }
        pthread_sigmask(SIG_BLOCK, &stops, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let made = Directory.temporaryName("tmp")
        guard
            Syscall.linkat(
                AT_FDCWD, "/proc/self/fd/\(opened)", parent.descriptor.rawValue, made, AT_SYMLINK_FOLLOW,
                shown: parent.path(of: made)) == 0
        else {
            if errno == ENOENT { return .unsupported }
            throw FileError("link", path: parent.path(of: made))
        }
        do throws(FileError) {
            try parent.rename(made, to: name)
        } catch {
            try? parent.remove(made)
            throw error
        }
        // In place: a sync of the directory that fails now is said, not thrown.
        do throws(FileError) { try parent.sync() } catch { return .replaced(unconfirmed: error) }
        return .replaced(unconfirmed: nil)
    }

    /// What ``replaceUnnamed(with:)`` did.
    enum Unnamed {
        /// The file system (or `/proc`) makes no file without a name: nothing was left.
        case unsupported
        /// The destination is replaced; the failed sync of its directory when it is not yet
        /// confirmed on disk.
        case replaced(unconfirmed: FileError?)
    }

    /// Opens the file for appending, made 0600 when missing; one with other names is refused
    /// (a hard link could be a file of the data directory).
    func openForAppending() throws(OutputPathError) -> FileDescriptor {
        do throws(FileError) {
            guard let file = try parent.open(name, access: .append, create: .ifMissing) else {
                throw FileError("open", path: path, code: ENOENT)
            }
            if try file.status().links > 1 {
                file.close()
                throw FileError("open", path: path, refusal: .otherNames)
            }
            return file
        } catch {
            throw OutputPathError(path: path, problem: .failed(error))
        }
    }
}

/// Why an output path was refused or could not be written: the path as given and what
/// was wrong with it (the presenter words it).
public struct OutputPathError: Error, Equatable, Sendable {
    /// The path as the user gave it.
    public var path: String
    /// What was wrong.
    public var problem: Problem

    /// What was wrong with an output path.
    public enum Problem: Equatable, Sendable {
        /// The path names a directory (`.`, `..`, a trailing `/`), not a file.
        case namesDirectory
        /// The path is inside the data directory (as given).
        case insideDataDirectory(String)
        /// Something other than a regular file is at the name: it is left as it is.
        case notRegularFile(FileKind)
        /// A call on the file or its directory failed, or refused it.
        case failed(FileError)
        /// Where the file is could not be told: the call that failed going up the
        /// directories, or `nil` when they went on deeper than any real tree.
        case unplaceable(FileError?)
    }
}

extension Directory {
    /// Whether this directory, or any above it (`..` until `/`), is the one `identity` names.
    func isInside(_ identity: FileStatus) throws(OutputPathError) -> Bool {
        var current = descriptor
        var opened: [FileDescriptor] = []
        defer { opened.forEach { $0.close() } }
        var previous: FileStatus?
        for _ in 0..<4096 {
            let status: FileStatus
            do throws(FileError) { status = try current.status() } catch {
                throw OutputPathError(path: path, problem: .unplaceable(error))
            }
            if status.isSameFile(as: identity) { return true }
            if let previous, previous.isSameFile(as: status) { return false }
            previous = status
            let up = Syscall.openat(current.rawValue, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, shown: path + "/..")
            guard up >= 0 else {
                let failure = FileError("open", path: path + "/..")
                throw OutputPathError(path: path, problem: .unplaceable(failure))
            }
            current = FileDescriptor(rawValue: up, path: path + "/..")
            opened.append(current)
        }
        throw OutputPathError(path: path, problem: .unplaceable(nil))
    }
}
