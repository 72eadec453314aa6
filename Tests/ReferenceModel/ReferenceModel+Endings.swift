/// How a read ends: Enter, a leave key, Ctrl-C, Ctrl-D; on a screen and on the prompts.
extension ReferenceModel {
    /// What Enter makes of a line.
    enum Verdict: Equatable {
        case empty, blank, refused
        case message(String)
        case command(String)
        /// A command typed into the draft as the user edited it around the command; `rest`
        /// is that draft.
        case commandInEdited(String, rest: ModelLine)
    }

    /// Whether `text` starts a command: `/` and not `//` (SPEC §1 "commands").
    static func isCommand(_ text: String) -> Bool { text.hasPrefix("/") && !text.hasPrefix("//") }

    /// Judges the entered line against the baseline.
    func judge(_ entered: ModelLine, recalled: Bool) -> Verdict {
        guard !entered.isEmpty else { return .empty }
        // SPEC §1a "a paste is text": "A line that cannot be entered (over 64 KiB) is never
        // destroyed" (whatever it holds).
        // README "Enter on a line over 64 KiB": a command typed into a draft over 64 KiB
        // counts by its own length: it runs, the draft stays.
        if entered.text.utf8.count > Self.lineLimit {
            if !recalled, !draftDisplaced, !baseline.isEmpty,
                let places = entered.commandInsertion(into: baseline.text),
                let typed = places.first(where: { $0.first == .typed && Self.isCommand($0.text) }),
                typed.text.utf8.count <= Self.lineLimit
            {
                return .command(typed.text)
            }
            if case .commandInEdited(let command, _)? = editedCommand(entered, recalled: recalled),
                command.utf8.count <= Self.lineLimit
            {
                return editedCommand(entered, recalled: recalled) ?? .refused
            }
            return .refused
        }
        // SPEC §1a "a command typed into a restored draft", "a / typed onto a restored draft"
        // and "the line's baseline": the line is judged against the draft as restored, not
        // against what the last read was given. A recalled line, or a line /undo filled
        // over the draft, is not the draft with an insertion: it is judged whole.
        if !recalled, !draftDisplaced, !baseline.isEmpty, let places = entered.insertion(into: baseline.text),
            let commands = entered.commandInsertion(into: baseline.text)
        {
            if let typed = commands.first(where: { $0.first == .typed && Self.isCommand($0.text) }) {
                return .command(typed.text)
            }
            // "`//` still sends a literal `/`": the insertion's first `/` is dropped (the
            // model's reading of a `//` typed into a draft: the same as at a line's start).
            if let slashes = commands.first(where: { $0.first == .typed && $0.text.hasPrefix("//") }) {
                // (Unless its first `/` is a failed attempt's, given back: that attempt again.)
                if givenFailedCommand, !escapesFailed(slashes.text), entered.isGivenBack(at: slashes.place) {
                    return .command(slashes.text)
                }
                var scalars = Array(entered.text.unicodeScalars)
                scalars.remove(at: slashes.place)
                return .message(String(String.UnicodeScalarView(scalars)))
            }
            // "a paste into a restored draft never makes it a command attempt (the draft and
            // the paste are one message when the user presses Enter)". A draft that is itself
            // a command line (left with a leave key) stays one: the paste did not make it so.
            if places.contains(where: { $0.first == .pasted }) && !Self.isCommand(baseline.text) {
                return entered.text.allSatisfy(\.isWhitespace) ? .blank : .message(entered.text)
            }
        }
        if let edited = editedCommand(entered, recalled: recalled) { return edited }
        // SPEC §1a "a command that fails": the line comes back to be fixed; a `/` typed after
        // the failed command's own makes no `//` escape (the new-user trial: `/` failed, then
        // `/drafts` typed after it had sent `/drafts`): that command attempt again.
        if givenFailedCommand, !escapesFailed(entered.text), entered.startsAsGivenBack, entered.text.hasPrefix("//") {
            return .command(entered.text)
        }
        // SPEC §1 "commands": a line that starts with `/` is a command; "a paste is text":
        // "on an empty edit line a pasted line is like a typed one".
        if Self.isCommand(entered.text) { return .command(entered.text) }
        let message = entered.text.hasPrefix("//") ? String(entered.text.dropFirst()) : entered.text
        return message.allSatisfy(\.isWhitespace) ? .blank : .message(message)
    }

