import Foundation
import ReferenceModel

/// The alphabet: what a sequence can do, on every screen and prompt, in emacs and vi mode.
/// Each entry is one or a few abstract steps; both sides are looked at after each entry.
extension ConservationDriver {
    var model: ReferenceModel { terminal.model }

    static let fillers = ["hello", "草稿", "😀", "ok", "é", "at 5", "src/", "help/"]
    static let prefixes = ["", "", "草", "😀", "é"]
    /// Commands typed into the line: known, mistyped, failing on their argument.
    static let commands = [
        "/drafts", "/undo", "/discard", "/chats", "/chats 1", "/history 2", "/open alice", "/open bob", "/back",
        "/profile", "/drfts", "/opne bob", "/history x", "/open nobody", "/open Not Valid", "/discard now",
        "/profile nobody", "/attach /nope/file.png",
    ]

    /// Text of about `bytes` bytes in a quarter as many characters (U+1D400, four bytes,
    /// one cell): a line over 64 KiB that libedit can still redraw within seconds.
    static func wide(bytes: Int) -> String { String(repeating: "\u{1D400}", count: bytes / 4) }

    /// A token of text the sequence types (unique, so that a look can tell texts apart).
    func token() -> String {
        tokens += 1
        return Self.prefixes.randomElement(using: &random)! + "T" + String(format: "%05d", tokens)
    }

    /// Back to vi's insert mode before text, when in command mode.
    var insertMode: [ModelStep] { vi && model.commandMode ? [.viInsert] : [] }

    /// An empty line by editing keys (`^U`; in vi, to the start, delete to the end, insert).
    var clear: [ModelStep] {
        guard !model.line.isEmpty else { return insertMode }
        return vi ? (model.commandMode ? [] : [.escape]) + [.viHome, .killToEnd, .viInsert] : [.killLine]
    }

    /// Edits the line, ends it; quits first when the undo stack grows long (it keeps 20).
    func playLine() throws {
        if model.undo.count >= 15 { return try quit() }
        switch model.prompt {
        case .name: return try endName()
        case .command: return try endCommandPrompt()
        case .none: break
        }
        // A line given back (a failed command): Enter again, edit the typed part, edit the
        // text around it (then Enter again, or fix the command too), or clear.
        let typed = model.line.count - model.baseline.count
        if !model.line.isEmpty && model.line != model.baseline && Self.isGivenBack(model) && pick(60) {
            let start: [ModelStep] = vi ? (model.commandMode ? [] : [.escape]) + [.viHome, .viInsert] : [.home]
            let end: [ModelStep] = vi ? [.escape, .viEnd, .viAppend] : [.end]
            let filler = Self.fillers.randomElement(using: &random)!
            switch Int.random(in: 0..<13, using: &random) {
            case 8..<10: return try play("edit-around-typed-part", start + [.type(filler), .enter])
            case 10..<13 where typed > 0:
                let cut = Int.random(in: 1...typed, using: &random)
                let command = Self.commands.randomElement(using: &random)!
                return try play(
                    "edit-around-and-fix",
                    start + [.type(filler)] + end + [.backspace(cut), .type(command), .enter])
            case 0..<3: return try play("Enter-again", [.enter])
            case 3..<6 where typed > 0:
                let cut = Int.random(in: 1...typed, using: &random)
                let command = Self.commands.randomElement(using: &random)!
                return try play("edit-typed-part", insertMode + [.backspace(cut), .type(command), .enter])
            case 6..<8 where typed > 0:
                return try play("delete-typed-part", insertMode + [.backspace(typed), .enter])
            default: try play("clear", clear)
            }
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) { try edit() }
        try end()
    }

    /// Whether the line is one a failed command gave back (it starts with `/`, or holds the
    /// baseline with a `/` typed into it).
    static func isGivenBack(_ model: ReferenceModel) -> Bool {
        model.line.text.hasPrefix("/")
            || (model.line.commandInsertion(into: model.baseline.text)?.contains { $0.text.hasPrefix("/") } ?? false)
    }

    // MARK: - Editing

