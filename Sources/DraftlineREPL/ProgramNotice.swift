import DraftKit
import Glibc

/// What the executable itself has to say, as data: its start (the standard descriptors,
/// the identity), the terminal and the pipe, the tour and the files it writes. The words
/// are the presenter's (`Presenter.describe(_:)`).
public enum ProgramNotice: Sendable, Equatable {
    /// Descriptor 0, 1 or 2 was closed and `/dev/null` could not be put there: `call`
    /// (`open`, `dup2`) failed with `code`.
    case descriptorNotOpened(Int32, call: String, code: Int32)
    /// Standard input cannot be used (`fcntl(F_GETFL)` failed with `code`).
    case standardInputUnusable(code: Int32)
    /// Standard input is open for writing only.
    case standardInputWriteOnly
    /// Standard input is a directory.
    case standardInputIsDirectory
    /// `--as` names someone the contacts could not be read to vouch for.
    case contactsUnreadable(GlobalKey, FileError)
    /// `--as` names nobody here: the `first` users' keys, how many there are, and why the
    /// contacts file could not be used, if it could not.
    case noSuchUser(GlobalKey, first: [String], total: Int, problem: ContactsProblem?, dataDirectory: String)
    /// The command line cannot be parsed: why.
    case badCommandLine(String)
    /// The data directory cannot be found, opened or used: why.
    case dataDirectoryUnusable(String)
    /// A piped line over the limit was refused.
    case lineRefused(line: Int, bytes: Int)
    /// `--strict` stopped the run at this line.
    case stoppedAt(line: Int)
    /// A piped line was not valid UTF-8 and was repaired.
    case lineNotUTF8(line: Int)
    /// The locale's character set (`CODESET`) is not UTF-8.
    case localeNotUTF8(codeset: String)
    /// The edit line's history could not be read, or handed to the line editor.
    case lineHistoryNotLoaded(String)
    /// The edit line's history could not be written.
    case lineHistoryNotSaved(StoreError)
    /// The terminal's greeting, for this identity.
    case welcome(GlobalKey)
    /// The signal handlers could not be installed (`sigaction` failed with `code`).
    case signalsNotInstalled(code: Int32)
    /// Keys `~/.editrc` took that could not be bound again to draftline's functions.
    case keysNotBoundAgain([String])
    /// The tour found no scratch directory to make (`mkdtemp`).
    case tourHasNoScratchDirectory
    /// A paste during the tour, which is not used.
    case tourTakesNoPaste
    /// The tour was stopped (Ctrl-C).
    case tourStopped
    /// A chapter of the tour begins.
    case tourChapter(title: String)
    /// The tour ended: `ending` said last, then the other chapters.
    case tourEnded(ending: String, others: [String])
    /// The tour's last line, after its end.
    case tourOver
    /// `--record` on a pipe.
    case recordOnPipe
    /// A file the run writes (the record, a report, the trace file) cannot be.
    case outputUnusable(what: String, OutputPathError)
    /// A file the run wrote is in place but its directory's sync failed.
    case outputNotConfirmed(what: String, FileError)
    /// A file the run writes at its end could not be written.
    case outputNotWritten(what: String, OutputPathError)
    /// The trace file stopped taking lines.
    case traceNotWritten(OutputPathError)
}

extension Presenter {
    /// What a notice of the executable's says, in one line (the welcome in two).
    public static func describe(_ notice: ProgramNotice) -> String {
        func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
        switch notice {
        case .descriptorNotOpened(let descriptor, let call, let code):
            return call == "open"
                ? "descriptor \(descriptor) is closed and /dev/null cannot be opened: \(reason(code))"
                : "descriptor \(descriptor) is closed and cannot be opened on /dev/null: \(reason(code))"
        case .standardInputUnusable(let code): return "standard input cannot be used: \(reason(code))"
        case .standardInputWriteOnly: return "standard input is open for writing only: nothing can be read"
        case .standardInputIsDirectory: return "standard input is a directory: give a file, a pipe or a terminal"
        case .contactsUnreadable(let identity, let failure):
            return "--as '\(identity)': who the users here are is not known: \(describe(failure)); try again"
        case .noSuchUser(let identity, let first, let total, let problem, let path):
            var names = first.joined(separator: ", ")
            if total > first.count { names += " and \(total - first.count) more" }
            let unusable = problem.map { " (\(describe($0)))" } ?? ""
            return "--as '\(identity)': no such user here; the users are \(names)\(unusable). "
                + "To be someone else, add them to \(path)/contacts.plist (an array of {global_key, name})"
        case .badCommandLine(let why): return why + "\n(draftline --help shows the usage)"
        case .dataDirectoryUnusable(let why): return "cannot use the data directory: " + why
        case .lineRefused(let line, let bytes):
            return "line \(line): " + Presenter().describe(.lineTooLong(bytes, setAside: false))
        case .stoppedAt(let line): return "stopped at line \(line) (--strict)"
        case .lineNotUTF8(let line): return "line \(line) is not valid UTF-8: each bad byte was read as U+FFFD"
        case .localeNotUTF8(let codeset):
            return "the locale's character set is \(codeset), not UTF-8: only ASCII can be typed; run with LANG=C.UTF-8"
        case .lineHistoryNotLoaded(let why): return "the edit-line history was not loaded: " + TerminalText.visible(why)
        case .lineHistoryNotSaved(let error):
            return "the edit-line history was not saved: " + TerminalText.visible(describe(error))
        case .welcome(let identity):
            return
                "draftline\(identity == .me ? "" : " (as \(identity))"): each chat keeps your unsent text as its draft.\n"
                + "/help lists commands, /tour shows the flow, Ctrl-D quits."
        case .signalsNotInstalled(let code): return "warning: signal handlers could not be installed: \(reason(code))"
        case .keysNotBoundAgain(let keys):
            return "after ~/.editrc, these keys could not be bound again: "
                + TerminalText.visible(keys.joined(separator: ", "))
        case .tourHasNoScratchDirectory: return "cannot make a scratch directory for the tour"
        case .tourTakesNoPaste: return "the tour does not take a paste: paste once it has ended"
        case .tourStopped: return "tour stopped"
        case .tourChapter(let title): return "── tour: \(title) ──"
        case .tourEnded(let ending, let others):
            return ending + "More chapters: --tour NAME or /tour NAME, with NAME one of "
                + others.joined(separator: ", ") + "."
        case .tourOver: return "── end of the tour ──"
        case .recordOnPipe: return "--record writes a terminal session down; on a pipe the input is the script already"
        case .outputUnusable(let what, let error): return "cannot write the \(what): \(describe(error))"
        case .outputNotConfirmed(let what, let failure):
            return "warning: the \(what) is written, but not yet confirmed on disk: "
                + TerminalText.visible(describe(failure), keepNewlines: false)
        case .outputNotWritten(let what, let error):
            return "the \(what) was not written: " + TerminalText.visible(describe(error), keepNewlines: false)
        case .traceNotWritten(let failure):
            return "warning: the trace file cannot be written: "
                + "\(TerminalText.visible(describe(failure), keepNewlines: false)); its lines are missing"
        }
    }
}