    /// A command typed into the draft as the user edited it around the command, or a `//`.
    func editedCommand(_ entered: ModelLine, recalled: Bool) -> Verdict? {
        // SPEC §1a "the line's baseline": "Enter again after a failed command is a command
        // attempt again, a corrected command runs with the draft as it was, and deleting the
        // typed `/…` makes the line a plain draft", however the text around the typed part
        // was edited since: a stretch typed into the draft whose first character after
        // spaces is a typed `/` is a command attempt (`//` a literal `/`), and the rest of the
        // line is the draft as the user made it.
        // (A recalled line given back is history's text, not the draft's: it is judged whole.)
        guard !recalled, !draftDisplaced, !baseline.isEmpty, entered.text != baseline.text,
            entered.insertion(into: baseline.text) == nil, !entered.origins.contains(.recalled)
        else { return nil }
        var literal: String?
        for stretch in entered.typedStretches {
            let spaces = entered.scalars[stretch].prefix { $0 == " " || $0 == "\t" }.count
            let start = stretch.lowerBound + spaces
            guard start < stretch.upperBound, entered.scalars[start] == "/", entered.origins[start] == .typed
            else { continue }
            let text = String(String.UnicodeScalarView(entered.scalars[start..<stretch.upperBound]))
            if text.hasPrefix("//") {
                // (Its first `/` a failed attempt's, given back: that attempt again.)
                if givenFailedCommand, !escapesFailed(text), entered.isGivenBack(at: start) { return .command(text) }
                var scalars = entered.scalars
                scalars.remove(at: start)
                literal = literal ?? String(String.UnicodeScalarView(scalars))
                continue
            }
            var rest = entered.scalars
            rest.removeSubrange(stretch)
            let draft = ModelLine(String(String.UnicodeScalarView(rest)), cursor: stretch.lowerBound, origin: .draft)
            return .commandInEdited(text, rest: draft)
        }
        return literal.map(Verdict.message)
    }

    // MARK: - Enter

    mutating func enter() {
        commandMode = false
        switch prompt {
        case .name: return enterName()
        case .command: return enterCommandPrompt()
        case .none: break
        }
        let own = saved
        saved = nil
        let entered = line
        if !entered.isEmpty { historyHasLines = true }
        let verdict = judge(entered, recalled: own != nil)
        givenFailedCommand = false
        switch verdict {
        case .empty, .blank: blank(own: own)
        case .refused: refuse(entered, own: own)
        case .message(let text): send(text, entered: entered, own: own)
        case .command(let command): run(command, entered: entered, own: own)
        case .commandInEdited(let command, let rest): runEdited(command, entered: entered, rest: rest)
        }
    }

    /// A line given back after Enter: the same text, the cursor at its end (a new read
    /// pre-filled with it; SPEC §1a "a command that fails": "the line comes back as it was
    /// entered").
    mutating func giveBack(_ entered: ModelLine) {
        line = entered
        line.cursor = line.count
        startedFromDraft = false
    }

    /// An empty or blank line. SPEC §1 "send": "Whitespace-only text clears the draft and
    /// sends nothing"; README: "send a blank line: no text is sent (attachments waiting in
    /// the draft are); the draft's text goes on the undo stack".
    mutating func blank(own: ModelLine?) {
        if let own, !own.isEmpty { push(own.text, origin: key, cursor: own.cursor) }
        settleEdits()
        if let key, case .chat(let user) = screen {
            let draft = drafts[key]
            sent += Array(repeating: Message(chat: user, type: "image", text: ""), count: draft?.media ?? 0)
            if let draft, own.map({ !$0.text.contains(draft.text) }) ?? true {
                push(draft.text, origin: key, cursor: draft.cursor)
            }
            drafts[key] = nil
        }
        // Where no chat is open a blank line is nothing to keep (the model's reading of
        // "text where no chat is open ... stays": whitespace is not text worth an error);
        // the text kept there, which the user deleted, goes (optionally) as a draft would.
        // (When the user's own line a recall replaced holds it, that line carries it.)
        if let own, let kept, Self.holds(own, kept.text) { self.kept = nil } else { leaveKept(ModelLine()) }
        restore()
    }

    /// SPEC §1a "a paste is text": "A line that cannot be entered (over 64 KiB) is never
    /// destroyed: it stays in the line, or goes to the undo stack with the notice." It goes on
    /// the undo stack, whole, and the line starts from the baseline again, on a terminal and
    /// on a pipe (provenance's answer to D11: a line taller than the screen costs libedit
    /// minutes of redraw; on a pipe the next line must not be glued to it).
    mutating func refuse(_ entered: ModelLine, own: ModelLine?) {
        // Where no chat is open, the user's own line a recall replaced goes on the stack
        // below the refused line, and the line starts from the text held there, as after any
        // refusal (the conservation test, seed 7: the model dropped that own line).
        // In a chat too: the user's own line is theirs, and the line refused does not hold it
        // (seed 11, sequence 150: the model dropped it).
        if let own, !own.isEmpty, key == nil || !Self.holds(entered, own.text) {
            push(own.text, origin: key, cursor: own.cursor)
        }
        settleEdits(keptIn: entered.text)
        // (The cursor at its end, as a line given back after Enter has it: Enter says
        // nothing of where the cursor was. The conservation test, vi sequence 110.)
        push(entered.text, origin: key)
        restore()
    }

