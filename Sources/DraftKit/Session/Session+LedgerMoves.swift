/// The ledger's moves: the few ways text changes hands (kept as a draft, set aside on the
/// undo stack, given back in the next line), and ``finish(_:broughtBack:)``, which places
/// what no rule placed. Every rule in `Session+Ledger.swift` is made of these.
extension Session {
    /// Keeps `text` as the target's draft, judged against `baseline` when it comes back
    /// (``LineRead/baseline(keeping:pasted:)``; `nil`: itself); the draft it replaces,
    /// unless it was in the line this text came from, goes on the undo stack.
    func keep(
        _ text: TextDraft, as target: InputTarget, because cause: DraftEvent.Cause, baseline: TextDraft? = nil,
        _ read: inout LineRead
    ) -> [Report] {
        let key = target.draftKey
        let (replaced, events) = drafts.keep(text, for: target, because: cause, baseline: baseline)
        var reports = events.map(Report.draft)
        if let replaced, replaced != text {
            if text.text.isEmpty {
                // Emptied, then left: the old draft goes on the undo stack.
                reports += setAside(replaced, from: .draft(key), cause, &read)
            } else if !read.draftAccounted || (text == read.line && read.replacedAnew(replaced)) {
                reports += setAside(replaced, from: .draft(key), .replacedBySend, &read)
            }
        }
        return reports
    }

    /// Puts text on the undo stack, noting it for the one notice line of this event.
    func setAside(
        _ text: TextDraft, from origin: Drafts.Lost.Origin, _ cause: DraftEvent.Cause, baseline: TextDraft? = nil,
        _ read: inout LineRead
    ) -> [Report] {
        guard !text.text.isEmpty else { return [] }
        if read.line == text { read.settleLine(.undoStack) }
        read.setAsideCauses.append(cause)
        return drafts.setAside(
            DraftContents(text: text, attachments: []), from: origin, because: cause, baseline: baseline
        ).map(Report.draft)
    }

    /// A half-typed answer to "command: /" goes on the undo stack as the command it is,
    /// with its `/`: brought back into a chat's line, it must not be sent as a message.
    func setAsideCommand(_ read: inout LineRead, _ cause: DraftEvent.Cause) -> [Report] {
        let line = read.line
        guard !line.text.isEmpty else {
            read.settleLine(.nothing)
            return []
        }
        let command =
            line.text.hasPrefix("/") ? line : TextDraft(text: "/" + line.text, cursor: line.cursor + 1)
        let reports = setAside(command, from: .line, cause, &read)
        read.settleLine(line.text.isEmpty ? .nothing : .undoStack)
        return reports
    }

    /// The text a recall replaced: on the undo stack unless `holder` still holds it, oldest
    /// first; with `ownOnTop` (`holder` is a recalled line: a copy of history, edited or
    /// not, never the user's own text), the line from before the first recall last and
    /// always, so it is the top entry over the recalled lines the user edited.
    func setAsideRecalled(
        unlessHeldBy holder: String, from origin: Drafts.Lost.Origin, ownOnTop: Bool = false,
        _ read: inout LineRead
    ) {
        guard !read.recalledOver.isEmpty, read.recalledPlace == nil else { return }
        let order = ownOnTop ? Array(read.recalledOver.indices.dropFirst()) + [0] : Array(read.recalledOver.indices)
        for index in order {
            let piece = read.recalledOver[index]
            guard holder.isEmpty || (ownOnTop && index == 0) || !read.recalledHeld(piece, by: holder) else { continue }
            read.traced += setAside(piece, from: origin, .replacedByRecall, &read)
        }
        read.settleRecalled(read.recalledHeld(by: holder) && !holder.isEmpty ? .heldByLine : .undoStack)
    }

    /// The line comes back in the next edit line, as it was, held there for the user (no
    /// draft here can keep it); where there is no edit line (a pipe), it goes on the undo
    /// stack instead, so the next line is one of its own.
    func giveBack(_ text: TextDraft, _ read: inout LineRead, cause: DraftEvent.Cause = .nowhereToKeep) {
        if capabilities.editLine {
            read.nextLine = text
            read.hold = .text(text)
            if text == read.line { read.settleLine(.givenBack) }
        } else {
            read.traced += setAside(text, from: read.setAsideOrigin, cause, &read)
        }
    }

