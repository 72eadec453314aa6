import DraftKit
import Glibc

/// The REPL with standard input not a terminal: one line per command or message, no
/// prompt and no escape sequences. Exit status 0 at end of input, 1 if a message could
/// not be stored.
struct PipeREPL {
    let session: Session

    func run() -> Int32 {
        var input = LineReader(descriptor: 0)
        while !session.hasQuit {
            guard let line = input.next() else {
                Console.show(session.handle(.endOfInput))
                break
            }
            Console.show(session.handle(PipedLine.event(for: line, prefill: session.prefill)))
        }
        return session.hadSendFailure ? Draftline.ExitStatus.failure : Draftline.ExitStatus.success
    }
}

/// Splits a file descriptor's bytes into lines (`read(2)`), dropping the newline and a CR
/// before it; a last line without a newline still counts. Invalid UTF-8 becomes U+FFFD.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}
