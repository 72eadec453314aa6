import DraftKit
import Foundation
import Glibc

/// Writes to the standard streams with `write(2)`, unbuffered, so output and errors keep
/// their order whether they go to a terminal, a pipe or a file.
enum Console {
    enum Stream {
        case output, error
        var descriptor: Int32 { self == .output ? 1 : 2 }
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

    static func decideColour(environment: [String: String]) {
        colour = isatty(1) == 1 && isatty(2) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
    }

    static func write(_ text: String, to stream: Stream, style: Style? = nil) {
        let styled = colour && style != nil ? "\u{1B}[\(style!.rawValue)m\(text)\u{1B}[0m" : text
        var bytes = Array(styled.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                Glibc.write(stream.descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Prints a session's lines: information to standard output, warnings and errors to
    /// standard error.
    static func show(_ lines: [OutputLine]) {
        for line in lines {
            switch line.kind {
            case .info:
                write(line.text, to: .output, style: line.text.hasPrefix("trace: ") ? .dim : nil)
                write("\n", to: .output)
            case .warning:
                write(line.description, to: .error, style: .warning)
                write("\n", to: .error)
            case .error:
                write(line.description, to: .error, style: .error)
                write("\n", to: .error)
            }
        }
    }
}