    /// A message: in a chat it is sent (SPEC §1 "send": the draft is removed first; its
    /// media go first); where no chat is open it cannot be.
    mutating func send(_ text: String, entered: ModelLine, own: ModelLine?) {
        guard let key, case .chat(let user) = screen else {
            // README: "text where no chat is open (home, a profile) and Enter or a leave key:
            // one error line, and the text stays in the edit line" (given back, cursor at its
            // end). On a pipe the next line must not be glued to it: it goes on the stack.
            // (The user's own line below the recalled lines they edited, as for a command.)
            if let own, !own.isEmpty { push(own.text, origin: nil, cursor: own.cursor) }
            settleEdits(keptIn: entered.text)
            if onPipe {
                // (The text kept there goes with the line that holds it; what of it the user
                // deleted with an editing key may go: the next line starts empty, as the
                // binary's pipe does.)
                passKept(to: entered)
                // (Its cursor at the end, as the terminal gives it back.)
                push(entered.text, origin: nil)
                restore()
            } else {
                // Given back to keep: the screen's baseline from now on.
                giveBack(entered)
                line.forgetStretches()
                kept = line
                baseline = line
            }
            return
        }
        let draft = drafts[key]
        drafts[key] = nil
        passKept(to: own ?? entered)
        sent += Array(repeating: Message(chat: user, type: "image", text: ""), count: draft?.media ?? 0)
        sent.append(Message(chat: user, type: "text", text: text))
        settleEdits(keptIn: text)
        if let own {
            // SPEC §1a "history recall (Up, ^R) then Enter": "when the sent text does not
            // contain the draft's text, the draft goes to the undo stack" — the user's own
            // line (the draft and what they typed into it) is what the recall replaced; it
            // is the top entry (as after Ctrl-C), above recalled lines they edited.
            settleStoredDraft(draft, keptIn: text, covered: own.text.contains(draft?.text ?? ""))
            // (A sent text that holds it only because the recalled line happens to spell it
            // holds none of what the user typed: draftline may keep it too. The conservation
            // test, emacs sequence 361: `hello` replaced by a recall of `…hello…`, sent.)
            if !own.isEmpty {
                push(own.text, origin: key, cursor: own.cursor, optional: text.contains(own.text))
            }
        } else {
            settleStoredDraft(draft, keptIn: text)
        }
        restore()
    }

    // MARK: - Leave keys

