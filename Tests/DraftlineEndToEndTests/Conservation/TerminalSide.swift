import DraftlineTestSupport
import Foundation
import Glibc
import ReferenceModel

/// The binary on a pseudo-terminal: each step as the keys a person presses; `^X d` to look.
final class TerminalSide: Side {
    let vi: Bool
    var terminal: PseudoTerminal!
    /// The lines entered at the edit line, newest last (what `^R` searches).
    var history: [String] = []
    /// How many times draftline was started.
    var runs = 0

    init(vi: Bool) throws {
        self.vi = vi
        try super.init(name: "terminal", onPipe: false, vi: vi)
        try start()
    }

    func start() throws {
        runs += 1
        // A screen that holds a line over 64 KiB: libedit redraws the prompt with the line
        // only when the line fits the screen.
        terminal = try PseudoTerminal(
            executable: Fixture.executable,
            arguments: ["--data-dir", fixture.dataDirectory] + (vi ? ["--editor", "vi"] : []) + [
                "--trace-file", traceFile,
            ],
            environment: fixture.environment(["NO_COLOR": "1"]), rows: 200, columns: 500)
        guard try waitForRead() else { throw PseudoTerminal.Failure(description: "draftline did not start") }
    }

    /// Waits for the next read (draftline switches bracketed paste on when it asks for the
    /// first key: the line is drawn and the terminal raw); `false` when draftline ended.
    func waitForRead() throws -> Bool {
        try terminal.waitForAny(["\u{1B}[?2004h"], timeout: 30) != nil
    }

    /// The keys for a step.
    func keys(for step: ModelStep) -> String {
        switch step {
        case .type(let text): text
        case .paste(let text): "\u{1B}[200~" + text.replacingOccurrences(of: "\n", with: "\r") + "\u{1B}[201~"
        case .backspace(let count): String(repeating: "\u{7F}", count: count)
        case .deleteUnder: model.commandMode ? "x" : "\u{4}"
        case .killLine: "\u{15}"
        case .killToEnd: model.commandMode ? "D" : "\u{0B}"
        case .home: "\u{1}"
        case .end: "\u{5}"
        case .left: "\u{1B}[D"
        case .right: "\u{1B}[C"
        case .escape: "\u{1B}"
        case .viInsert: "i"
        case .viAppend: "a"
        case .viLeft: "h"
        case .viRight: "l"
        case .viHome: "0"
        case .viEnd: "$"
        case .redraw: "\u{0C}"
        case .recall: model.commandMode ? "k" : "\u{1B}[A"
        case .recallAndReturn: model.commandMode ? "kj" : "\u{1B}[A\u{1B}[B"
        case .downOnOwnLine, .down: model.commandMode ? "j" : model.vi ? "\u{0E}" : "\u{1B}[B"
        case .searchThenInterrupt: ""
        case .enter: "\r"
        case .leave(let key): "\u{18}" + key.rawValue
        case .interrupt: "\u{3}"
        case .endOfFile: "\u{4}"
        case .arrival, .look: ""
        }
    }

    /// Plays a step: its keys, then the model; waits for the next read when the step ends
    /// one. Returns what went wrong with the process itself (it quit, or did not).
    func play(_ step: ModelStep) throws -> String? {
        // Only a Ctrl-D on an empty line can end draftline: wait for the next read or the end.
        // Every other step is followed by a look, which waits for draftline in either case
        // (a read that ended or one that goes on, as after a refused Enter).
        let mayQuit = step == .endOfFile && model.line.isEmpty && model.prompt == .none
        if step == .enter, model.prompt == .none, !model.line.isEmpty, history.last != model.line.text {
            history.append(model.line.text)
        }
        if step == .arrival {
            try arrive()
        } else if case .searchThenInterrupt(let pattern) = step {
            // The search looks back from the cursor: in the line itself first (the cursor goes
            // to the match), else in the newest line entered that holds the pattern.
            let scalars = Array(model.line.text.unicodeScalars)
            let wanted = Array(pattern.unicodeScalars)
            let here = scalars.indices.filter {
                $0 < model.line.cursor && scalars[$0...].starts(with: wanted)
            }.last
            try terminal.send("\u{12}" + pattern + "\u{3}")
            if let here {
                model.apply(.home)
                for _ in 0..<here { model.apply(.right) }
            }
            let found = here != nil ? model.line.text : history.last { $0.contains(pattern) }
            model.apply(.searchThenInterrupt(found ?? model.line.text))
        } else {
            try terminal.send(keys(for: step))
            model.apply(step)
        }
        guard mayQuit else { return model.quit ? "the model quit, not on a Ctrl-D" : nil }
        let read = try waitForRead()
        switch (read, model.quit) {
        case (true, false): return nil
        case (false, true):
            _ = try terminal.waitForExit()
            model.restart()
            try start()
            return nil
        case (true, true):
            model.restart()
            return "draftline did not quit"
        case (false, false):
            _ = try? terminal.waitForExit()
            model.restart()
            try start()
            return "draftline quit"
        }
    }

    /// A recall by `keys` (Up, `k`, `^R` and a pattern then `^E`): the model is told what
    /// the line now shows (the history is libedit's), and then looks.
    /// `down`: the keys are Down's while a recall shows (``ModelStep/down(_:)``).
    func recall(keys: String, down: Bool = false) throws -> Observation? {
        try terminal.send(keys)
        guard let seen = try look() else { return nil }
        let shown = Observation.unshown(seen.line ?? "")
        model.apply(down ? .down(shown) : .recall(shown))
        return seen
    }

    /// `^X d`: the drafts, the undo stack, the edit line and the prompt drawn again; `nil`
    /// when draftline ended.
    func look() throws -> Observation? {
        try terminal.send("\u{18}d")
        guard let (_, before) = try terminal.waitForAny(["edit line: \""], timeout: 30) else { return nil }
        let row = try terminal.waitFor("\r\n", timeout: 30)
        guard let (index, _) = try terminal.waitForAny(Observation.prompts, timeout: 30) else {
            throw PseudoTerminal.Failure(description: "draftline ended during ^X d")
        }
        model.apply(.look)
        try readSent()
        return Observation(
            listing: before + "edit line: \"" + row, place: Observation.place(ofPrompt: Observation.prompts[index]))
    }

    /// After a disagreement: a fresh process and a fresh model (history and messages stay).
    func startAgain() throws {
        terminal.signal(SIGKILL)
        _ = try? terminal.waitForExit()
        try readSent()
        model.restart(sent: sent)
        try start()
    }

    /// The terminal's last output, for a failure.
    var lastOutput: String { String(terminal.text.suffix(3000)) }
}
