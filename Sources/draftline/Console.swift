import DraftKit
import DraftlineREPL
import LineEditor

/// Where draftline's lines go: through the line editor's one output path. While a line
/// is being read, they are printed above it and the line is redrawn.
enum Console {
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

    /// Colour only on a terminal, and never with `NO_COLOR` set (https://no-color.org).
    nonisolated(unsafe) static var colour: Bool = false
    /// The editor reading lines, on a terminal.
    nonisolated(unsafe) static weak var editor: LineEditor?

    static func decideColour(environment: [String: String], terminal: Bool) {
        colour = terminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Text in a style, when colour is on.
    private static func styled(_ text: String, _ style: Style?) -> String {
        guard colour, let style else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }

    /// Writes text (a newline at its end stays outside the style), above the edit line
    /// while one is being read.
    static func write(_ text: String, to stream: Stream, style: Style? = nil) {
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

    /// Prints lines: information to standard output, warnings and errors to standard
    /// error, in order. Consecutive lines for one stream go out as one write, so above
    /// the edit line they are printed together and the line is redrawn once.
    static func show(_ lines: [OutputLine]) {
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
            batch += styled(line.description, style) + "\n"
        }
        if !batch.isEmpty { write(batch, to: batchStream) }
    }
}