    mutating func leave(_ leave: ModelStep.Leave) {
        commandMode = false
        switch prompt {
        case .command, .name:
            // A leave key at a prompt: the typed command is text on the line (SPEC §1a
            // "Ctrl-C on any screen ... the ^X / command prompt: a non-empty line goes to the
            // undo stack with the notice"; a half-typed name is not text to keep), then the
            // key acts from the screen, whose draft the key that asked already kept.
            settleHeldForPrompt(backInLine: false)
            if prompt == .command && !line.isEmpty { push("/" + line.text, origin: nil) }
            prompt = .none
            switch leave {
            case .profile:
                switch screen {
                case .chat(let user), .profile(let user): go(to: .profile(user))
                case .home: break
                }
                restore()
            case .back:
                _ = back()
                restore()
            case .open: ask(.name)
            case .command: ask(.command)
            }
            return
        case .none:
            break
        }
        guard let key, case .chat(let user) = screen else {
            // D18: the key and its command behave alike. SPEC §2: `^X b` is `/back`'s key, and
            // `/back` typed into the text held here goes and puts the text on the undo stack
            // ("whenever text goes to the undo stack without the user asking, one line says
            // so"); so does the key, and `^X p`, `^X o`, `^X /` as their commands do. Nothing
            // is lost, nothing sent. A key that cannot act (`^X b` at home, `^X p` where no
            // user is shown) changes nothing, as its command fails and gives the line back.
            let acts: Bool =
                switch leave {
                case .back: screens.count > 1
                case .profile: if case .profile = screen { true } else { false }
                case .open, .command: true
                }
            if !line.isEmpty && acts {
                passKept(to: line)
                if !onPipe && (leave == .open || leave == .command) {
                    heldForPrompt = line
                } else {
                    push(line.text, origin: nil, cursor: line.cursor)
                }
                line = ModelLine()
            }
            if !line.isEmpty {
                // README: "text where no chat is open (home, a profile) and Enter: one error
                // line, and the text stays in the edit line", cursor and all (a new read: vi
                // starts it in insert mode); so after a key that cannot act. On a pipe it goes
                // on the undo stack (see ``send(_:entered:own:)``). (Over a recall the model
                // does not say where the user's own line goes: the test does not press a leave
                // key there.)
                if onPipe {
                    push(line.text, origin: nil, cursor: line.cursor)
                    line = ModelLine()
                } else {
                    // Kept for the user: that screen's baseline from now on (as after Enter).
                    line.forgetStretches()
                    kept = line
                    baseline = line
                    startedFromDraft = false
                }
                return
            }
            let own = saved
            saved = nil
            settleEdits()
            if let own, !own.isEmpty { push(own.text, origin: nil, cursor: own.cursor) }
            switch leave {
            case .back:
                guard screens.count > 1 else { return }
                leaveKept(ModelLine())
                _ = back()
                restore()
            case .profile:
                // At a profile, its user's profile again (as `/profile` there); home has none.
                if case .profile(let user) = screen {
                    leaveKept(ModelLine())
                    go(to: .profile(user))
                    restore()
                }
            case .open:
                leaveKept(ModelLine())
                ask(.name)
            case .command:
                leaveKept(ModelLine())
                ask(.command)
            }
            return
        }
        let own = saved
        saved = nil
        // SPEC §1 "save": the edit buffer is saved as the draft; README: "an empty line
        // removes the draft, onto the undo stack". SPEC §1a "a recalled command entered over
        // text" and the law: the user's own line a recall replaced stays, here on the stack.
        let draft = drafts[key]
        passKept(to: own ?? line)
        // (The user's latest text on top, as for a command: their own line, then the
        // recalled lines they edited; the SPEC names the top entry only for Ctrl-C.)
        if let own, !own.isEmpty, !line.text.contains(own.text) {
            push(own.text, origin: key, cursor: own.cursor)
        }
        settleEdits(keptIn: line.text)
        if let own, let draft, !line.isEmpty, !own.text.contains(draft.text) {
            // The stored draft was out of sight (after a quit warning): it goes too.
            settleStoredDraft(draft, keptIn: line.text)
        }
        if line.isEmpty {
            if let draft, !draft.text.isEmpty, own.map({ !$0.text.contains(draft.text) || $0.isEmpty }) ?? true {
                push(draft.text, origin: key, cursor: draft.cursor)
            }
        } else if own == nil {
            settleStoredDraft(draft, keptIn: line.text)
        }
        let attempt = own == nil ? attempt(line) : nil
        store(line.text, cursor: line.cursor, in: key)
        // D16: a draft kept with an attempt in it is that attempt when it comes back.
        attempts[key] = attempt
        switch leave {
        case .profile:
            go(to: .profile(user))
            restore()
        case .back:
            _ = back()
            restore()
        case .open: ask(.name)
        case .command: ask(.command)
        }
    }

    mutating func ask(_ question: Prompt) {
        prompt = question
        line = ModelLine()
        saved = nil
        draftDisplaced = false
    }

    // MARK: - The prompts

    /// SPEC §1a "an invalid name at the ^X o prompt": "the error is shown and the prompt
    /// asks again; an empty line, Ctrl-C or Ctrl-D cancels it."
    mutating func enterName() {
        let name = line.text
        if name.isEmpty {
            restore()
            return settleHeldForPrompt(backInLine: true)
        }
        if Self.users.contains(name) {
            settleHeldForPrompt(backInLine: false)
            go(to: .chat(name))
            return restore()
        }
        // Asked again with the name to fix (terminal); a pipe's next line is the next name.
        if onPipe { line = ModelLine() } else { giveBack(line) }
    }

    /// SPEC §1a "a command while a draft is in the line": "^X / asks for a command on its
    /// own prompt and leaves the draft saved, cursor and all; the draft is back after the
    /// command." An empty line cancels; a command that fails asks again (as the name prompt).
    mutating func enterCommandPrompt() {
        guard !line.isEmpty else {
            restore()
            return settleHeldForPrompt(backInLine: true)
        }
        let entered = line
        // (A `/` typed again at "command: /" is the command's own: draftline's reading.)
        switch perform(entered.text.hasPrefix("/") ? entered.text : "/" + entered.text) {
        case .failed:
            if onPipe { line = ModelLine() } else { giveBack(entered) }
        case .stayed:
            restore()
            settleHeldForPrompt(backInLine: true)
        case .filledLine:
            settleHeldForPrompt(backInLine: false)
        case .went(let next):
            // (The same screen again, a profile's `/profile`, is staying.)
            let same = next == screen
            if !same { settleHeldForPrompt(backInLine: false) }
            go(to: next)
            restore()
            if same { settleHeldForPrompt(backInLine: true) }
        case .wentBack:
            settleHeldForPrompt(backInLine: false)
            _ = back()
            restore()
        }
    }