    func edit() throws {
        if vi && model.commandMode { return try viCommandKey() }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<34 where model.line.text.hasSuffix("/") && model.line.cursor == model.line.count && pick(50):
            // A word ending in `/` right after one: `src/` after a draft's `usr/` is text.
            try play("slash-word", [.type(["src/", "help/", "quit/"].randomElement(using: &random)!)])
        case 0..<34:
            let text =
                (model.line.isEmpty || pick(30) ? "" : " ") + token()
                + (pick(30) ? " " + Self.fillers.randomElement(using: &random)! : "")
            try play("type", [.type(text)])
        case 34..<42: try paste()
        case 42..<46: try play("arrival", [.arrival])
        case 46..<56 where !vi:
            let motion: [ModelStep] = [.home, .end, .left, .right]
            let step = motion.randomElement(using: &random)!
            try play(step.description, [step])
        case 46..<56: try play("Escape", [.escape])
        case 56..<66: try deleteKey()
        case 66..<72: try recall("Up", keys: "\u{1B}[A")
        case 72..<77 where pick(10):
            // Over a line longer than libedit saves at a recall (1,024 characters, D13).
            try play("long-Up-Down", [.paste(token() + String(repeating: "é", count: 1_100)), .recallAndReturn])
        case 72..<77: try play("Up-Down", [.recallAndReturn])
        case 77..<81 where model.line.isEmpty && !model.recallShowing && model.historyHasLines && pick(40):
            try editRecallOverEmptyLine()
        case 77..<79 where !model.recallShowing: try play("Down", [.downOnOwnLine])
        case 77..<81 where model.recallShowingOverText: try recall("Down-over-recall", keys: "\u{1B}[B", down: true)
        case 77..<81 where !vi: try search()
        case 77..<81: try play("Ctrl-L", [.redraw])
        case 81..<84: try play("Ctrl-L", [.redraw])
        default: try play("type-filler", [.type(Self.fillers.randomElement(using: &random)!)])
        }
    }

    /// A bracketed paste: tokens on one to three lines; sometimes one that starts with `/`,
    /// one with an early `ESC[201~` and a line break after it, one over 32 KiB (two make a
    /// line that cannot be entered).
    func paste() throws {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 3 {
            let size = 34_000 + Int.random(in: 0..<2000, using: &random)
            let text = token() + Self.wide(bytes: size) + token()
            return try play("paste-over-long", [.paste(text)])
        }
        var text = roll < 15 ? "/etc/" : ""
        for index in 0..<Int.random(in: 1...3, using: &random) {
            if index > 0 { text += "\n" }
            text += token()
        }
        if roll >= 15 && roll < 25 {
            return try play("paste-early-end", [.paste(token() + "\u{1B}[201~\n" + text)])
        }
        if roll >= 25 && roll < 40 {
            // Two pastes back to back, in one burst: an end marker right before a start.
            return try play("paste-paste", [.paste(text + "\u{1B}[201~\u{1B}[200~" + token())])
        }
        try play(roll < 15 ? "paste-slash" : "paste", [.paste(text)])
    }

    /// Up over an empty line, a word typed onto the recalled line, and Down back to the
    /// empty own line (terminal only, as every recall): the edited recall is the user's
    /// though the line it returns to is empty, as a `^U` over the recall would leave it.
    func editRecallOverEmptyLine() throws {
        try recall("Up", keys: "\u{1B}[A")
        guard model.recallShowing, model.ownLine.isEmpty else { return }
        // (vi: typed in insert mode, then back to command mode for `j`.)
        let steps: [ModelStep] = vi ? [.viAppend, .type(" " + token()), .escape] : [.type(" " + token())]
        for step in steps where step != .viAppend || model.commandMode {
            if let problem = try terminal.play(step) {
                _ = check(terminal, [], problem)
                return try terminal.startAgain()
            }
        }
        try recall("Down-to-empty-line", keys: vi ? "j" : "\u{1B}[B", down: true)
    }

    /// Keys in vi's command mode: motion, `x`, `k` (recall), back to insert mode, Ctrl-L.
    func viCommandKey() throws {
        let count = model.line.count
        switch Int.random(in: 0..<11, using: &random) {
        case 0: try play("h", [.viLeft])
        case 1: try play("l", [.viRight])
        case 2: try play("0", [.viHome])
        case 3 where count > 0: try play("$", [.viEnd])
        case 4 where count > 0: try play("x", [.deleteUnder])
        case 5: try recall("k", keys: "k")
        case 6: try play("a", [.viAppend])
        case 7: try play("Ctrl-L", [.redraw])
        case 8: try play("k-j", [.recallAndReturn])
        case 9 where !model.recallShowing: try play("j", [.downOnOwnLine])
        case 9 where model.recallShowingOverText: try recall("j-over-recall", keys: "j", down: true)
        default: try play("i", [.viInsert])
        }
    }

    /// Backspace, or killing the line (`^U`) or its end (`^K`), in insert mode.
    func deleteKey() throws {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: try play("Backspace", [.backspace(1)])
        case 6..<8 where !vi: try play("^K", [.killToEnd])
        default: try play("clear", clear)
        }
    }

    /// `^R` and part of a token of a sent message, then `^E`: the newest line entered that
    /// holds it (or the line itself, when it holds it).
    func search() throws {
        guard let pattern = searchPattern() else { return try recall("Up", keys: "\u{1B}[A") }
        try recall("^R", keys: "\u{12}" + pattern + "\u{5}")
    }

    func searchPattern() -> String? {
        guard let target = terminal.sent.last(where: { $0.type == "text" && $0.text.contains("T") })?.text,
            let range = target.range(of: "T")
        else { return nil }
        return String(target[range.lowerBound...].prefix(4))
    }

    // MARK: - Endings

    func end() throws {
        var roll = Int.random(in: 0..<100, using: &random)
        // Where no chat is open, mostly go to one; no leave key over a recall there (the
        // SPEC does not say where the user's own line goes: see ReferenceModel.leave).
        if case .chat = model.screen {} else if pick(40) { roll = 99 }
        if model.key == nil && model.recallShowing && (40..<71).contains(roll) { roll = 0 }
        // Now and then a line over 64 KiB (two pastes, or typing and a paste), then Enter.
        if pick(1) {
            // (A look between two pastes: a terminal ends a paste at its last ESC[201~ before
            // the input pauses, and a person never pastes twice within 30 ms.)
            let big = { (size: Int) in self.token() + Self.wide(bytes: size) + self.token() }
            if pick(50) {
                try play("paste-over-long", insertMode + [.paste(big(35_000))])
                return try play("over-long-Enter", [.paste(big(35_000)), .enter])
            }
            return try play("over-long-Enter", insertMode + [.type(token()), .paste(big(68_000)), .enter])
        }
        switch roll {
        case 0..<24: try play("Enter", [.enter])
        case 24..<40: try commandIntoLine()
        case 40..<49: try play("^Xp", [.leave(.profile)])
        case 49..<58: try play("^Xb", [.leave(.back)])
        case 58..<65: try play("^Xo", [.leave(.open)])
        case 65..<71: try play("^X/", [.leave(.command)])
        case 71..<81: try play("Ctrl-C", [.interrupt])
        case 81..<84 where !vi && model.historyHasLines:
            guard let pattern = searchPattern() else { return try play("Ctrl-C", [.interrupt]) }
            try play("^R-Ctrl-C", [.searchThenInterrupt(pattern)])
        case 84..<89:
            let runs = terminal.runs
            try play("Ctrl-D", clear + [.endOfFile])
            if terminal.runs == runs && model.line.isEmpty && pick(30) {
                try play("Ctrl-D-twice", [.endOfFile, .endOfFile])
            }
        case 89..<92 where model.key != nil:
            try play("/attach", clear + [.type("/attach \(terminal.attachment)"), .enter])
        case 92..<95:
            let command = ["/undo", "/discard", "/drafts"].randomElement(using: &random)!
            try play("fresh-command", clear + [.type(command), .enter])
        default:
            let command = ["/open alice", "/open bob", "/back", "/profile alice"].randomElement(using: &random)!
            try play("fresh-command", clear + [.type(command), .enter])
        }
    }

    /// A command typed into the line at a random place (a restored draft, a line given
    /// back, or text typed now), then Enter; sometimes `//` and text.
    func commandIntoLine() throws {
        let scalars = Array(model.line.text.unicodeScalars)
        let boundaries = [0] + scalars.indices.filter { scalars[$0] == " " || scalars[$0] == "\n" } + [scalars.count]
        var place =
            pick(80) ? boundaries.randomElement(using: &random)! : Int.random(in: 0...scalars.count, using: &random)
        // At most `reach` keys from the nearer end: each key over a line of tens of
        // kilobytes costs libedit a redraw of it (sequence 340 of the emacs seed: thousands
        // of Right over a 35 KB line ran past the look's 30 s), and the place is what is
        // tested, not the walk there. (No random draw: the stream stays as it was.)
        let reach = 64
        let fromEnd = scalars.count - place
        if place > reach && fromEnd > reach { place = place - reach < fromEnd - reach ? reach : scalars.count - reach }
        let chosen = pick(5) ? "//" + token() : Self.commands.randomElement(using: &random)!
        // Sometimes set apart from the text before it by a space, as people type.
        let command = pick(15) ? " " + chosen : chosen
        var steps: [ModelStep]
        if vi {
            steps = model.commandMode ? [] : [.escape]
            if place <= reach || scalars.isEmpty {
                steps.append(.viHome)
                let moves = min(place, max(0, scalars.count - 1))
                steps += Array(repeating: .viRight, count: moves)
                steps.append(place > moves ? .viAppend : .viInsert)
            } else {
                // From the last character: `$`, `h` back to the place, then insert before it
                // (or append after the last).
                steps.append(.viEnd)
                let back = max(0, scalars.count - 1 - place)
                steps += Array(repeating: .viLeft, count: back)
                steps.append(place == scalars.count ? .viAppend : .viInsert)
            }
        } else if place <= reach {
            steps = [.home] + Array(repeating: .right, count: place)
        } else {
            steps = [.end] + Array(repeating: .left, count: scalars.count - place)
        }
        try play("command-into-line", steps + [.type(command), .enter])
    }

    /// "open chat with:": a name (good, unknown, invalid), empty (cancels), Ctrl-C, Ctrl-D.
    func endName() throws {
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1:
            try play("name", clear + [.type(["alice", "bob"].randomElement(using: &random)!), .enter])
        case 2, 3:
            try play(
                "bad-name",
                clear + [.type(["ali", "bo", "nobody", "Not Valid"].randomElement(using: &random)!), .enter])
        case 4: try play("Ctrl-C-at-name", [.interrupt])
        case 5: try play("Ctrl-D-at-name", clear + [.endOfFile])
        default: try play("empty-name", clear + [.enter])
        }
    }

    /// "command: /": a command (good or not), Ctrl-C (the text goes on the undo stack),
    /// Ctrl-D, `^X b`, or an empty line.
    func endCommandPrompt() throws {
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1, 2:
            let command = String(Self.commands.randomElement(using: &random)!.dropFirst())
            try play("prompt-command", insertMode + [.type(command), .enter])
        case 3:
            try play("Ctrl-C-at-command", insertMode + (pick(50) ? [.type(token())] : []) + [.interrupt])
        case 4: try play("Ctrl-D-at-command", clear + [.endOfFile])
        case 5: try play("^Xb-at-command", insertMode + (pick(50) ? [.type(token())] : []) + [.leave(.back)])
        default: try play("empty-at-command", clear + [.enter])
        }
    }

    /// Quits: Ctrl-D until it ends (a warning first while drafts or undo entries wait; a look
    /// carries on, so the driver presses Ctrl-D again, then the very next Ctrl-D quits).
    func quit() throws {
        let runs = terminal.runs
        try play("Ctrl-D", clear + [.endOfFile])
        guard terminal.runs == runs, model.line.isEmpty else { return }
        try play("Ctrl-D-twice", [.endOfFile, .endOfFile])
    }
}
