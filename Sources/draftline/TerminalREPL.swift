import DraftKit
import Glibc
import LineEditor

/// The REPL on a terminal: libedit reads each line, pre-filled with the chat's draft.
struct TerminalREPL {
    let session: Session
    let options: Options
    let directory: String

    func run() -> Int32 {
        Signals.install()
        let editor: LineEditor
        do {
            editor = try makeEditor()
        } catch {
            Console.write("draftline: \(error)\n", to: .error)
            return Draftline.ExitStatus.failure
        }
        let lineHistory = LineHistoryFile(directory: directory)
        var entered = lineHistory.load()
        editor.setHistory(entered)
        Console.write(
            "draftline: each chat keeps its unsent text as a draft while draftline runs. /help lists commands.\n",
            to: .output)
        while !session.hasQuit {
            let prefill = session.prefill
            let input = editor.readLine(prompt: session.prompt, prefill: prefill?.text ?? "", cursor: prefill?.cursor)
            if Signals.termination != 0 { break }
            let event: InputEvent
            switch input {
            case .entered(let line):
                if !line.isEmpty {
                    editor.addHistory(line)
                    entered.append(line)
                    do { try lineHistory.save(entered) } catch {
                        Console.write("warning: the edit-line history was not saved: \(error)\n", to: .error)
                    }
                }
                event = .line(line)
            case .left(let text, let cursor, let function):
                Console.write("\n", to: .output)
                guard let key = LeaveKey(functionName: function) else { continue }
                event = .leave(key, TextDraft(text: text, cursor: cursor))
            case .interrupted:
                Console.write("\n", to: .output)
                event = .interrupt
            case .endOfFile:
                Console.write("\n", to: .output)
                event = .endOfInput
            }
            Console.show(session.handle(event))
        }
        if Signals.termination != 0 { Console.show(session.handle(.endOfInput)) }
        return Draftline.ExitStatus.success
    }

    private func makeEditor() throws(LineEditorError) -> LineEditor {
        let editor = try LineEditor(programName: "draftline")
        for key in LeaveKey.allCases {
            try editor.addLeavingFunction(named: key.functionName, help: key.help)
            try editor.bind(key.defaultKeys, to: key.functionName)
        }
        editor.completer = { [session] before in
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

/// Signal handling on a terminal. Ctrl-C interrupts the line being read (libedit returns
/// with `EINTR`); SIGTERM and SIGHUP end the REPL cleanly, so `el_end` restores the
/// terminal. Handlers are installed without `SA_RESTART` so that the read returns.
enum Signals {
    nonisolated(unsafe) static var termination: Int32 = 0

    static func install() {
        set(SIGINT) { _ in }
        set(SIGTERM) { Signals.termination = $0 }
        set(SIGHUP) { Signals.termination = $0 }
    }

    private static func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}
