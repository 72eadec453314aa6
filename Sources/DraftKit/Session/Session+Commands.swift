import Foundation

/// The commands' work: what each declaration in ``CommandCatalogue`` calls.
extension Session {
    func open(_ key: GlobalKey) throws(DraftlineError) -> [Report] {
        try checkOpenable(key)
        let target = InputTarget.privateChat(key)
        if screen == .chat(target) { return [.alreadyHere(target)] }
        return go(to: .chat(target))
    }

    func showProfile(of key: GlobalKey?) throws(DraftlineError) -> [Report] {
        guard let user = key ?? navigator.currentUser else { throw .noChatOpen }
        try checkKnown(user)
        return go(to: .profile(user))
    }

    func back() throws(DraftlineError) -> [Report] {
        try navigator.pop()
        return takeDownInput() + enter(screen)
    }

    func comment(_ kind: CommentKind, id: UInt64, replyTo: GlobalKey?) throws(DraftlineError) -> [Report] {
        if let replyTo { try checkKnown(replyTo) }
        let target = InputTarget.comment(kind, id: id, replyTo: replyTo)
        if screen == .chat(target) { return [.alreadyHere(target)] }
        return go(to: .chat(target))
    }

    func attach(_ path: String) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        let attachment = try Attachment.checked(path, workingDirectory: workingDirectory, home: home)
        return drafts.attach(attachment, to: target).map(Report.draft)
            + [.attachments(drafts.attachments(for: target.draftKey))]
    }

    func detach(_ number: Int?) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        return try drafts.detach(number, from: target).map(Report.draft)
            + [.attachments(drafts.attachments(for: target.draftKey))]
    }

    func sendLocation(latitude: Double, longitude: Double, address: String) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        var message = live.outbox.compose("", to: target)
        message.type = "location"
        message.latitude = latitude
        message.longitude = longitude
        message.address = address
        switch live.outbox.send(message, to: target) {
        case .acknowledged(let warnings): note(warnings)
        case .failed(let error):
            hadSendFailure = true
            throw .notSent(error)
        case .inFlight:
            live.inFlight[message.messageID] = .init(message: message, target: target, part: DraftContents())
            return []
        }
        return [.sent(message)] + live.heard([message], from: identity, to: target)
    }

    func showHistory(count: Int) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        do throws(StoreError) {
            let reading = try history.recentMessages(in: target.chatID(as: identity), limit: count)
            note(reading.warnings)
            return [.messages(reading.value)]
        } catch {
            throw .historyUnreadable(error)
        }
    }

    /// `/chats [n|all]`: the `limit` most recently active chats, or all of them (`nil`).
    func chatList(limit: Int?) throws(DraftlineError) -> [Report] {
        // A private chat of two other people sharing the data directory is not the user's.
        let isMine = { [identity] (chat: ChatID) in chat.kind == .thread || chat.includes(identity) }
        let summaries: [ChatSummary]
        do throws(StoreError) {
            let reading: Reading<[ChatSummary]>
            if let limit {
                reading = try history.recentChats(limit: limit, where: isMine)
            } else {
                reading = try history.chats()
            }
            note(reading.warnings)
            summaries = reading.value
        } catch {
            throw .historyUnreadable(error)
        }
        var entries = ChatListEntry.list(
            summaries, drafts: DraftMapEntry.map(of: drafts, at: clock()), updated: drafts.updated, unread: live.unread,
            identity: identity)
        var more = false
        if let limit, entries.count > limit || summaries.count == limit {
            more = true
            entries = Array(entries.prefix(limit))
        }
        for index in entries.indices {
            entries[index].name = entries[index].chatID.otherPerson(for: identity).flatMap(displayName(of:))
        }
        return [.chatList(entries, more: more)]
    }

    /// The draft map and the undo stack, as `/drafts` shows them; asking changes nothing
    /// (not even a pending quit), so a key can show it in the middle of a line, with the
    /// edit line as it is then (`line`).
    public func draftMap(line: TextDraft? = nil) -> [Report] {
        [.draftMap(DraftMapEntry.map(of: drafts, at: clock()), undo: drafts.undoStack, line: line)]
    }

    func discard() throws(DraftlineError) -> [Report] {
        guard let target = screen.target else { throw .noDraftHere }
        return try drafts.discard(target).map(Report.draft) + [.discarded]
    }

    /// `/undo`: the last entry back where it came from; a line typed where no draft is
    /// kept comes back in the edit line.
    ///
    /// Whatever it brings back takes the edit line, and what the line showed makes way at
    /// once, named in the same line: a line entry comes back over the draft here, which goes
    /// on the undo stack (as a draft entry's newer draft does); a draft entry for this target
    /// comes back in the line (text the line held goes on the stack, in
    /// ``finish(_:broughtBack:)``): the outcome's ``Outcome/line``.
    func undo() throws(DraftlineError) -> Outcome {
        let result = try drafts.undo()
        var events = result.events
        var replaced = result.replaced
        var broughtBack: TextDraft?
        if let line = result.line {
            broughtBack = line
            if navigator.question == nil, let target = screen.target, drafts.text(for: target.draftKey) != nil {
                let (shown, kept) = drafts.keep(TextDraft(text: ""), for: target, because: .undo)
                events += kept
                if let shown {
                    events += drafts.setAside(
                        DraftContents(text: shown, attachments: []), from: .draft(target.draftKey), because: .undo)
                }
                replaced = true
            }
        } else if navigator.question == nil, let key = result.restored.origin.key, key == screen.target?.draftKey {
            broughtBack = drafts.text(for: key)
        }
        let undone = Report.undone(result.restored.draft, origin: result.restored.origin, replaced: replaced)
        var outcome = Outcome(events.map(Report.draft) + [undone])
        outcome.line = broughtBack
        return outcome
    }

    func setTracing(_ on: Bool) -> [Report] {
        isTracing = on
        return [.tracing(on)]
    }

    /// `/tour [chapter] [speed]`: asks the front end to play it.
    func playTour(_ chapter: String?, speed: Double) throws(DraftlineError) -> Outcome {
        guard !capabilities.tourChapters.isEmpty else { throw .tourNeedsTerminal }
        return Outcome(effects: [.playTour(chapter: chapter, speed: speed)])
    }

    func quit() -> Outcome {
        hasQuit = true
        let undo = drafts.undoStack.count
        let none = emptiedDraftIsNone
        let events = drafts.forgetAll()
        let gone = events.compactMap(\.key).filter { $0 != none }
        return Outcome(
            events.map(Report.draft) + (gone.isEmpty && undo == 0 ? [] : [.forgotten(gone, undo: undo)]),
            effects: [.quit])
    }

    /// Checks that the private chat with `key` can be opened: a known user who is not the
    /// user themself (a chat has two people).
    func checkOpenable(_ key: GlobalKey) throws(DraftlineError) {
        guard key != identity else { throw .chatWithYourself(key) }
        try checkKnown(key)
    }

    /// A user's name as the contacts give it, for a report to carry: the presenter shows
    /// names without reading contacts itself.
    func displayName(of user: GlobalKey) -> String? { contacts[user]?.name }
}
