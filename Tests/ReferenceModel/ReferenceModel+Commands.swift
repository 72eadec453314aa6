/// Commands (SPEC §2): what each does to the screens, the drafts and the undo stack.
extension ReferenceModel {
    /// What a command did.
    enum Outcome: Equatable {
        /// A usage error, an unknown name or user: the error is shown; nothing changed.
        case failed
        /// It ran; the screen is the same.
        case stayed
        /// It ran and set the line itself (`/undo`, `/discard`).
        case filledLine
        /// It ran and leaves for this screen.
        case went(Screen)
        /// It ran and pops the stack (`/back`).
        case wentBack
    }

    /// A command entered at the edit line: typed into a restored draft, typed on its own, or
    /// recalled over the user's own line (`own`).
    @discardableResult
    mutating func run(_ command: String, entered: ModelLine, own recalledOver: ModelLine?) -> Outcome {
        // SPEC §1a "a recalled command entered over text": "text that was in the line before
        // the recall (a restored draft and what was typed into it) stays: as the draft, or
        // on the undo stack with the notice". That text is the user's latest before the
        // recall. In a chat it is the draft, the line before the first recall: a recalled
        // line they edited is a copy of the history's, and never takes the draft's place
        // (D21: the binary keeps the draft, the edited recalls go on the stack); the draft is
        // the draft before the command runs (so a command that leaves keeps it, and one that
        // stays gives it back, cursor where it was: issue 28 item 10). Where no chat is open
        // there is no draft to keep it: the latest (a recalled line they edited, else their
        // line before the first recall) goes on the stack, on top, the older ones below.
        // README "delete the whole draft from the line, then run a command": the draft the
        // user deleted (the line held it, nothing displaced it, and the command was not typed
        // into it) stays the draft (SPEC §1: a command never changes it), and the line comes
        // back as they left it, empty, while the command stays in the chat and leaves the
        // draft's text as it was.
        let emptiedKey = key
        let emptied: Draft? = {
            guard let key, let draft = drafts[key], !draft.text.isEmpty, !draftDisplaced,
                edits.isEmpty
            else { return nil }
            if let recalledOver { return recalledOver.isEmpty ? draft : nil }
            // (A line that is the draft with at most one insertion holds it; another that only
            // spells its text, in an argument, does not.)
            guard entered.text != draft.text, entered.insertion(into: draft.text) == nil,
                entered.insertion(into: baseline.text) == nil
            else { return nil }
            return draft
        }()
        var own = recalledOver
        // (A recalled line the user only deleted from holds nothing they wrote: it may go.)
        if let first = own, !edits.isEmpty {
            if key == nil, let latest = edits.lastIndex(where: \.holdsUserText) {
                own = edits.remove(at: latest)
                if !first.isEmpty { push(first.text, origin: key, cursor: first.cursor) }
            }
            for edited in edits where key == nil || !first.text.contains(edited.text) {
                push(edited.text, origin: key, cursor: edited.cursor, optional: !edited.holdsUserText)
            }
            edits = []
        }
        let homeless = own.flatMap { key == nil && !$0.isEmpty ? $0 : nil }
        // (The text held in the line goes on the stack with the user's line that holds it.)
        if let homeless, let kept, Self.holds(homeless, kept.text) { self.kept = nil }
        if let own, !own.isEmpty, let key, own.text != drafts[key]?.text || own.cursor != drafts[key]?.cursor {
            // (README "cursor where it was": where the user left it when they recalled, moved
            // or not; the draft as restored, untouched, stays as it is.)
            settleStoredDraft(drafts[key], keptIn: own.text)
            store(own.text, cursor: own.cursor, in: key)
            baseline = ModelLine(own.text, cursor: own.cursor, origin: .draft)
            draftDisplaced = false
        }
        // (It goes on the stack as the command is entered, before the command runs: `/undo`
        // typed over a recall brings back the line the recall replaced.)
        if let homeless { push(homeless.text, origin: nil, cursor: homeless.cursor) }
        let before = screen
        let outcome = perform(command)
        // (`/open` of the chat that is open stays in it: "already in the chat".)
        let stays = outcome == .stayed || outcome == .filledLine || outcome == .went(before)
        defer {
            if stays, let emptied, let emptiedKey, key == emptiedKey,
                prompt == .none, let now = drafts[emptiedKey], now.text == emptied.text, now.cursor == emptied.cursor
            {
                line = ModelLine()
                startedFromDraft = false
            }
        }
        switch outcome {
        case .failed:
            // (Everything stays as it was, the text held in the line too.)
            if onPipe {
                // A pipe gives no line back (SPEC §2 pipe mode: each line is typed into the
                // pre-filled line; a failed line is never glued to the next): the next line
                // is typed into the draft as it was; an empty one is Enter again on the
                // failed line (the lead's reading: ``enterAgain``).
                restore()
                enterAgain = entered
                enterAgain?.cursor = entered.count
                // (Its name, for an editing key that resumes it and adds the `//` escape, as
                // on a terminal: pipe sequence 401 of the emacs seed, `/discard` failed, then
                // Backspace×7 `/discard now` was the escape there and an attempt here.)
                if prompt == .none { failedName = Self.failedName(of: command) }
            } else {
                // SPEC §1a "a command that fails": "the line comes back as it was entered";
                // "a / typed onto a restored draft": "gives the whole line back unchanged".
                giveBack(entered)
                if prompt == .none {
                    line.markGivenBack()
                    givenFailedCommand = true
                    failedName = Self.failedName(of: command)
                }
                if !(own?.isEmpty ?? true) && key != nil { draftDisplaced = true }
            }
        case .stayed:
            // SPEC §1a "a command typed into a restored draft": "the command runs and the
            // draft stays exactly as restored"; a command "never changes the draft" (§1).
            // Where no chat is open, the text kept there stays as the draft would.
            keepKept(entered)
            restore()
        case .filledLine:
            break
        case .went(let next):
            keepKept(entered)
            if case .chat = next { leaveKept(entered) } else if key != nil { leaveKept(entered) }
            go(to: next)
            restore()
        case .wentBack:
            keepKept(entered)
            if key != nil { leaveKept(entered) }
            if screens.count > 1, case .chat = screens[screens.count - 2] { leaveKept(entered) }
            _ = back()
            restore()
        }
        return outcome
    }

