/// The ledger: the one place that decides where the text of an edit line goes.
///
/// SPEC §1a is the law: every piece of text that was in the edit line ends as a message
/// the user sent on purpose, a draft, or an entry on the undo stack, unless the user
/// deleted it with an editing key. Each way a read can end (Enter on a message, a command
/// or a prompt's answer, a leave key, Ctrl-C, Ctrl-D) places the line here, and the text
/// a history recall replaced with it, and the target's draft when the line did not hold
/// it. ``finish(_:broughtBack:)`` then puts whatever no rule placed on the undo stack (and
/// counts it in ``ledgerCatches``: a rule is missing), says in one line what went on the
/// undo stack without the user asking, and sets the next edit line.
extension Session {
    // MARK: - Enter

    /// Enter: a prompt's answer, a command, or a message.
    func enter(_ read: inout LineRead) -> Outcome {
        switch read.question {
        case .chatName:
            let answer = read.text
            // Remembered as the command it stands for: Up in a line recalls `/open bob`,
            // which does what the answer did, never `bob`, which Enter would send.
            return Outcome(answerChatName(&read), effects: answer.isEmpty ? [] : [.remember("/open " + answer)])
        case .command: return answerCommand(&read)
        case nil: break
        }
        let text = read.text
        // Typed into the baseline (the draft as restored, or the text held here): a `/`
        // typed there is a command attempt, however often the line came back meanwhile.
        if let typed = read.typed {
            switch typed {
            case .command(let command): return runTyped(command, into: &read)
            case .literalSlash(let message):
                // (A new user's trial: `https:` restored, `//example.com` typed, and the
                // message had one `/` there without a word.)
                let sent = send(message, &read)
                return sent.reports.contains { if case .sent = $0 { true } else { false } }
                    ? sent + [.oneSlashSent] : sent
            }
        }
        // A paste into the user's text is text: the line is a message, verbatim.
        let pastedFirst = read.pasted.contains { $0.contains(0) }
        let escaped = read.startsWithEscapedSlash
        if text.hasPrefix("/") && !escaped && !pastedFirst { return runLine(text, &read) }
        guard escaped && !pastedFirst else { return send(text, &read) }
        // Up brings back `//text`, as typed, so that Enter sends it again.
        return send(String(text.dropFirst()), remembering: text, &read)
    }

    /// A command typed into the baseline: it runs, and the baseline stays as it was (the
    /// draft, or the text held here, which comes back unless the command went somewhere
    /// else), or, when the user edited it around the command (``LineRead/typedRun``), is
    /// what they made of it. A command that fails gives the whole line back.
    private func runTyped(_ command: String, into read: inout LineRead) -> Outcome {
        let before = screen
        let edited = read.typedRun.flatMap { $0.typed == .command(command) ? $0.rest : nil }
        // The draft the user edited around the command is the draft the command sees (and
        // keeps: `/open` leaves it, `/discard` discards it); back as it was if it fails.
        var keptEdits: [Report] = []
        let keptBaseline = read.target.flatMap { drafts.baseline(for: $0.draftKey) }
        if let edited, read.held == nil, let target = read.target, let draft = read.draft, edited != draft {
            keptEdits = drafts.keep(edited, for: target, because: .editedAroundCommand).events.map(Report.draft)
        }
        do throws(DraftlineError) {
            let outcome = try keptEdits + Command(parsing: command, capabilities: capabilities).run(in: self)
            read.settleLine(.used)
            // Text held in the line (no draft keeps it) comes back, unless the command went
            // elsewhere; a draft stays where it is, with the user's edits around the command
            // (unless the command changed it itself: `/undo`, `/discard`).
            if let held = read.held, held != read.draft {
                if hasQuit {
                    return outcome + forgottenAtQuit(edited ?? held, &read) + Outcome(effects: [.remember(command)])
                } else if screen == before && navigator.question == nil {
                    read.nextLine = edited ?? held
                    read.hold = edited.map(LineRead.Hold.text) ?? .unchanged
                } else {
                    read.traced += setAside(edited ?? held, from: .line, .nowhereToKeep, &read)
                }
            }
            return outcome + Outcome(effects: [.remember(command)])
        } catch {
            if !keptEdits.isEmpty, let target = read.target, let draft = read.draft {
                _ = drafts.keep(draft, for: target, because: .editedAroundCommand, baseline: keptBaseline)
            }
            giveBackCommand(&read)
            return Outcome([.error(error)], effects: [.remember(command)])
        }
    }

