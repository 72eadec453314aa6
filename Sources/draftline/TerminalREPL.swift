import CTerminalSignals
import DraftKit
import DraftlineREPL
import Glibc
import IRCClient
import LineEditor

/// The REPL on a terminal: libedit reads each line, pre-filled with what the session
/// says the line holds (the chat's draft, or a line given back).
struct TerminalREPL {
    let frontend: Frontend
    let options: Options
    let lineHistory: LineHistoryFile
    let console: Console
    /// Messages from the other side.
    let feed: any HistoryFeed
    /// Where the session's results are written when it ends (`--report`, `--record`).
    let reports: ReportFiles

    /// `draftline --tour`: the tour alone, without opening the user's data directory.
    static func playTour(options: Options, console: Console) -> Int32 {
        guard let editor = makeEditor(options: options, completing: nil, console: console),
            TourPlayer(editor: editor, console: console, speed: options.tourSpeed, chapter: options.tourChapter).play()
        else { return Draftline.ExitStatus.unusable }
        return Draftline.ExitStatus.success
    }

    func run() -> Int32 {
        guard let editor = Self.makeEditor(options: options, completing: frontend, console: console) else {
            return Draftline.ExitStatus.unusable
        }
        let live = Live(frontend: frontend, feed: feed, console: console, waiter: editor.waiter)
        editor.watch = live.watch
        live.showsTyping = true
        live.lineNow = { [unowned editor] in editor.lineBeingRead }
        live.fillLine = { [unowned editor] line in editor.fill(line.text, cursor: line.cursor) }
        // A chat's line edited is its typing state on a chat server (never its text); the
        // tour's keys and a question's answer are no one's draft.
        if let network = feed as? IRCTransport {
            editor.onEdit = { [unowned editor, unowned session = frontend.session] text in
                guard editor.keySource == nil, session.question == nil, let target = session.screen.target else {
                    return
                }
                network.edited(text, in: target)
            }
        }
        frontend.presenter.keys = KeyLabels(bound: editor.boundKeys())
        if let codeset = nl_langinfo(nl_item(CODESET)).map({ String(cString: $0) }), codeset != "UTF-8" {
            console.show([OutputLine(.warning, Presenter.describe(.localeNotUTF8(codeset: codeset)))])
        }
        // The edit line's history in memory: the file's lines at start and this session's.
        // A file that cannot be read is said once and left as it is: a line entered is added
        // to the file as it is then (a file that holds no list of lines is never replaced).
        var entered: [String] = []
        var lineHistoryFailed = false
        do throws(StoreError) { entered = try lineHistory.load() } catch {
            console.show([OutputLine(.warning, Presenter.describe(.lineHistoryNotLoaded(Presenter.describe(error))))])
            // Its save would fail for the same reason: not said again.
            if case .unavailable(let failure) = error, !failure.isTransient { lineHistoryFailed = true }
        }
        // Lines entered that the file does not hold yet: saved at the next chance the lock is
        // free (tried once, never waited for, so a held lock keeps no key waiting), and at
        // the end, waiting as a send does.
        var unsaved: [String] = []
        func save(waiting: Bool) {
            guard !unsaved.isEmpty else { return }
            do throws(StoreError) {
                if try lineHistory.append(unsaved, waiting: waiting) { unsaved = [] }
            } catch {
                // Said once: on a read-only data directory every line would say it again.
                if !lineHistoryFailed {
                    console.show([OutputLine(.warning, Presenter.describe(.lineHistoryNotSaved(error)))])
                }
                lineHistoryFailed = true
            }
        }
        do { try editor.setHistory(entered) } catch {
            console.show([OutputLine(.warning, Presenter.describe(.lineHistoryNotLoaded("\(error)")))])
        }
        let identity = frontend.session.identity
        let welcome = Presenter.describe(.welcome(identity))
        console.write(
            Presenter.wrap(welcome, width: console.terminalWidth ?? .max).joined(separator: "\n") + "\n", to: .output)
        var results = ScriptResults()
        var recorder = reports.recording ? ScriptRecorder() : nil
        var number = 0
        // --strict, as on a pipe: the line whose error the next line may check with
        // `/expect error` (a recorded session states each error it got); any other next
        // line stops the session. An error answering a question waits for the question's end.
        var unchecked: Int?
        func stop(at line: Int) {
            results.stop(at: line)
            console.write("draftline: \(Presenter.describe(.stoppedAt(line: line)))\n", to: .error)
        }
        // A prompt recalls what it takes (``recalled(at:in:)``); every other read, every line.
        var recalling: Navigator.Question?
        while !frontend.hasQuit {
            let prefill = frontend.session.prefill
            let screen = frontend.session.screenName
            if recalling != frontend.session.question {
                recalling = frontend.session.question
                try? editor.setHistory(Self.recalled(at: recalling, in: entered))
            }
            let (event, origin) = Self.readEvent(for: frontend, with: editor, console: console)
            if let erred = unchecked, frontend.session.question == nil {
                unchecked = nil
                guard case .line(let text) = event, Expectation.checksError(text) else {
                    stop(at: erred)
                    break
                }
            }
            number += 1
            // /help fits the terminal as it is now (its last column left free).
            let width = min(console.terminalWidth ?? Presenter.helpWidth, Presenter.helpWidth)
            if frontend.presenter.width != width { frontend.presenter.width = width }
            let shownBefore = frontend.session.screen.target
            let response = frontend.handle(event, origin: origin)
            console.show(response.lines)
            // Entering a chat shows who is typing there already (not only when it changes).
            if frontend.session.screen.target != shownBefore { console.show(live.typingHere()) }
            results.record(response.reports, line: number, of: event, presenter: frontend.presenter)
            recorder?.record(
                event, origin: origin, prefill: prefill, screen: screen, reports: response.reports,
                session: frontend.session, asking: frontend.question != nil)
            var erred = options.strict && response.lines.contains { $0.kind == .error }
            for effect in response.effects {
                switch effect {
                case .remember(let line):
                    guard line.utf8.count <= Session.maximumLineBytes else { continue }
                    for recalled in Self.recalled(at: recalling, in: [line]) {
                        try? editor.addHistory(recalled)
                    }
                    entered = Array((entered + [line]).suffix(lineHistory.limit))
                    unsaved = Array((unsaved + [line]).suffix(lineHistory.limit))
                    save(waiting: false)
                case .wait(let wait) where !erred:
                    // A paste meanwhile comes bracketed, and waits whole for the edit line.
                    let ended = editor.takingPastes { live.wait(wait, interruptible: true) }
                    results.record(ended, line: number, presenter: frontend.presenter)
                    erred = options.strict && ended.contains { $0.error != nil }
                case .wait:
                    break
                case .playTour(let chapter, let speed):
                    TourPlayer(
                        editor: editor, console: console, speed: speed, chapter: chapter, userHistory: entered
                    ).play()
                case .quit:
                    break
                }
            }
            // A check that failed stops at once; another error, unless the next line checks it.
            if erred && response.reports.contains(where: \.isCheck) {
                stop(at: number)
                break
            }
            if erred, unchecked == nil { unchecked = number }
        }
        // Sends the server has not confirmed yet: waited for (a few seconds at most) before
        // the QUIT goes, so the history here holds what the other side got.
        live.confirmBeforeQuit()
        save(waiting: true)
        let recorded = recorder.map { reports.write(record: $0.script) } ?? true
        let written = reports.write(results, at: frontend.session.clock())
        guard written, recorded else { return Draftline.ExitStatus.unusable }
        return Draftline.ExitStatus.of(results, sendFailed: frontend.hadSendFailure)
    }