    /// A command (or a prompt's answer) that failed comes back in the edit line as it was
    /// entered, so the mistake can be fixed; the baseline stays as it was. On a pipe there
    /// is no line to come back to: the error line names what failed, the script holds the
    /// line, and the next line starts from the baseline again (an empty one is Enter again
    /// on the failed line: ``Session/lineToEnterAgain``).
    func giveBackCommand(_ read: inout LineRead) {
        read.hold = .unchanged
        if capabilities.editLine {
            read.nextLine = read.line
            lineIsFailedCommand = read.question == nil
            lineHeldDraft = read.question == nil && !read.isRecalled && read.givenHeldDraft
            read.settleLine(.givenBack)
        } else {
            if let held = heldLine { read.nextLine = held }
            if read.question == nil {
                lineToEnterAgain = (
                    read.text,
                    LineOrigin(recalledOver: [], kind: read.kind, pasted: read.pasted, inserted: read.inserted),
                    !read.isRecalled && read.givenHeldDraft
                )
            }
            read.settleLine(.used)
        }
    }

    /// After an event: what no rule placed goes on the undo stack; one line says what went
    /// there without the user asking; the next edit line is set: `broughtBack`, when the
    /// event's command gave one (``Outcome/line``).
    func finish(_ read: LineRead, broughtBack: TextDraft?) -> [Report] {
        var read = read
        guard !hasQuit else { return [] }
        var reports: [Report] = read.traced
        let origin = read.setAsideOrigin
        if read.linePlace == nil {
            ledgerCatches += 1
            reports += setAside(read.line, from: origin, .nowhereToKeep, &read)
            read.settleLine(.undoStack)
        }
        if read.recalledPlace == nil {
            ledgerCatches += 1
            for piece in read.recalledOver { reports += setAside(piece, from: origin, .replacedByRecall, &read) }
        }
        // `/undo` brought a line back (`broughtBack`) over text that was to come back in the
        // line (a command typed into it): unless it is kept as the draft here, it goes on
        // the undo stack, as a draft `/undo` replaces does, and `/undo` again brings it back.
        // Said in this event's notice, at once.
        if let restored = broughtBack, let displaced = read.nextLine, !displaced.text.isEmpty,
            displaced.text != restored.text,
            screen.target.flatMap({ drafts.text(for: $0.draftKey) })?.text != displaced.text
        {
            reports += setAside(displaced, from: origin, .nowhereToKeep, &read)
        }
        let unasked = read.setAsideCauses.filter { ![.discardCommand, .sendFailedAside, .lineTooLong].contains($0) }
        if let cause = unasked.first {
            reports.append(.setAside(because: cause, count: unasked.count, files: read.setAsideFiles))
        }
        if let next = broughtBack ?? read.nextLine {
            line = next
        } else if navigator.question == nil, let target = screen.target {
            line = drafts.text(for: target.draftKey) ?? TextDraft(text: "")
        } else {
            line = TextDraft(text: "")
        }
        let draftHere = navigator.question == nil ? screen.target.flatMap { drafts.text(for: $0.draftKey) } : nil
        switch broughtBack.map({ $0 == draftHere ? .none : LineRead.Hold.text($0) }) ?? read.hold {
        case .none: heldLine = nil
        case .unchanged: break
        case .text(let held): heldLine = held
        }
        // A line given back as it was keeps its origin: what was pasted in it stays text, and
        // where the baseline stays, what was typed into it stays the typed part.
        let givenBack = line.text == read.text && read.nextLine != nil
        linePasted = givenBack ? read.pasted : []
        // (A recalled line given back holds none of the baseline: all of it is typed there. A
        // draft kept with an attempt typed into it brings that attempt back as typed.)
        if givenBack && read.hold == .unchanged {
            lineInserted = read.isRecalled ? [0..<line.text.unicodeScalars.count] : read.inserted
        } else if let draftHere, line == draftHere, let key = screen.target?.draftKey,
            let baseline = drafts.baseline(for: key)
        {
            lineInserted = CommandInDraft.attemptRun(in: line.text, given: baseline).map { [$0] } ?? []
        } else {
            lineInserted = []
        }
        // Text kept as a draft over a recall, out of sight (the command failed and is back in
        // the line, or went elsewhere): one line says where it is.
        if let kept = read.keptOverRecall, let target = read.target,
            drafts.text(for: target.draftKey)?.text == kept.text
        {
            let here = screen.target == target && navigator.question == nil
            if !here || line.text != kept.text {
                reports.append(.keptOverRecall(kept, target: target, here: here))
            }
        }
        return reports
    }
}
