import DraftKit
import Glibc

/// Writes to the standard streams with `write(2)`, unbuffered, so output and errors keep
/// their order whether they go to a terminal, a pipe or a file.
enum Console {
    enum Stream {
        case output, error
        var descriptor: Int32 { self == .output ? 1 : 2 }
    }

    static func write(_ text: String, to stream: Stream) {
        var bytes = Array(text.utf8)
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
            write(line.description + "\n", to: line.kind == .info ? .output : .error)
        }
    }
}