    /// A line that is a command as a whole (typed on a fresh line, or recalled): the text
    /// a recall replaced is kept as the draft first; a command that fails gives the line
    /// back. One run on a line from which the user deleted the whole draft leaves the line
    /// empty (``keepLineEmptied(_:_:)``).
    private func runLine(_ text: String, _ read: inout LineRead) -> Outcome {
        let emptied = emptiedDraft(read)
        var reports = keepRecalled(&read)
        do throws(DraftlineError) {
            let command = try Command(parsing: text, capabilities: capabilities)
            // A `/quit` that Up brought back as it was, over drafts or undo entries, warns as
            // Ctrl-D does (a new user's trial: Up, Up, Enter on the last run's `/quit` forgot
            // two drafts without a word); typed, or recalled again at once, it quits.
            if let warning = warningBeforeRecalledQuit(command, read) {
                read.settleLine(.used)
                read.nextLine = TextDraft(text: "")
                return reports + Outcome([warning], effects: [.remember(text)])
            }
            let outcome = try command.run(in: self)
            read.settleLine(.used)
            keepLineEmptied(emptied, &read)
            return reports + outcome + Outcome(effects: [.remember(text)])
        } catch {
            giveBackCommand(&read)
            reports.append(.error(error.said(slashSends: read.target != nil)))
            return Outcome(reports, effects: [.remember(text)])
        }
    }

    /// The draft the user deleted from the line before typing (or recalling) the command
    /// that ran stays the draft (a command never changes it, SPEC §1), but the line comes
    /// back as the user left it, empty: the deleted text does not reappear to be sent with
    /// the next message (the new-user trial's `^U` `/history` `new` had sent `old ideanew`).
    /// While the line does not hold it, the draft counts as emptied there
    /// (``LineRead/emptiedEarlier``): a message sent from it puts the draft on the undo
    /// stack, and entering the chat again shows it. Not when the command
    /// left the chat or changed the draft's text itself (`/undo`, `/discard`).
    private func keepLineEmptied(_ key: DraftKey?, _ read: inout LineRead) {
        guard let key, !hasQuit, navigator.question == nil, screen.target == read.target,
            drafts.text(for: key) == read.draft
        else { return }
        read.nextLine = TextDraft(text: "")
        lineLeftEmpty = key
    }

    /// What a recall replaced: the line the user had is kept as the chat's draft (the
    /// draft it replaces accounted for), any recalled line they changed after it goes on
    /// the undo stack; where no draft is kept, all of it goes there.
    private func keepRecalled(_ read: inout LineRead) -> [Report] {
        guard let first = read.recalledOver.first else { return [] }
        guard let target = read.target, read.question == nil, !read.ownLineWasEmpty else {
            // Over an empty own line, the recalled lines the user edited are no draft: set
            // aside, from the chat's line when there is one.
            let origin = read.setAsideOriginOutsidePrompt
            let reports = read.recalledOver.flatMap { setAside($0, from: origin, .replacedByRecall, &read) }
            read.settleRecalled(.undoStack)
            return reports
        }
        // The user's line as it was at the recall comes back, text and cursor: a cursor they
        // moved in the restored draft stays where they left it (README "cursor where it was").
        let kept = first
        var reports = keep(
            kept, as: target, because: .keptOverRecall, baseline: read.baseline(keeping: kept, pasted: []), &read)
        read.keptOverRecall = kept
        for later in read.recalledOver.dropFirst() where !read.recalledHeld(later, by: first.text) {
            reports += setAside(later, from: .draft(target.draftKey), .replacedByRecall, &read)
        }
        read.settleRecalled(.draft)
        return reports
    }

