import Glibc

/// An append-only file that other processes follow (the journal, the chat list's index):
/// one `write` an append, never synced; callers serialise appends (the history's lock).
struct LogFile {
    /// The directory the file is in.
    let directory: Directory
    /// The file's name in it.
    let name: String

    /// Where the file is, for messages.
    var path: String { directory.path(of: name) }

    /// Appends `bytes` and returns the file's size then; with `rotation`, a file grown past
    /// its size is renamed to the name it gives. A file that does not end with a newline (a
    /// short write on a full disk) gets one first, so its broken line stays its own.
    @discardableResult
    func append(_ bytes: [UInt8], rotation: (size: Int, to: String)? = nil) throws(FileError) -> Int {
        guard let file = try directory.open(name, access: .readAppend, create: .ifMissing, owned: true) else {
            throw FileError("open", path: path, code: ENOENT)
        }
        return try file.closeAfter { file throws(FileError) in
            var bytes = bytes
            let size = try file.status().size
            if size > 0, try file.read(at: size - 1, upTo: 1) != [0x0A] { bytes.insert(0x0A, at: 0) }
            try file.writeAll(bytes)
            let total = size + bytes.count
            if let rotation, total > rotation.size { try directory.rename(name, to: rotation.to) }
            return total
        }
    }

    /// Opens the file for reading; `nil` when it does not exist or is no regular file. A
    /// call that fails throws: a file that could not be opened is not a file not there.
    func openForReading() throws(FileError) -> FileDescriptor? {
        try FileError.nilUnlessTransient { () throws(FileError) in try directory.open(name, access: .read) }
    }

    /// Whether the file's name still names the file open as `file` (not rotated or removed).
    func isCurrent(_ file: FileDescriptor) throws(FileError) -> Bool {
        let open = try file.status()
        guard let named = try directory.status(of: name) else { return false }
        return open.isSameFile(as: named)
    }
}
