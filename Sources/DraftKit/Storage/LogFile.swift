import Glibc

/// An append-only file in a directory that other processes follow: the journal and the
/// chat list's index.
///
/// Appends go out in one `write` each, so a reader never sees half a line of one process
/// and half of another's. Not synced: a log is a notification or a cache, not data.
/// Callers serialise appends (the history's lock).
struct LogFile {
    /// The directory the file is in.
    let directory: Directory
    /// The file's name in it.
    let name: String

    /// Where the file is, for messages.
    var path: String { directory.path(of: name) }

    /// Appends `bytes` with one `write` and returns the file's size then; with
    /// `rotation`, a file grown past its size is renamed (`renameat`) to the name it gives,
    /// so the next append starts a new one.
    ///
    /// The file is made 0600 when missing; a link, a FIFO or another user's file is
    /// refused. A file that does not end with a newline (a short write on a full disk, an
    /// edit by hand) gets one first, so its broken last line stays a line of its own.
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

    /// Opens the file for reading, when it exists and is a regular file; `nil` when it
    /// does not exist or is something else (a FIFO, a link: never read). A call that fails
    /// throws: a file that could not be opened is not a file that is not there.
    func openForReading() throws(FileError) -> FileDescriptor? {
        do throws(FileError) {
            return try directory.open(name, access: .read)
        } catch {
            if error.isTransient { throw error }
            return nil
        }
    }

    /// Whether the file's name still names the file open as `file` (same device and
    /// inode): `false` once it was rotated, replaced or removed. A look that fails throws.
    func isCurrent(_ file: FileDescriptor) throws(FileError) -> Bool {
        let open = try file.status()
        guard let named = try directory.status(of: name) else { return false }
        return open.isSameFile(as: named)
    }
}