    // MARK: - Ctrl-C and Ctrl-D

    /// SPEC §1a "Ctrl-C": "abandons the line ... the line comes back empty. The draft that
    /// was in it goes to the undo stack"; "Ctrl-C on any screen": "a non-empty line goes to
    /// the undo stack with the notice (at a name prompt Ctrl-C only cancels)".
    mutating func interrupt() {
        commandMode = false
        switch prompt {
        case .name:
            restore()
            return settleHeldForPrompt(backInLine: true)
        case .command:
            if !line.isEmpty { push("/" + line.text, origin: nil) }
            restore()
            return settleHeldForPrompt(backInLine: true)
        case .none: break
        }
        let own = saved
        saved = nil
        let draft = key.flatMap { drafts[$0] }
        let entries = undo.count
        if let own {
            // SPEC §1a "notices": "Ctrl-C during ^R settles the user's own text (the draft and
            // what they typed), never a recalled history line, as the top undo entry." The
            // recalled line is a copy of the history: draftline may keep it below the user's
            // own text (optional, whatever its text), never on top. A recalled line the user
            // edited holds their editing: it goes on the stack, below their own text.
            if !line.isEmpty && line.text != own.text {
                if line.text != recalled {
                    push(line.text, origin: key, cursor: line.cursor, optional: !line.holdsUserText)
                } else if !own.isEmpty {
                    push(line.text, origin: key, optional: true, anyText: true)
                }
            }
            if let draft, !own.text.contains(draft.text) { settleStoredDraft(draft, keptIn: own.text) }
            settleEdits()
            push(own.text, origin: key, cursor: own.cursor)
        } else {
            settleStoredDraft(draft, keptIn: line.text)
            if let kept, !kept.isEmpty, !line.text.contains(kept.text) {
                push(kept.text, origin: nil, cursor: kept.cursor, optional: true)
            }
            // A draft's attempt abandoned is an attempt when `/undo` brings it back.
            push(line.text, origin: key, cursor: line.cursor, attempt: key == nil ? nil : attempt(line))
        }
        kept = nil
        if let key, let media = drafts[key]?.media, media > 0 {
            // README "Ctrl-C": "the draft's attached files go with it": onto the entry of
            // what the user was writing, or an entry of their own, never left for the next
            // message.
            if undo.count > entries, undo[0].origin == key, undo[0].media == 0 {
                undo[0].media = media
                undo[0].optional = false
            } else {
                push("", origin: key, media: media)
            }
            drafts[key]?.media = 0
        }
        if let key { store("", cursor: 0, in: key) }
        line = ModelLine()
        baseline = line
        draftDisplaced = false
    }

    /// The drafts a quit now would forget. SPEC §1a's law: text the user deleted with an
    /// editing key may go, so this chat's draft, when the user emptied the line that held it
    /// (the line is empty, and neither a recall nor `/undo` took the draft out of sight), is
    /// no draft to warn of (D17: "an empty draft is no draft"); its media would still be one.
    var forgotten: [String: Draft] {
        guard let key, line.isEmpty, saved == nil, !draftDisplaced, drafts[key]?.media == 0 else { return drafts }
        return drafts.filter { $0.key != key }
    }

    /// SPEC §1a "Ctrl-D": on an empty line with drafts (README: or undo entries) the first
    /// press warns and a Ctrl-D that is the very next key quits; with none it quits at once;
    /// "At a name prompt it cancels the prompt" (the command prompt too, the model decides,
    /// as it cancels on an empty line). SPEC §1a "vi mode": the same in command mode.
    mutating func endOfFile(afterWarning: Bool) {
        if prompt != .none {
            restore()
            return settleHeldForPrompt(backInLine: true)
        }
        guard line.isEmpty else {
            line.deleteUnder(staysOnLine: commandMode)
            return
        }
        // The warning ends the read: the user's own line a recall replaced is put away first
        // (it counts among what would be forgotten).
        if let own = saved {
            settleEdits()
            push(own.text, origin: key, cursor: own.cursor)
            saved = nil
        }
        if afterWarning || (forgotten.isEmpty && undo.isEmpty) {
            quit = true
        } else {
            warned = true
        }
    }
}
