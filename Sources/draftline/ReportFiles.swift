import DraftKit
import DraftlineREPL
import Foundation

/// `--report tap|junit FILE` and `--record FILE`: each file checked when draftline starts,
/// as the trace file is (never inside the data directory, never anything but a regular
/// file), and written when the run ends, whole (replaced atomically, mode 0600).
struct ReportFiles {
    private let files: [(file: Options.ReportFile, output: OutputPath)]
    /// Where the session's script goes (`--record`).
    private let record: OutputPath?

    /// Checks each path; the error says which cannot be written and why.
    init(_ files: [Options.ReportFile], record: String? = nil, dataDirectory: String?) throws(UsageError) {
        do throws(OutputPathError) {
            self.record = try record.map { path throws(OutputPathError) in
                try OutputPath(path, dataDirectory: dataDirectory)
            }
        } catch {
            throw UsageError(Presenter.describe(.outputUnusable(what: "record", error)))
        }
        var checked: [(Options.ReportFile, OutputPath)] = []
        for file in files {
            do throws(OutputPathError) {
                checked.append((file, try OutputPath(file.path, dataDirectory: dataDirectory)))
            } catch {
                throw UsageError(Presenter.describe(.outputUnusable(what: "\(file.format.rawValue) report", error)))
            }
        }
        self.files = checked
    }

    /// Whether the session is recorded (`--record`).
    var recording: Bool { record != nil }

    /// Writes the recorded script; returns whether it was written.
    func write(record script: String) -> Bool {
        record.map { Self.write(script, to: $0, what: "record") } ?? true
    }

    /// Writes every report of `results`, dated `time`; returns whether all were written.
    func write(_ results: ScriptResults, at time: Date) -> Bool {
        var written = true
        for (file, output) in files {
            let text: String
            switch file.format {
            case .tap: text = results.tap()
            case .junit:
                let name = URL(fileURLWithPath: file.path).deletingPathExtension().lastPathComponent
                text = results.junit(suite: name.isEmpty ? "draftline" : name, timestamp: time)
            }
            written = Self.write(text, to: output, what: "\(file.format.rawValue) report") && written
        }
        return written
    }

    /// Writes one file, saying in one line when it could not be, or when it is in place but
    /// its directory's sync failed (written, not yet confirmed on disk: a power cut now could
    /// lose it).
    private static func write(_ text: String, to output: OutputPath, what: String) -> Bool {
        do throws(OutputPathError) {
            if let unconfirmed = try output.replace(with: Data(text.utf8)) {
                Console.write(Presenter.describe(.outputNotConfirmed(what: what, unconfirmed)) + "\n", to: .error)
            }
            return true
        } catch {
            Console.write("draftline: \(Presenter.describe(.outputNotWritten(what: what, error)))\n", to: .error)
            return false
        }
    }
}
