import DraftKit
import DraftlineREPL
import Glibc

/// The REPL with standard input not a terminal: one line per command or message, no
/// prompt and no escape sequences. The exit status says what the script's checks came to
/// (``Draftline/ExitStatus``), and `--report` writes them.
struct PipeREPL {
    let frontend: Frontend
    /// Whether the first error or failed expectation ends the run (`--strict`).
    let strict: Bool
    /// Messages from the other side, shown between lines and during `/wait`.
    let live: Live
    let console: Console
    /// Where the script's results are written when it ends (`--report`).
    let reports: ReportFiles

    func run() -> Int32 {
        var input = LineReader(descriptor: 0, limit: Session.maximumLineBytes)
        var number = 0
        var piped = PipedLine()
        var results = ScriptResults()
        // --strict: the line whose error the next line may check with /expect error (an
        // error the script states is not a surprise); any other next line stops the run.
        // An error answering a question (a name refused) waits for the question's end: the
        // lines until then answer it, and the check follows the step.
        var unchecked: Int?
        func stop(at line: Int) {
            results.stop(at: line)
            console.write("draftline: \(Presenter.describe(.stoppedAt(line: line)))\n", to: .error)
        }
        reading: while !frontend.hasQuit {
            // Between lines, what other processes sent; the demo peers answer only during
            // /wait, so that a script's transcript does not depend on how fast it ran.
            live.check(answering: false)
            let next = input.next()
            if let erred = unchecked, next == nil || frontend.session.question == nil {
                unchecked = nil
                guard case .text(let text, _)? = next, Expectation.checksError(text) else {
                    stop(at: erred)
                    if case .text(let text, _)? = next { results.notRun(text, line: number + 1) }
                    number += 1
                    break
                }
            }
            guard let line = next else {
                console.show(frontend.handle(.endOfInput).lines)
                break
            }
            number += 1
            switch line {
            case .tooLong(let bytes):
                console.show([OutputLine(.error, Presenter.describe(.lineRefused(line: number, bytes: bytes)))])
                results.record(frontend.session.refuseUnreadLine(bytes: bytes), line: number)
                // As any line's error: the next line may check it.
                if strict, unchecked == nil { unchecked = number }
            case .text(let text, let repaired):
                if repaired {
                    console.show([OutputLine(.warning, Presenter.describe(.lineNotUTF8(line: number)))])
                }
                var failed = false
                // An error the next line may check: only the line's last event's (a later
                // event of the line would leave it unchecked), never a failed check's.
                var erred = false
                func handle(_ event: InputEvent, origin: LineOrigin) {
                    guard !frontend.hasQuit, !failed else { return }
                    guard !erred else {
                        failed = true
                        return
                    }
                    let response = frontend.handle(event, origin: origin)
                    console.show(response.lines)
                    // A send a chat server holds in flight is settled before the next
                    // line, so the script sees its fate there, whatever the network's pace.
                    if !frontend.session.live.inFlight.isEmpty { live.settle() }
                    results.record(response.reports, line: number, of: event, presenter: frontend.presenter)
                    erred = strict && response.lines.contains { $0.kind == .error }
                    for case .wait(let wait) in response.effects where !erred {
                        let ended = live.wait(wait, interruptible: false)
                        results.record(ended, line: number, presenter: frontend.presenter)
                        erred = strict && ended.contains { $0.error != nil }
                    }
                    if erred && response.reports.contains(where: \.isCheck) { failed = true }
                }
                // Enter on an empty line right after a command that failed is Enter again on
                // the line a terminal gives back: the same attempt, never a send of the draft.
                if text.isEmpty, piped.unfinished == nil, let again = frontend.session.lineToEnterAgain {
                    handle(.line(again.text), origin: again.origin)
                } else {
                    // A line that starts with an editing key, right after a failed command,
                    // edits the line a terminal gives back, as fixing it there does:
                    // Backspace then `ts` after `/drafs` is `/drafts`, never the draft with
                    // `ts` typed into it.
                    if piped.unfinished == nil,
                        let first = text.unicodeScalars.first, PipedLine.editingKeyBytes.contains(first.value)
                    {
                        _ = frontend.session.resumeLineToEnterAgain()
                    }
                    let session = frontend.session
                    piped.play(
                        text,
                        prefill: {
                            session.prefill.map {
                                ($0, LineOrigin(pasted: session.linePasted, inserted: session.lineInserted))
                            }
                        }, handle: handle)
                }
                if failed {
                    stop(at: number)
                    break reading
                }
                if erred, unchecked == nil { unchecked = number }
            }
        }
        // A send the per-line settle gave up on is still waited for, a few seconds at most.
        live.confirmBeforeQuit()
        // What a stop left unrun: the checks of the input already there are listed as not
        // run (a writer that has not sent the rest is not waited for).
        if results.stopped {
            input.onlyWhatIsThere = true
            while let line = input.next() {
                number += 1
                if case .text(let text, _) = line { results.notRun(text, line: number) }
            }
            if input.leftUnread { results.unreadAfterStop = true }
        }
        guard reports.write(results, at: frontend.session.clock()) else { return Draftline.ExitStatus.unusable }
        return Draftline.ExitStatus.of(results, sendFailed: frontend.hadSendFailure)
    }
}

/// Splits a file descriptor's bytes into lines (`read(2)`), dropping the newline and a CR
/// before it; a last line without a newline still counts. Invalid UTF-8 becomes U+FFFD.
/// A line longer than `limit` bytes is not kept: its bytes are skipped up to its newline
/// and only its length is reported, so memory stays bounded whatever comes in.
struct LineReader {
    enum Line: Equatable {
        /// A line, and whether invalid UTF-8 in it was replaced.
        case text(String, repaired: Bool)
        /// A line over the limit, with its length in bytes.
        case tooLong(Int)
    }

    let descriptor: Int32
    let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var skipped = 0
    /// Whether a read waits for input: when set, input that is not there yet (a writer
    /// that has not sent it, or not closed its end) ends the lines, and ``leftUnread`` says so.
    var onlyWhatIsThere = false
    private(set) var leftUnread = false

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    mutating func next() -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                defer { start = newline + 1 }
                if skipped > 0 {
                    defer { skipped = 0 }
                    return .tooLong(skipped + newline - start)
                }
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                return Self.decode(buffer[start..<end], limit: limit)
            }
            if atEnd {
                guard start < buffer.count || skipped > 0 else { return nil }
                defer {
                    start = buffer.count
                    skipped = 0
                }
                if skipped > 0 { return .tooLong(skipped + buffer.count - start) }
                return Self.decode(buffer[start...], limit: limit)
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            if buffer.count > limit {
                skipped += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
            if onlyWhatIsThere {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 0) == 1 else {
                    // The line begun is not all there: it is not read either.
                    leftUnread = true
                    atEnd = true
                    buffer.removeAll()
                    start = 0
                    skipped = 0
                    continue
                }
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

    private static func decode(_ bytes: ArraySlice<UInt8>, limit: Int) -> Line {
        if bytes.count > limit { return .tooLong(bytes.count) }
        let text = String(decoding: bytes, as: UTF8.self)
        return .text(text, repaired: !text.utf8.elementsEqual(bytes))
    }
}
