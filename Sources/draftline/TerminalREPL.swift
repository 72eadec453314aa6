import CTerminalSignals
import DraftKit
import DraftlineREPL
import Glibc
import LineEditor

/// The REPL on a terminal: libedit reads each line, pre-filled with the chat's draft.
struct TerminalREPL {
    let frontend: Frontend
    let options: Options
    let lineHistory: LineHistoryFile
    /// Messages from the other side.
    var live: Live?

    /// `draftline --tour`: the tour alone, without opening the user's data directory.
    static func playTour(options: Options) -> Int32 {
        installSignals()
        do {
            let editor = try makeEditor(options: options, completing: nil)
            return TourPlayer(editor: editor, speed: options.tourSpeed, chapter: options.tourChapter).play()
                ? Draftline.ExitStatus.success : Draftline.ExitStatus.failure
        } catch {
            Console.write("draftline: \(error)\n", to: .error)
            return Draftline.ExitStatus.failure
        }
    }

    func run() -> Int32 {
        Self.installSignals()
        let editor: LineEditor
        do {
            editor = try Self.makeEditor(options: options, completing: frontend)
        } catch {
            Console.write("draftline: \(error)\n", to: .error)
            return Draftline.ExitStatus.failure
        }
        if let live {
            editor.watch = LineEditor.Watch(
                descriptor: live.feed.descriptor, timeout: { live.timeout }, wake: { live.check() })
        }
        frontend.presenter.keys = KeyLabels(bound: editor.boundKeys())
        if let codeset = nl_langinfo(nl_item(CODESET)).map({ String(cString: $0) }), codeset != "UTF-8" {
            Console.write(
                "warning: the locale's character set is \(codeset), not UTF-8: only ASCII can be typed; "
                    + "run with LANG=C.UTF-8\n", to: .error, style: .warning)
        }
        var entered = lineHistory.load()
        editor.setHistory(entered)
        let identity = frontend.session.identity
        Console.write(
            "draftline\(identity == .me ? "" : " (as \(identity))"): each chat keeps its unsent text as a draft "
                + "while draftline runs. /help lists commands, /tour shows the flow.\n", to: .output)
        while !frontend.hasQuit {
            let event = Self.readEvent(for: frontend, with: editor) { line in
                guard line.utf8.count <= Session.maximumLineBytes else { return }
                editor.addHistory(line)
                entered = Array((entered + [line]).suffix(lineHistory.limit))
                do throws(StoreError) { try lineHistory.save(entered) } catch {
                    Console.write(
                        "warning: the edit-line history was not saved: \(TerminalText.visible(error.description))\n",
                        to: .error, style: .warning)
                }
            }
            guard let event else { continue }
            let response = frontend.handle(event)
            Console.show(response.lines)
            for effect in response.effects {
                switch effect {
                case .wait(let count, let seconds):
                    live?.wait(count: count, seconds: seconds, interruptible: true)
                case .playTour(let chapter, let speed):
                    TourPlayer(editor: editor, speed: speed, chapter: chapter).play()
                case .quit:
                    break
                }
            }
        }
        return Draftline.ExitStatus.success
    }

    private static func installSignals() {
        if dl_signals_install() != 0 {
            Console.write(
                "warning: signal handlers could not be installed: \(String(cString: strerror(errno)))\n", to: .error,
                style: .warning)
        }
    }

    /// Reads one edit line for `frontend`, pre-filled with its draft, and turns what
    /// happened into an event; `entered` sees each non-empty line entered with Enter.
    static func readEvent(
        for frontend: Frontend, with editor: LineEditor, entered: (String) -> Void = { _ in }
    ) -> InputEvent? {
        let prefill = frontend.prefill
        let restored = frontend.restoredDraft
        switch editor.readLine(prompt: frontend.prompt, prefill: prefill?.text ?? "", cursor: prefill?.cursor) {
        case .entered(let line):
            // A command typed into a restored draft enters the history alone: drafts never
            // reach the disk.
            let command = restored.flatMap { CommandInDraft.find(in: line, restored: $0) }
            if !line.isEmpty { entered(command ?? line) }
            return .line(line)
        case .left(let text, let cursor, let function):
            Console.write("\n", to: .output)
            guard let key = LeaveKey(functionName: function) else { return nil }
            return .leave(key, TextDraft(text: text, cursor: cursor))
        case .interrupted(let text, let cursor):
            Console.write("\n", to: .output)
            return .interrupt(TextDraft(text: text, cursor: cursor))
        case .endOfFile:
            Console.write("\n", to: .output)
            return .quitRequest
        }
    }

    /// An editor with draftline's key functions, `~/.editrc` read, and Tab completing
    /// for `frontend`.
    private static func makeEditor(
        options: Options, completing frontend: Frontend?
    ) throws(LineEditorError) -> LineEditor {
        let editor = try LineEditor(programName: "draftline")
        Console.editor = editor
        if dl_interrupt_descriptor() >= 0 {
            editor.interruption = (dl_interrupt_descriptor(), { LineEditor.Wake(rawValue: dl_take_signals()) })
        }
        for key in LeaveKey.allCases {
            try editor.addLeavingFunction(named: key.functionName, help: key.help)
            try editor.bind(key.defaultKeys, to: key.functionName)
        }
        try editor.addFunction(named: KeyLabels.draftMapFunction, help: "show the draft map above the edit line") {
            [weak frontend] in
            guard let frontend else { return }
            Console.show(frontend.lines(for: frontend.session.draftMap()))
        }
        try editor.bind(KeyLabels.draftMapDefault, to: KeyLabels.draftMapFunction)
        editor.completer = { [weak frontend] before in
            guard let frontend else { return .none }
            switch frontend.complete(before) {
            case .insert(let text): return .insert(text)
            case .list(let candidates): return .list(candidates)
            case .none: return .none
            }
        }
        let configuration = editor.sourceConfiguration()
        if !configuration.failedBindings.isEmpty {
            Console.write(
                "warning: after ~/.editrc, these keys could not be bound again: "
                    + TerminalText.visible(configuration.failedBindings.joined(separator: ", ")) + "\n",
                to: .error, style: .warning)
        }
        if let mode = options.editor { try editor.setEditor(mode) }
        return editor
    }
}