    /// SPEC §1a "the line's baseline", with the text around the typed command edited
    /// (issue 28's second trial: `Ctrl-A X` after a failed `/histroy` had sent it): the
    /// command runs with the draft as the user made it around the command (`rest`), which is
    /// the draft from then on, since what they typed there is theirs (the law); a command
    /// that fails gives the whole line back and leaves the draft as it was.
    mutating func runEdited(_ command: String, entered: ModelLine, rest: ModelLine) {
        let before = (
            draft: key.flatMap { drafts[$0] }, attempt: key.flatMap { attempts[$0] }, kept: kept, baseline: baseline
        )
        if let key { store(rest.text, cursor: rest.cursor, in: key) } else { kept = rest }
        baseline = rest
        guard run(command, entered: entered, own: nil) == .failed else { return }
        if let key {
            drafts[key] = before.draft
            attempts[key] = before.attempt
        }
        kept = before.kept
        baseline = before.baseline
        if onPipe {
            let again = enterAgain
            restore()
            enterAgain = again
        }
    }

    /// Where no chat is open, the kept text stays kept only while the entered line holds it
    /// (a command typed into it); a line the user emptied first let it go. Going to another
    /// screen where no chat is open, it stays in the line (the line is the same); entering a
    /// chat, whose line is its draft, puts it on the stack (``leaveKept(_:)``), and so does
    /// leaving the chat where `/undo` put it in the line (``undoTop()``).
    mutating func keepKept(_ entered: ModelLine) {
        if let kept, !Self.holds(entered, kept.text) { self.kept = nil }
    }

