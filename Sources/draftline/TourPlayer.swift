import BracketedPaste
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
    let console: Console
    /// 1 is a person's pace; 2 twice as fast.
    let speed: Double
    /// The chapter to play; `nil` for the first (the whole story).
    var chapter: String?
    /// The user's edit-line history, given back to the editor when the tour ends: the
    /// tour's own lines are recalled (Up) only during the tour.
    var userHistory: [String] = []

    /// Plays the tour, until its end or Ctrl-C; false when it could not start (no scratch
    /// directory).
    @discardableResult
    func play() -> Bool {
        let chapter = Tour.chapter(named: self.chapter ?? "") ?? Tour.chapters[0]
        // A scratch directory holds the file the media chapter attaches; nothing else is
        // written anywhere: the history is in memory.
        var template = Array((NSTemporaryDirectory() + "/draftline-tour-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            console.write(
                "draftline: \(Presenter.describe(.tourHasNoScratchDirectory))\n", to: .error, style: .error)
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
        let live = peers.map { _ in
            Live(
                frontend: frontend, feed: history.follow(notifications: false), console: console,
                waiter: editor.waiter)
        }
        let pacer = Pacer(speed: speed, editor: editor, console: console, live: live)
        editor.keySource = { pacer.next() }
        try? editor.setHistory([])
        defer {
            editor.keySource = nil
            try? editor.setHistory(userHistory)
        }
        console.write(
            "\n" + wrap(Presenter.describe(.tourChapter(title: chapter.title))) + "\n", to: .output, style: .narration)
        for step in chapter.steps {
            console.write(wrap(step.narration) + "\n", to: .output, style: .narration)
            pacer.start(step)
            let (event, origin) = TerminalREPL.readEvent(for: frontend, with: editor, console: console)
            guard !pacer.stopped else {
                console.write(Presenter.describe(.tourStopped) + "\n", to: .output, style: .narration)
                return true
            }
            let response = frontend.handle(event, origin: origin)
            for case .remember(let line) in response.effects { try? editor.addHistory(line) }
            let shown = response.lines
            console.show(shown)
            live?.check()
            let mapShown = shown.contains { $0.text.hasPrefix("drafts in memory") || $0.text == "no drafts in memory" }
            if !frontend.hasQuit && frontend.question == nil && !mapShown {
                console.show(frontend.lines(for: frontend.session.draftMap()))
            }
        }
        if pacer.skipping { pacer.discardPressedKeys() }
        let ending = chapter.name == Tour.chapters[0].name ? Tour.ending + "\n" : ""
        let others = Tour.chapters.dropFirst().map(\.name)
        console.write(
            wrap(Presenter.describe(.tourEnded(ending: ending, others: others))) + "\n"
                + Presenter.describe(.tourOver) + "\n",
            to: .output, style: .narration)
        return true
    }

    /// Narration in the terminal's width (at most ``Presenter/helpWidth`` columns), broken
    /// at blanks by the presenter's wrapper.
    private func wrap(_ text: String) -> String {
        Presenter.wrap(text, width: min(console.terminalWidth ?? Presenter.helpWidth, Presenter.helpWidth)).joined(
            separator: "\n")
    }
}

/// Hands the tour's keys to the line editor one at a time, waiting between them; a paste
/// comes whole, at once, as a terminal sends one. A key the user presses meanwhile makes
/// the rest of the step come at once, and Ctrl-C (the key, or SIGINT) stops the tour. A
/// Ctrl-C in a step's keys is the tour's own: the line editor takes it as the interrupt
/// key. A paste the user makes during the tour is not used: one line says so.
final class Pacer {
    private let keyDelay: Double
    private let speed: Double
    private var keys: [PastePiece] = []
    private var index = 0
    private var firstDelay = 0.0
    private(set) var skipping = false
    private(set) var stopped = false

    /// The editor it types into: its waiter (keys, signals, the feed), the keys pressed.
    private unowned let editor: LineEditor
    private let console: Console
    /// Messages from the other side, shown while the pacer waits between keys.
    private let live: Live?

    init(speed: Double, editor: LineEditor, console: Console, live: Live?) {
        self.editor = editor
        self.console = console
        self.live = live
        self.speed = speed
        keyDelay = Tour.keyInterval / speed
    }

    /// Starts a step: a pause long enough to read its narration, then its keys.
    func start(_ step: Tour.Step) {
        keys = PastePiece.split(step.keys)
        index = 0
        skipping = false
        firstDelay = step.readingPause / speed
    }

    /// The next key or paste, after the pause; `nil` (end of input) when the tour was
    /// stopped.
    func next() -> PastePiece? {
        guard !stopped, index < keys.count else { return nil }
        if skipping { discardPressedKeys() }
        wait(index == 0 ? firstDelay : keyDelay)
        guard !stopped else { return nil }
        defer { index += 1 }
        return keys[index]
    }

    /// Keys pressed to skip ahead are the tour's, not text: read and dropped (Ctrl-C among
    /// them stops the tour), so none is left for the user's own line when the tour ends. A
    /// paste among them is refused, in one line, and skips nothing.
    @discardableResult
    func discardPressedKeys() -> Bool {
        let keys = editor.dropPressedKeys()
        if keys.interrupt { stopped = true }
        if keys.pastes > 0 { console.show([OutputLine(.info, Presenter.describe(.tourTakesNoPaste))]) }
        return keys.any
    }

    /// Waits (the terminal is in raw mode while libedit reads). A resize does not end the
    /// wait (the line is redrawn at the new width): only a key (skip) or Ctrl-C (stop)
    /// does. A message due meanwhile is shown above the line.
    private func wait(_ seconds: Double) {
        live?.check()
        guard !skipping, seconds > 0 else { return }
        let deadline = InputWaiter.now() + seconds
        while !stopped {
            let remaining = deadline - InputWaiter.now()
            guard remaining > 0 else { return }
            let due = live?.timeout ?? .infinity
            let wake = editor.waiter.wait(
                handling: [.interrupt, .resize], watched: live?.feed.descriptor ?? -1, timeout: min(remaining, due))
            switch wake {
            case .signals(let signals):
                if signals.contains(.interrupt) { stopped = true }
                if signals.contains(.resize) { editor.redraw() }
            case .input:
                // A key skips ahead; Ctrl-C (a key while the line is read) stops the tour;
                // a paste is refused and skips nothing.
                guard discardPressedKeys() else { continue }
                skipping = true
                return
            case .watched:
                live?.check()
            case .timeout:
                if due < remaining {
                    live?.check()
                    continue
                }
                return
            case .failed:
                return
            }
        }
    }
}