    /// The lines entered as the prompt asking `question` recalls them: at `^X /` the
    /// commands without their `/` (Up there shows `command: /drafts`, not `//drafts`; a `//`
    /// line is a message), at `^X o` the names `/open` took (the prompt's answers are
    /// remembered as that `/open`: a new user's Up there had recalled chat messages);
    /// elsewhere every line.
    static func recalled(at question: Navigator.Question?, in lines: [String]) -> [String] {
        switch question {
        case .command: lines.filter { $0.hasPrefix("/") && !$0.hasPrefix("//") }.map { String($0.dropFirst()) }
        case .chatName: lines.compactMap { $0.hasPrefix("/open ") ? String($0.dropFirst(6)) : nil }
        case nil: lines
        }
    }

    /// Reads one edit line for `frontend`, pre-filled with what the session says the line
    /// holds, and turns how it ended into an event, with where the line's text came from.
    static func readEvent(
        for frontend: Frontend, with editor: LineEditor, console: Console
    ) -> (InputEvent, LineOrigin) {
        let start = frontend.session.line
        let input = editor.readLine(
            prompt: frontend.prompt, prefill: start.text, cursor: start.cursor, pasted: frontend.session.linePasted,
            inserted: frontend.session.lineInserted)
        let line = TextDraft(text: input.line.text, cursor: input.line.cursor)
        let recalled = LineOrigin(
            recalledOver: input.recalledOver.map { TextDraft(text: $0.text, cursor: $0.cursor) },
            leftRecalls: input.leftRecalls.map { TextDraft(text: $0.text, cursor: $0.cursor) },
            kind: input.source == .own ? .own : input.source == .recalled ? .recalled : .recalledAndChanged,
            pasted: input.pasted, inserted: input.inserted)
        // A read that did not end with Enter ends its line here.
        if input.ending != .entered { console.write("\n", to: .output) }
        switch input.ending {
        case .entered:
            return (.line(input.line.text), recalled)
        case .left(let function):
            let key = LeaveKey.allCases.first { $0.functionName == function }
            return (key.map { .leave($0, line) } ?? .interrupt(line), recalled)
        case .interrupted:
            return (.interrupt(line), recalled)
        case .endOfFile:
            // The Ctrl-D is the very next key only when it was the read's first key.
            return (.quitRequest(afterKeys: input.keysRead > 1), recalled)
        }
    }

