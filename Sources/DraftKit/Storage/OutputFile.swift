/// A file outside the data directory that lines are appended to (`--trace-file`), open
/// for as long as the object lives.
///
/// Opened through ``OutputPath`` (never inside the data directory, never a FIFO, a device,
/// a link or a file with other names), made 0600 when new; each line goes out with one
/// `write`.
public final class OutputFile {
    private let file: FileDescriptor
    /// The path as given.
    public let path: String

    /// Opens (or makes) the file at `path`, checked against the data directory.
    public init(appendingTo path: String, dataDirectory: String?) throws(OutputPathError) {
        self.path = path
        file = try OutputPath(path, dataDirectory: dataDirectory).openForAppending()
    }

    deinit { file.close() }

    /// Appends `text` with one `write`; the error carries `errno` (a full disk: `ENOSPC`).
    public func append(_ text: String) throws(OutputPathError) {
        do {
            try file.writeAll(Array(text.utf8))
        } catch {
            throw OutputPathError(path: path, problem: .failed(error))
        }
    }
}