    /// Runs a command (`/name args`) on the screen on top.
    mutating func perform(_ command: String) -> Outcome {
        let words = command.dropFirst().split(separator: " ").map(String.init)
        let name = words.first ?? ""
        let arguments = Array(words.dropFirst())
        switch name {
        case "open":
            guard arguments.count == 1, Self.users.contains(arguments[0]) else { return .failed }
            return .went(.chat(arguments[0]))
        case "profile":
            if let user = arguments.first {
                guard arguments.count == 1, Self.users.contains(user) else { return .failed }
                return .went(.profile(user))
            }
            switch screen {
            case .chat(let user), .profile(let user): return .went(.profile(user))
            case .home: return .failed
            }
        case "back":
            guard arguments.isEmpty, screens.count > 1 else { return .failed }
            return .wentBack
        case "drafts", "help":
            return arguments.isEmpty ? .stayed : .failed
        case "chats":
            guard arguments.count <= 1, arguments.allSatisfy({ $0 == "all" || Int($0) != nil }) else { return .failed }
            return .stayed
        case "history":
            guard key != nil, arguments.count <= 1, arguments.allSatisfy({ Int($0) != nil }) else { return .failed }
            return .stayed
        case "attach":
            guard let key, arguments.count == 1, attachable.contains(arguments[0]) else { return .failed }
            var draft = drafts[key] ?? Draft(text: "", cursor: 0, media: 0)
            draft.media += 1
            drafts[key] = draft
            return .stayed
        case "discard":
            // "drop this draft (/undo brings it back)" (README): the whole draft, text and
            // media, goes on the stack; a media-only draft is a draft (provenance's answer).
            guard arguments.isEmpty, let key, let draft = drafts[key] else { return .failed }
            push(draft.text, origin: key, cursor: draft.cursor, media: draft.media)
            drafts[key] = nil
            restore()
            return .filledLine
        case "undo":
            guard arguments.isEmpty, !undo.isEmpty else { return .failed }
            undoTop()
            return .filledLine
        case "expect":
            // A check (a pipe's look) changes nothing, whether it holds or not.
            return .stayed
        default:
            return .failed
        }
    }

    /// SPEC §1a "`/undo`": "a stack; it never overwrites silently: when the target now holds
    /// a newer draft, that draft goes on the stack and the message says so." README: "/undo
    /// takes the most recent entry back where it came from". A line that was no draft's
    /// (home, a profile, the command prompt) comes back in the line ("Ctrl-C on any screen":
    /// "/undo puts it back in the line").
    mutating func undoTop() {
        let entry = undo.removeFirst()
        guard let origin = entry.origin else {
            // The draft this line would hide is displaced at once: it goes on the stack and
            // the /undo line says so ("notices": "/undo names the draft it displaces at once";
            // provenance's answer to reading 10).
            if let key, let draft = drafts[key], !draft.text.isEmpty, draft.text != entry.text {
                push(draft.text, origin: key, cursor: draft.cursor)
                store("", cursor: 0, in: key)
            }
            if let kept, !kept.isEmpty, kept.text != entry.text {
                // (Optional when the user had deleted it with an editing key: the law.)
                push(kept.text, origin: nil, cursor: kept.cursor, optional: !Self.holds(line, kept.text))
            }
            restore()
            line = ModelLine(entry.text, cursor: entry.cursor, origin: .typed)
            startedFromDraft = false
            // Brought back in the line, no draft's: the text held there, its baseline (in a
            // chat too: leaving the chat puts it on the stack, as the binary's pipe showed).
            kept = line
            baseline = line
            return
        }
        if origin == key, let kept, !kept.isEmpty {
            // The line held in this chat gives way to its draft brought back.
            push(kept.text, origin: nil, cursor: kept.cursor, optional: !Self.holds(line, kept.text))
            self.kept = nil
        } else if let kept, !kept.isEmpty, !Self.holds(line, kept.text) {
            // The text held here, which the user deleted before typing `/undo`, may go (the
            // law); it is not back in the line (the conservation test, seed 7).
            push(kept.text, origin: nil, cursor: kept.cursor, optional: true)
            self.kept = nil
        }
        // (Text alone back beside the draft's attachments alone, as a leave with an emptied
        // line split them: one draft again, nothing displaced.)
        if let newer = drafts[origin], newer.text.isEmpty, newer.media > 0, entry.media == 0, !entry.text.isEmpty {
            drafts[origin] = Draft(text: entry.text, cursor: entry.cursor, media: newer.media)
            attempts[origin] = entry.attempt
            return restore()
        }
        if let newer = drafts[origin], !newer.text.isEmpty || newer.media > 0, newer.text != entry.text {
            push(
                newer.text, origin: origin, cursor: newer.cursor, media: newer.media,
                attempt: attempts[origin].flatMap { $0.line.text == newer.text ? $0 : nil })
        }
        drafts[origin] =
            entry.text.isEmpty && entry.media == 0
            ? nil : Draft(text: entry.text, cursor: entry.text.isEmpty ? 0 : entry.cursor, media: entry.media)
        attempts[origin] = entry.attempt
        restore()
    }
}
