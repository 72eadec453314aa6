import DraftKit
import DraftlineREPL
import Glibc
import LineEditor

/// Where draftline's lines go: through the line editor's one output path. While a line
/// is being read, they are printed above it and the line is redrawn.
///
/// One console is made when draftline starts and handed to what prints (the terminal and
/// pipe loops, the live feed, the tour); it knows its editor because it was given it, not
/// by looking one up.
final class Console {
    enum Stream {
        case output, error
    }

    /// A text style, written as an SGR escape sequence when colour is on.
    enum Style: String {
        case error = "31"
        case warning = "33"
        case dim = "2"
        case narration = "36"
    }

    /// Whether styles are written: only on a terminal that takes escape sequences, and
    /// never with `NO_COLOR` set (https://no-color.org).
    let colour: Bool
    /// Whether draftline runs on a terminal: its own lines fit the terminal's width even
    /// before an editor reads (what starting said).
    let terminal: Bool
    /// The editor reading lines, on a terminal.
    private(set) weak var editor: LineEditor?

    /// Colour is wanted when standard output and error are a terminal, `NO_COLOR` is unset
    /// or empty, and the terminal is not a dumb one (`TERM` unset, `dumb`).
    init(environment: [String: String], terminal: Bool) {
        let term = environment["TERM"] ?? ""
        colour =
            terminal && isatty(2) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && !term.isEmpty && term != "dumb"
        self.terminal = terminal
    }

    /// From now on, output goes through this editor (above its line while it reads one).
    func attach(_ editor: LineEditor) { self.editor = editor }

    /// Text in a style, when colour is on.
    private func styled(_ text: String, _ style: Style?) -> String {
        guard colour, editor?.hasCursorMotion ?? true, let style else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    /// Writes text (a newline at its end stays outside the style), above the edit line
    /// while one is being read.
    func write(_ text: String, to stream: Stream, style: Style? = nil) {
        var body = Substring(text)
        let newline = body.last == "\n"
        if newline { body = body.dropLast() }
        let text = styled(String(body), style) + (newline ? "\n" : "")
        if let editor, editor.isReading {
            editor.printAbove(text, toError: stream == .error)
        } else {
            LineEditor.write(text, toError: stream == .error)
        }
    }

    /// Writes text, with no editor and no style: for what draftline says before (or
    /// instead of) running the REPL.
    static func write(_ text: String, to stream: Stream) {
        LineEditor.write(text, toError: stream == .error)
    }

    /// A line as printed: on a terminal, draftline's own lines (what it says: trace lines,
    /// notices, warnings, errors) broken at blanks to the terminal's width, its last column
    /// left free, the rows after the first indented by two, so no word is cut where the
    /// terminal wraps. A line that starts with a blank (a chat's message, a row of the
    /// draft map or a profile, already laid out in columns), a line of several lines, a
    /// line holding a word wider than the terminal, and everything on a pipe, as they are.
    private func wrapped(_ line: OutputLine) -> [String] {
        let text = line.description
        // A word wider than the terminal is cut by it wherever the breaks go: such a line
        // is left whole, as one piece of text to copy.
        guard let width = terminalWidth, text.count > width, text.first != " ", !text.contains("\n"),
            !text.split(separator: " ").contains(where: { $0.count > width - 2 })
        else { return [text] }
        return Presenter.wrap(text, width: width, hanging: 2)
    }

    /// The columns draftline's own lines may take on a terminal (its width less the last
    /// column: the editor's, or before there is one, the terminal's); `nil` on a pipe.
    var terminalWidth: Int? {
        if let editor { return editor.columns - 1 }
        var size = winsize()
        guard terminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 1 else { return nil }
        return Int(size.ws_col) - 1
    }

    /// Prints lines: information to standard output, warnings and errors to standard
    /// error, in order. Consecutive lines for one stream go out as one write, so above
    /// the edit line they are printed together and the line is redrawn once.
    func show(_ lines: [OutputLine]) {
        var batch = ""
        var batchStream = Stream.output
        for line in lines {
            let stream: Stream = line.kind == .info ? .output : .error
            if stream != batchStream && !batch.isEmpty {
                write(batch, to: batchStream)
                batch = ""
            }
            batchStream = stream
            let style: Style? =
                switch line.kind {
                case .info: line.text.hasPrefix("trace: ") ? .dim : nil
                case .warning: .warning
                case .error: .error
                }
            for row in wrapped(line) { batch += styled(row, style) + "\n" }
        }
        if !batch.isEmpty { write(batch, to: batchStream) }
    }
}