    /// The signal handlers installed, then an editor with draftline's key functions,
    /// `~/.editrc` read, and Tab completing for `frontend`; the console prints through it
    /// from now on. `nil`, said in one line, when libedit fails.
    private static func makeEditor(
        options: Options, completing frontend: Frontend?, console: Console
    ) -> LineEditor? {
        if dl_signals_install() != 0 {
            console.write(Presenter.describe(.signalsNotInstalled(code: errno)) + "\n", to: .error, style: .warning)
        }
        do throws(LineEditorError) {
            let signals: (descriptor: Int32, take: () -> InputWaiter.Signals)? =
                dl_interrupt_descriptor() >= 0
                ? (dl_interrupt_descriptor(), { InputWaiter.Signals(rawValue: dl_take_signals()) }) : nil
            let editor = try LineEditor(
                programName: "draftline", pasteLimit: Session.maximumLineBytes, signals: signals)
            console.attach(editor)
            editor.onPasteTooLong = { [unowned console] bytes in
                console.show([Presenter().line(for: .pasteTooLong(bytes))])
            }
            for key in LeaveKey.allCases {
                try editor.addLeavingFunction(named: key.functionName, help: key.help)
                try editor.bind(key.defaultKeys, to: key.functionName)
            }
            try editor.addFunction(
                named: KeyLabels.draftMapFunction, help: "show the drafts, the undo stack and this line above it"
            ) { [weak frontend, weak editor, unowned console] in
                guard let frontend, let editor else { return }
                let line = editor.lineState
                console.show(
                    frontend.lines(
                        for: frontend.session.draftMap(line: TextDraft(text: line.text, cursor: line.cursor))))
            }
            try editor.bind(KeyLabels.draftMapDefault, to: KeyLabels.draftMapFunction)
            editor.completer = { [weak frontend, unowned console] before in
                frontend?.complete(before, saying: console.show) ?? .none
            }
            let failedBindings = editor.sourceConfiguration()
            if !failedBindings.isEmpty {
                console.show([OutputLine(.warning, Presenter.describe(.keysNotBoundAgain(failedBindings)))])
            }
            if let mode = options.editor { try editor.setEditor(mode) }
            return editor
        } catch {
            console.write("draftline: \(error)\n", to: .error)
            return nil
        }
    }
}
