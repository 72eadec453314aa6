import CTerminalSignals
import DraftKit
import DraftlineREPL
import Foundation
import Glibc
import LineEditor

/// Plays ``Tour`` through the real line editor: each step's narration, then its keys
/// typed at a person's pace into the edit line, then what draftline answered and the
/// draft map. Its history is kept in memory: the user's data directory is not touched.
struct TourPlayer {
    let editor: LineEditor
    /// 1 is a person's pace; 2 twice as fast.
    let speed: Double
    /// The chapter to play; `nil` for the first (the whole story).
    var chapter: String?

    /// Plays the tour; returns whether it ran to the end (Ctrl-C stops it).
    @discardableResult
    func play() -> Bool {
        let chapter = Tour.chapter(named: self.chapter ?? "") ?? Tour.chapters[0]
        // A scratch directory holds the file the media chapter attaches; nothing else is
        // written anywhere: the history is in memory.
        var template = Array((NSTemporaryDirectory() + "/draftline-tour-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            Console.write("draftline: cannot make a scratch directory for the tour\n", to: .error, style: .error)
            return false
        }
        let scratch = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = FileManager.default.createFile(atPath: scratch + "/photo.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
        let history = InMemoryHistory()
        let peers = chapter.peerDelay.map { delay in
            DemoPeers(
                people: Set(ContactBook.demo.map(\.key)), delay: delay / speed, history: history, clock: { Date() })
        }
        let frontend = Frontend(
            Session(
                contacts: ContactBook(), history: history, tracing: true, workingDirectory: scratch, home: nil,
                peers: peers))
        let live = peers.map { _ in Live(frontend: frontend, feed: history.follow(notifications: false)) }
        let pacer = Pacer(speed: speed, redraw: { [editor] in editor.redraw() }, live: live)
        editor.keySource = { pacer.next() }
        defer { editor.keySource = nil }
        Console.write("\n── tour: \(chapter.title) ──\n", to: .output, style: .narration)
        for step in chapter.steps {
            Console.write(Self.wrap(step.narration) + "\n", to: .output, style: .narration)
            pacer.start(step)
            let event = TerminalREPL.readEvent(for: frontend, with: editor)
            guard let event, !pacer.stopped else {
                _ = dl_take_signals()
                Console.write("tour stopped\n", to: .output, style: .narration)
                return false
            }
            let shown = frontend.handle(event).lines
            Console.show(shown)
            live?.check()
            let mapShown = shown.contains { $0.text.hasPrefix("drafts in memory") || $0.text == "no drafts in memory" }
            if !frontend.hasQuit && frontend.question == nil && !mapShown {
                Console.show(frontend.lines(for: frontend.session.draftMap()))
            }
        }
        let ending = chapter.name == Tour.chapters[0].name ? Tour.ending + "\n" : ""
        let others = Tour.chapters.dropFirst().map(\.name).joined(separator: ", ")
        Console.write(
            Self.wrap(ending + "More chapters: --tour NAME or /tour NAME, with NAME one of " + others + ".")
                + "\n── end of the tour ──\n", to: .output, style: .narration)
        return true
    }

    /// Word-wraps narration to 78 columns.
    static func wrap(_ text: String, width: Int = 78) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}

/// Hands the tour's keys to the line editor one at a time, waiting between them; a key
/// the user presses meanwhile makes the rest of the step come at once, and Ctrl-C (a
/// signal during a wait) stops the tour. A Ctrl-C in a step's keys is the tour's own: the
/// line editor takes it as the terminal's interrupt key.
final class Pacer {
    private let keyDelay: Double
    private let speed: Double
    private var keys: [Unicode.Scalar] = []
    private var index = 0
    private var firstDelay = 0.0
    private var skipping = false
    private(set) var stopped = false

    /// Redraws the edit line after a resize (the pacer waits inside a read).
    private let redraw: () -> Void
    /// Messages from the other side, shown while the pacer waits between keys.
    private let live: Live?

    init(speed: Double, redraw: @escaping () -> Void = {}, live: Live? = nil) {
        self.redraw = redraw
        self.live = live
        self.speed = speed
        keyDelay = Tour.keyInterval / speed
    }

    /// Starts a step: a pause long enough to read its narration, then its keys.
    func start(_ step: Tour.Step) {
        keys = Array(step.keys.unicodeScalars)
        index = 0
        skipping = false
        firstDelay = step.readingPause / speed
    }

    /// The next key, after the pause; `nil` (end of input) when the tour was stopped.
    func next() -> Unicode.Scalar? {
        guard !stopped, index < keys.count else { return nil }
        wait(index == 0 ? firstDelay : keyDelay)
        guard !stopped else { return nil }
        defer { index += 1 }
        return keys[index]
    }

    /// Waits, watching standard input (the terminal is in raw mode while libedit reads).
    /// A resize does not end the wait (the line is redrawn at the new width): only a key
    /// (skip) or Ctrl-C (stop) does. A message due meanwhile is shown above the line.
    private func wait(_ seconds: Double) {
        live?.check()
        guard !skipping, seconds > 0 else { return }
        let deadline = Date().addingTimeInterval(seconds)
        while !stopped {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return }
            let due = live?.timeout ?? .infinity
            var watcher = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watcher, 1, Int32((min(remaining, due) * 1000).rounded(.up)))
            if ready == 0 && due < remaining {
                live?.check()
                continue
            }
            if ready < 0 && errno == EINTR {
                let signals = dl_take_signals()
                if signals & Int32(DL_SIGNAL_INTERRUPT) != 0 { stopped = true }
                if signals & Int32(DL_SIGNAL_RESIZE) != 0 { redraw() }
            } else if ready > 0 {
                var discard = [UInt8](repeating: 0, count: 256)
                _ = read(0, &discard, discard.count)
                skipping = true
                return
            } else {
                return
            }
        }
    }
}
