import DraftKit
import Foundation
import Glibc
import LineEditor

/// The REPL on a terminal: libedit reads each line, pre-filled with the chat's draft.
struct TerminalREPL {
    let session: Session
    let options: Options
    let directory: String

    /// `draftline --tour`: the tour alone, without opening the user's data directory.
    static func playTour(options: Options) -> Int32 {
        Signals.install()
        do {
            let editor = try makeEditor(options: options, completing: nil)
            return TourPlayer(editor: editor, speed: options.tourSpeed).play()
                ? Draftline.ExitStatus.success : Draftline.ExitStatus.failure
        } catch {
            Console.write("draftline: \(error)\n", to: .error)
            return Draftline.ExitStatus.failure
        }
    }

    func run() -> Int32 {
        Signals.install()
        let editor: LineEditor
        do {
            editor = try Self.makeEditor(options: options, completing: session)
        } catch {
            Console.write("draftline: \(error)\n", to: .error)
            return Draftline.ExitStatus.failure
        }
        session.canPlayTour = true
        if let codeset = nl_langinfo(nl_item(CODESET)).map({ String(cString: $0) }), codeset != "UTF-8" {
            Console.write(
                "warning: the locale's character set is \(codeset), not UTF-8: only ASCII can be typed; "
                    + "run with LANG=C.UTF-8\n", to: .error, style: .warning)
        }
        let lineHistory = LineHistoryFile(directory: directory)
        var entered = lineHistory.load()
        editor.setHistory(entered)
        Console.write(
            "draftline: each chat keeps its unsent text as a draft while draftline runs. "
                + "/help lists commands, /tour shows the flow.\n", to: .output)
        while !session.hasQuit {
            let event = Self.readEvent(for: session, with: editor) { line in
                guard line.utf8.count <= Session.maximumLineBytes else { return }
                editor.addHistory(line)
                entered = Array((entered + [line]).suffix(lineHistory.limit))
                do { try lineHistory.save(entered) } catch {
                    Console.write(
                        "warning: the edit-line history was not saved: \(error)\n", to: .error, style: .warning)
                }
            }
            guard let event else { continue }
            Console.show(session.handle(event))
            if let speed = session.takeRequestedTour() {
                TourPlayer(editor: editor, speed: speed).play()
            }
        }
        return Draftline.ExitStatus.success
    }

    /// Reads one edit line for `session`, pre-filled with its draft, and turns what
    /// happened into an event; `entered` sees each non-empty line entered with Enter.
    static func readEvent(
        for session: Session, with editor: LineEditor, entered: (String) -> Void = { _ in }
    ) -> InputEvent? {
        let prefill = session.prefill
        switch editor.readLine(prompt: session.prompt, prefill: prefill?.text ?? "", cursor: prefill?.cursor) {
        case .entered(let line):
            if !line.isEmpty { entered(line) }
            return .line(line)
        case .left(let text, let cursor, let function):
            Console.write("\n", to: .output)
            guard let key = LeaveKey(functionName: function) else { return nil }
            return .leave(key, TextDraft(text: text, cursor: cursor))
        case .interrupted:
            Console.write("\n", to: .output)
            return .interrupt
        case .endOfFile:
            Console.write("\n", to: .output)
            return .endOfInput
        }
    }

    /// An editor with draftline's key functions, `~/.editrc` read, and Tab completing
    /// for `session`.
    private static func makeEditor(
        options: Options, completing session: Session?
    ) throws(LineEditorError)
        -> LineEditor
    {
        let editor = try LineEditor(programName: "draftline")
        for key in LeaveKey.allCases {
            try editor.addLeavingFunction(named: key.functionName, help: key.help)
            try editor.bind(key.defaultKeys, to: key.functionName)
        }
        editor.completer = { [weak session] before in
            guard let session else { return .none }
            switch session.complete(before) {
            case .insert(let text): return .insert(text)
            case .list(let candidates): return .list(candidates)
            case .none: return .none
            }
        }
        editor.sourceConfiguration()
        if let mode = options.editor { try editor.setEditor(mode) }
        return editor
    }
}

/// Signal handling on a terminal.
///
/// Ctrl-C interrupts the line being read: libedit returns with `EINTR` and the line is
/// abandoned. SIGTERM and SIGHUP end draftline at once, from the handler: libedit has
/// already set the terminal back to cooked mode before passing the signal on, the handler
/// puts back the exact settings draftline started with (`tcsetattr`) and calls `_exit`.
/// Both are async-signal-safe, and nothing is lost by not returning: every message was
/// stored durably when it was sent, and drafts are meant to be forgotten. (Setting a flag
/// instead would not do: a signal that lands while libedit is between reads leaves it
/// waiting for the next key.) The exit status is 128 plus the signal's number.
enum Signals {
    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var haveOriginal = false

    static func install() {
        haveOriginal = tcgetattr(0, &original) == 0
        set(SIGINT) { _ in }
        set(SIGTERM, terminate)
        set(SIGHUP, terminate)
    }

    private static let terminate: @convention(c) (Int32) -> Void = { signal in
        if Signals.haveOriginal { tcsetattr(0, TCSANOW, &Signals.original) }
        _exit(128 + signal)
    }

    private static func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}
