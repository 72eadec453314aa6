import DraftKit
import DraftlineREPL
import Glibc

/// `--trace-file`: every draft and message event appended to a file, one line each.
///
/// The file holds draft text: that is the user's choice in asking for it. It is opened
/// once, without following a link or waiting on a FIFO (`O_NOFOLLOW`, `O_NONBLOCK`), must
/// be a regular file, is made 0600 when new, and each line goes out with one `write`.
final class TraceFile {
    private let descriptor: Int32
    private let format: TraceFormat

    /// Opens (or makes) the file; the error says why it cannot be written.
    init(path: String, format: TraceFormat) throws(UsageError) {
        self.format = format
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            throw UsageError("cannot write the trace file '\(path)': \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw UsageError("cannot write the trace file '\(path)': it is not a regular file")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Appends the lines for these reports.
    func record(_ reports: [Report], session: Session) {
        for line in format.lines(for: reports, time: session.clock(), screen: session.screenName) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
