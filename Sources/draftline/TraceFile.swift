import DraftKit
import DraftlineREPL

/// `--trace-file`: every draft and message event appended to a file, one line each.
///
/// The file holds draft text: that is the user's choice in asking for it. It is opened
/// once (``OutputFile``: never inside the data directory, never through a link, a FIFO or
/// a device, made 0600 when new), and each line goes out with one `write`. A write that
/// fails is said once, on standard error, with the reason; the lines after it are tried
/// again, and a later failure after a success is said again.
final class TraceFile {
    private let file: OutputFile
    private let format: TraceFormat
    /// Whether the last write failed (and was said).
    private var failing = false

    /// Opens (or makes) the file; the error says why it cannot be written.
    init(path: String, format: TraceFormat, dataDirectory: String?) throws(UsageError) {
        self.format = format
        do throws(OutputPathError) {
            file = try OutputFile(appendingTo: path, dataDirectory: dataDirectory)
        } catch {
            throw UsageError(Presenter.describe(.outputUnusable(what: "trace file", error)))
        }
    }

    /// Appends the lines for these reports.
    func record(_ reports: [Report], session: Session) {
        for line in format.lines(for: reports, time: session.clock(), screen: session.screenName) {
            do throws(OutputPathError) {
                try file.append(line + "\n")
                failing = false
            } catch {
                if !failing {
                    Console.write("draftline: \(Presenter.describe(.traceNotWritten(error)))\n", to: .error)
                }
                failing = true
            }
        }
    }
}
