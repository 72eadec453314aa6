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

    static func write(_ text: String, to stream: Stream, style: Style? = nil) {
        var body = Substring(text)
        let newline = body.last == "\n"
        if newline { body = body.dropLast() }
        let styled =
            (colour && style != nil ? "\u{1B}[\(style!.rawValue)m\(body)\u{1B}[0m" : String(body))
            + (newline ? "\n" : "")
        if let editor, editor.isReading {
            editor.printAbove(styled, toError: stream == .error)
        } else {
            LineEditor.write(styled, toError: stream == .error)
        }
    }

    /// Prints lines: information to standard output, warnings and errors to standard
    /// error, in order.
    static func show(_ lines: [OutputLine]) {
        for line in lines {
            switch line.kind {
            case .info:
                write(line.text + "\n", to: .output, style: line.text.hasPrefix("trace: ") ? .dim : nil)
            case .warning:
                write(line.description + "\n", to: .error, style: .warning)
            case .error:
                write(line.description + "\n", to: .error, style: .error)
            }
        }
    }
}