    /// The answer to "open chat with:". A name that cannot be opened is an error and the
    /// prompt asks again, with the name back in the line to fix; an empty line cancels.
    private func answerChatName(_ read: inout LineRead) -> [Report] {
        // A half-typed name is not text to keep: it is used or given back.
        read.settleRecalled(.used)
        let name = read.text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            navigator.question = nil
            read.settleLine(.used)
            return enter(screen) + settleHeldForPrompt(backInLine: true, &read)
        }
        do throws(DraftlineError) {
            let key = try GlobalKey(validating: name)
            try checkOpenable(key)
            navigator.question = nil
            read.settleLine(.used)
            return settleHeldForPrompt(backInLine: false, &read) + (try open(key))
        } catch {
            giveBackCommand(&read)
            return [.error(error)]
        }
    }

    /// The answer to `^X /`'s "command: /" prompt: the command runs with the draft kept;
    /// one that fails comes back on the same prompt.
    private func answerCommand(_ read: inout LineRead) -> Outcome {
        setAsideRecalled(unlessHeldBy: "", from: .line, &read)
        let text = read.text.trimmingCharacters(in: .whitespaces)
        navigator.question = nil
        guard !text.isEmpty else {
            read.settleLine(.used)
            return Outcome(settleHeldForPrompt(backInLine: true, &read))
        }
        let command = text.hasPrefix("/") ? text : "/" + text
        let before = screen
        do throws(DraftlineError) {
            let parsed = try Command(parsing: command, capabilities: capabilities)
            // A `/quit` recalled as it was warns first here too, as on the line (``runLine``).
            if let warning = warningBeforeRecalledQuit(parsed, read) {
                read.settleLine(.used)
                return Outcome([warning] + settleHeldForPrompt(backInLine: true, &read), effects: [.remember(command)])
            }
            let outcome = try parsed.run(in: self)
            read.settleLine(.used)
            let stayed = screen == before && navigator.question == nil && read.nextLine == nil
            return outcome + Outcome(settleHeldForPrompt(backInLine: stayed, &read), effects: [.remember(command)])
        } catch {
            navigator.question = .command
            giveBackCommand(&read)
            return Outcome([.error(error.said(slashSends: false))], effects: [.remember(command)])
        }
    }

    /// The text a leave key asked a prompt over where no chat keeps it (``heldForPrompt``):
    /// back in the line as it was when the prompt is cancelled or its command stayed on
    /// this screen (the key went nowhere); on the undo stack, said in one line, when the
    /// user went elsewhere (the new-user trial's finding 7: a cancelled `^X o` at home had
    /// left the line empty, the text on the undo stack).
    func settleHeldForPrompt(backInLine: Bool, _ read: inout LineRead) -> [Report] {
        guard let held = heldForPrompt else { return [] }
        heldForPrompt = nil
        if hasQuit { return forgottenAtQuit(held, &read) }
        guard backInLine else { return setAside(held, from: .line, .nowhereToKeep, &read) }
        giveBack(held, &read)
        return []
    }

    /// Text the line held that no draft keeps, when the command run from it quit: it
    /// does not come back, so the quit names it with the rest (a helper's attack: `abc`
    /// Enter at home, then `/quit` typed after it, had quit without a word of `abc`).
    private func forgottenAtQuit(_ line: TextDraft, _ read: inout LineRead) -> [Report] {
        read.nextLine = nil
        read.hold = .none
        return line.text.isEmpty ? [] : [.lineForgotten(line.text)]
    }

    // MARK: - Sending

    /// A message: the draft is taken out first (as the original does), the text and any
    /// attachments are stored; what a failed write did not store is kept. The line history
    /// keeps `remembered` (the line as typed), or else the text.
    private func send(_ text: String, remembering remembered: String? = nil, _ read: inout LineRead) -> Outcome {
        guard let target = read.target else {
            setAsideRecalled(unlessHeldBy: read.holderOfRecalledOver, from: .line, &read)
            // A blank line sends nothing, here as in a chat: nothing to say.
            guard !text.allSatisfy(\.isWhitespace) else {
                read.settleLine(.sent)
                return []
            }
            giveBack(read.line, &read, cause: .nowhereToKeep)
            return [.error(.notSentNoChat(String(text.prefix(40))))]
        }
        let key = target.draftKey
        let blank = text.allSatisfy(\.isWhitespace)
        let hasMedia = !drafts.attachments(for: key).isEmpty
        let (taken, events) = drafts.take(target, because: blank && !hasMedia ? .blankLine : .sending)
        var reports = events.map(Report.draft)
        if blank && taken.attachments.isEmpty {
            // A blank line sends nothing; the draft it cleared goes on the undo stack.
            setAsideRecalled(unlessHeldBy: text, from: .draft(key), &read)
            // (The user's own line a recall replaced, on the stack now, may hold it already.)
            let own = read.recalledOver.first?.text
            if let cleared = taken.text, !(own.map { read.recalledHeld(cleared, by: $0) } ?? false) {
                reports += setAside(cleared, from: .draft(key), .blankLine, &read)
            }
            read.settleLine(.sent)
            return Outcome(reports)
        }
        // The draft the line did not hold goes first, so that the user's own line a recall
        // replaced is the top entry, their latest text (as after Ctrl-C). A blank line that
        // sends the draft's files sends none of its text: that goes on the stack.
        if let draft = taken.text, blank || !read.draftAccounted || read.replacedAnew(draft) {
            reports += setAside(draft, from: .draft(key), blank ? .blankLine : .replacedBySend, &read)
        }
        // A recalled line sent holds none of the user's own line, however it is spelled: that
        // goes on top, above the recalled lines they edited (emacs sequence 361: `hello`, a
        // recall of `…hello…` sent).
        setAsideRecalled(unlessHeldBy: text, from: .draft(key), ownOnTop: read.isRecalled, &read)
        let result = live.outbox.send(text, attachments: taken.attachments, to: target)
        note(result.warnings)
        reports += result.gone.map { .warning(.attachmentGone($0.name)) }
        reports += result.stored.map(Report.sent)
        for (message, part) in result.inFlight {
            live.inFlight[message.messageID] = .init(message: message, target: target, part: part)
        }
        // Sent, or in flight: a refusal gives its part back (``settle(_:)``).
        read.settleLine(.sent)
        var effects: [Effect] = blank ? [] : [.remember(remembered ?? text)]
        if let failure = result.failure {
            hadSendFailure = true
            if capabilities.editLine {
                reports += drafts.putBack(failure.unsent, for: target).map(Report.draft)
                reports.append(.error(.notSent(failure.error)))
            } else {
                reports += drafts.setAside(failure.unsent, from: .draft(key), because: .sendFailedAside)
                    .map(Report.draft)
                reports.append(.error(.notSentSetAside(failure.error, text: String(text.prefix(40)))))
                effects = []
            }
        }
        return Outcome(reports + live.heard(result.stored, from: identity, to: target), effects: effects)
    }

    // MARK: - Leaving, Ctrl-C, Ctrl-D

    /// A leave key: the line is kept as the target's draft, then the key goes where it
    /// goes. At a prompt the prompt is left first (a half-typed name is not kept; a
    /// half-typed command goes on the undo stack).
    func leave(with key: LeaveKey, _ read: inout LineRead) -> [Report] {
        switch read.question {
        case .chatName:
            navigator.question = nil
            read.settleLine(.used)
            read.settleRecalled(.used)
            return settleHeldForPrompt(backInLine: false, &read) + navigate(with: key)
        case .command:
            navigator.question = nil
            setAsideRecalled(unlessHeldBy: read.text, from: .line, &read)
            return settleHeldForPrompt(backInLine: false, &read) + setAsideCommand(&read, .nowhereToKeep)
                + navigate(with: key)
        case nil:
            break
        }
        guard let target = read.target else {
            setAsideRecalled(unlessHeldBy: read.holderOfRecalledOver, from: .line, &read)
            let reports = navigate(with: key)
            guard !read.text.isEmpty else { return reports }
            // No chat here to keep a draft for: the key does what its command typed into the
            // text does (`/back`, `/profile`, `/open`): the text goes on the undo stack, said
            // in one line, and the key acts. Where it cannot act, the text comes back (on a
            // pipe, onto the undo stack) with the key's error.
            if reports.contains(where: { if case .error = $0 { true } else { false } }) {
                giveBack(read.line, &read, cause: .nowhereToKeep)
                return reports
            }
            // A key that asks a prompt holds the text until the prompt ends: cancelled, or
            // answered by a command that stays here, it comes back in the line.
            if capabilities.editLine, navigator.question != nil {
                heldForPrompt = read.line
                read.settleLine(.used)
                return reports
            }
            return setAside(read.line, from: .line, .nowhereToKeep, &read) + reports
        }
        setAsideRecalled(unlessHeldBy: read.text, from: .draft(target.draftKey), &read)
        let cause: DraftEvent.Cause = read.text.isEmpty ? .leftEmpty(key) : .left(key)
        // A `/` typed into the baseline keeps it, so the draft is an attempt again when it
        // comes back; a recalled line kept is its own baseline.
        let baseline = read.isRecalled ? nil : read.baseline(keeping: read.line, pasted: read.pasted)
        let reports = keep(read.line, as: target, because: cause, baseline: baseline, &read)
        read.settleLine(read.text.isEmpty ? .nothing : .draft)
        return reports + navigate(with: key)
    }

    /// Ctrl-C: the line is abandoned, as in a shell, and comes back empty; what it held
    /// (or, empty, the draft) goes on the undo stack. At a name prompt it only cancels. A
    /// cancelled prompt goes back to the line it was opened from: the screen is still the
    /// one shown above it, so nothing of it is shown again (``showInputAgain()`` looks the
    /// draft up, as the original's view does when it returns).
    func interrupt(_ read: inout LineRead) -> [Report] {
        switch read.question {
        case .chatName:
            navigator.question = nil
            read.settleLine(.used)
            read.settleRecalled(.used)
            return settleHeldForPrompt(backInLine: true, &read)
        case .command:
            navigator.question = nil
            setAsideRecalled(unlessHeldBy: read.text, from: .line, &read)
            return setAsideCommand(&read, .interrupted) + settleHeldForPrompt(backInLine: true, &read)
        case nil:
            break
        }
        guard let target = read.target else { return abandon(&read, from: .line) }
        let key = target.draftKey
        let entries = read.setAsideCauses.count
        let (replaced, events) = drafts.keep(TextDraft(text: ""), for: target, because: .interrupted)
        var reports = events.filter { $0.kind != .unchanged }.map(Report.draft)
        // The draft the line did not hold goes first, the abandoned line over it: `/undo`
        // brings back what the user was typing.
        if let replaced, read.text.isEmpty || !read.draftAccounted || read.replacedAnew(replaced) {
            reports += setAside(replaced, from: .draft(key), .interrupted, &read)
        }
        reports += abandon(&read, from: .draft(key))
        // The draft's files go with what the user was writing, never with the next message.
        let files = drafts.setAsideAttachments(
            of: key, joinTop: read.setAsideCauses.count > entries, because: .interrupted)
        if let moved = files.first {
            if read.setAsideCauses.count == entries { read.setAsideCauses.append(.interrupted) }
            read.setAsideFiles += moved.draft.attachments.map(\.name)
        }
        reports += files.map(Report.draft)
        read.nextLine = TextDraft(text: "")
        return reports
    }

    /// The abandoned line onto the undo stack, and what a recall replaced, the user's own
    /// text on top: when the line is a recalled one (a copy of a history line), it goes
    /// first, then the recalled lines the user edited before a later recall replaced them,
    /// and the line they had before the first recall over all of them, so `/undo` brings
    /// back what they typed. A recalled line as history gave it is a copy of a history
    /// line, not text of the user's: it is not kept.
    private func abandon(_ read: inout LineRead, from origin: Drafts.Lost.Origin) -> [Report] {
        switch read.kind {
        case .own:
            setAsideRecalled(unlessHeldBy: read.text, from: origin, &read)
            // A draft's line with a `/` typed into its baseline keeps that baseline on the
            // stack: `/undo` brings back an attempt, never a message (SPEC §1a's law).
            let baseline = origin.key == nil ? nil : read.baseline(keeping: read.line, pasted: read.pasted)
            return setAside(read.line, from: origin, .interrupted, baseline: baseline, &read)
        case .recalled:
            read.settleLine(.inHistory)
            setAsideRecalled(unlessHeldBy: "", from: origin, ownOnTop: true, &read)
            return []
        case .recalledAndChanged:
            let reports = setAside(read.line, from: origin, .interrupted, &read)
            setAsideRecalled(unlessHeldBy: read.text, from: origin, ownOnTop: true, &read)
            return reports
        }
    }

    /// Ctrl-D on an empty line: quits, or with drafts in memory, warns first and leaves
    /// the line as it was (empty); a Ctrl-D after other keys warns again (``handle(_:recalledOver:)``
    /// disarmed the warning). At a prompt it cancels the prompt.
    func requestQuit(_ read: inout LineRead) -> Outcome {
        setAsideRecalled(unlessHeldBy: "", from: read.setAsideOriginOutsidePrompt, &read)
        if read.question != nil {
            navigator.question = nil
            return Outcome(settleHeldForPrompt(backInLine: true, &read))
        }
        guard !isQuitPending, let warning = warnBeforeQuitting() else { return quit() }
        read.nextLine = TextDraft(text: "")
        return [warning]
    }

    /// The warning for `command` when it is a `/quit` that a recall brought back as it was,
    /// not the line right after a warning, with something to forget (``warnBeforeQuitting()``).
    private func warningBeforeRecalledQuit(_ command: Command, _ read: LineRead) -> Report? {
        guard command.spec.name == "quit", read.kind == .recalled, !read.quitWasPending else { return nil }
        return warnBeforeQuitting()
    }

    /// The warning a quit gives first when drafts or undo entries would be forgotten
    /// (``isQuitPending`` then arms the next Ctrl-D); `nil` when nothing would be.
    private func warnBeforeQuitting() -> Report? {
        let forgotten = drafts.count - (emptiedDraftIsNone == nil ? 0 : 1)
        guard forgotten > 0 || !drafts.undoStack.isEmpty else { return nil }
        isQuitPending = true
        return .quitPending(drafts: forgotten, undo: drafts.undoStack.count)
    }

    /// The open target's draft when the user emptied it in the line: the line started with
    /// it (no recall took it out of sight), or started without it after a read that emptied
    /// it (``LineRead/emptiedEarlier``), and as the read ends it no longer holds it. Its
    /// text is no draft (SPEC §1a: text the user deleted with an editing key may go), so the
    /// Ctrl-D warning and a quit's list count what would be lost without it (unless files
    /// are attached to it: ``emptiedDraftIsNone``), and a command run on that line gives it
    /// back empty (``keepLineEmptied(_:_:)``). A draft out of sight for another reason (`/undo` or a recall put
    /// other text in the line) is still one.
    /// The draft the user emptied in the line (``draftEmptied``) when nothing else is left
    /// of it: no files are attached to it. A quit forgets nothing of it.
    var emptiedDraftIsNone: DraftKey? {
        draftEmptied.flatMap { drafts.attachments(for: $0).isEmpty ? $0 : nil }
    }

    func emptiedDraft(_ read: LineRead) -> DraftKey? {
        guard read.question == nil, read.ending != .endOfInput, let key = read.target?.draftKey,
            let draft = read.draft,
            !draft.text.isEmpty, read.draftWasInLine,
            OneInsertion(of: draft.text, in: read.text) == nil
        else { return nil }
        return key
    }

}
