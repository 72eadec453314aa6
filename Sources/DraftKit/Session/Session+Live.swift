/// The other side: messages that arrive from other processes or demo peers.
extension Session {
    /// Messages a feed brought: those in the open chat are shown; those in another chat
    /// of the user's are counted as unread and announced; the rest (other people's chats,
    /// what this session sent itself) are passed over. No draft and no line changes.
    ///
    /// The open chat is the one on screen, also while a prompt of its own asks for a
    /// name; on a profile no chat is open.
    public func receive(_ arrivals: [Arrival]) -> [Report] {
        receive(FeedSlice(arrivals: arrivals))
    }

    /// A slice a feed brought (``HistoryFeed/take()``): what became of the sends in flight,
    /// its arrivals as ``receive(_:)-([Arrival])`` shows them, then the feed's warnings.
    ///
    /// `lineNow` is the edit line being read as the slice came, when one is (a terminal):
    /// a send refused while it is empty comes back into it.
    public func receive(_ slice: FeedSlice, lineNow: String? = nil) -> [Report] {
        note(slice.warnings)
        var reports = slice.deliveries.flatMap { settle($0, lineNow: lineNow) }
        for arrival in slice.arrivals where !live.outbox.isEcho(arrival.message) {
            // Every arrival, shown or not: a demo peer whose person typed it falls silent.
            if arrival.message.author != identity.rawValue { live.peers?.arrived(arrival.message) }
            guard let report = shown(arrival) else { continue }
            live.counted()
            reports.append(report)
        }
        return reports + live.peerSilences() + takePendingReports()
    }

    /// What the user is shown of an arrival (the demo peers have heard it already): in the
    /// open chat, the message; in another chat of the user's, an announcement, counted as
    /// unread there; nothing for the rest (what the user sent from another process, other
    /// people's chats, a thread's message to someone else). Whatever is shown is counted
    /// for `/wait`.
    ///
    /// A rule that hides arrivals goes here, never in ``receive(_:lineNow:)``'s loop, so
    /// that the peers still hear what it hides (a muted person typing from another
    /// draftline silences their peer); one for chats that are not open goes after the
    /// open chat's line. `DemoPeerSilenceTests.everyArrivalReachesThePeers` has a case for
    /// each way an arrival is not shown: a new rule adds its own.
    private func shown(_ arrival: Arrival) -> Report? {
        let message = arrival.message
        let chat = arrival.chat
        if screen.target?.chatID(as: identity) == chat { return .arrived(message) }
        guard message.author != identity.rawValue else { return nil }
        switch chat.kind {
        case .privateChat: guard chat.includes(identity) else { return nil }
        case .thread: guard message.target == identity.rawValue else { return nil }
        }
        live.unread[chat, default: 0] += 1
        return .arrivedElsewhere(
            message, chat: chat, unread: live.unread[chat] ?? 0,
            name: chat.otherPerson(for: identity).flatMap(displayName(of:)))
    }

    /// A send in flight acknowledged (shown as sent) or refused: its part of the draft is
    /// the user's again, on a terminal as the draft was before the send (an attachment in
    /// the media list; text when the chat has no text now and its line is not being
    /// typed, or is being read empty: then it is back in that line too), else on the undo
    /// stack, said in the error line.
    private func settle(_ delivered: Delivered, lineNow: String?) -> [Report] {
        guard let sent = live.inFlight.removeValue(forKey: delivered.messageID) else { return [] }
        switch delivered.delivery {
        case .inFlight:
            live.inFlight[delivered.messageID] = sent
            return []
        case .acknowledged(let warnings):
            return [.sent(sent.message)] + warnings.map { .warning(.store($0)) }
                + live.heard([sent.message], from: identity, to: sent.target)
        case .failed(let error):
            hadSendFailure = true
            // After quitting no draft takes it back: quitting names it (``endQuit()``).
            guard !hasQuit else {
                live.refusedAfterQuit.append(sent.message)
                return []
            }
            let key = sent.target.draftKey
            guard !sent.part.isEmpty else { return [.error(.notSent(error))] }
            let typed = screen.target == sent.target && question == nil
            if capabilities.editLine, typed, let text = sent.part.text, lineNow == "", line.text.isEmpty,
                drafts.text(for: key) == nil
            {
                // The user sent and has typed nothing since: the text is back where it was.
                let back = DraftContents(
                    text: text, attachments: sent.part.attachments + drafts.attachments(for: key))
                let reports = drafts.putBack(back, for: sent.target).map(Report.draft)
                line = text
                linePasted = []
                lineInserted = []
                return reports + [.error(.notSentBackInLine(error, text))]
            }
            if capabilities.editLine, sent.part.text == nil || (!typed && drafts.text(for: key) == nil) {
                let back = DraftContents(
                    text: sent.part.text, attachments: sent.part.attachments + drafts.attachments(for: key))
                return drafts.putBack(back, for: sent.target).map(Report.draft) + [.error(.notSent(error))]
            }
            let text = sent.part.text?.text ?? sent.part.attachments.first?.name ?? ""
            return drafts.setAside(sent.part, from: .draft(key), because: .sendFailedAside).map(Report.draft)
                + [.error(.notSentSetAside(error, text: String(text.prefix(40))))]
        }
    }

    /// The end of quitting, once the front end has waited (a few seconds at most) for each
    /// send still in flight: those acknowledged meanwhile were stored and shown as sent
    /// (``receive(_:)-(FeedSlice)``); those refused or still unanswered are named in one
    /// line, so that no message the other side may have goes unsaid (SPEC §6: a send is
    /// acknowledged only when the server has it). They are no longer waited for.
    public func endQuit() -> [Report] {
        let unconfirmed = (live.refusedAfterQuit + live.inFlight.values.map(\.message)).sorted {
            ($0.sentAt, $0.messageID) < ($1.sentAt, $1.messageID)
        }
        live.refusedAfterQuit = []
        live.inFlight = [:]
        guard !unconfirmed.isEmpty else { return [] }
        hadSendFailure = true
        return [.notConfirmed(unconfirmed)]
    }

    /// Whether what `wait` waits for is there: enough arrivals that no earlier wait
    /// counted, or the open chat holds enough messages. A count that cannot be read ends
    /// the wait too: ``endWait(_:interrupted:)`` says why.
    public func waitIsOver(_ wait: Wait) -> Bool {
        switch wait.until {
        case .arrivals(let count): return live.arrivalsNotWaitedFor >= count
        case .total(let count): return (try? storedCount()).map { $0 >= count } ?? true
        }
    }

    /// Ends a wait (``Effect/wait(_:)``): the arrivals it counted (at most what it wanted,
    /// oldest first; for `/wait total`, every arrival so far) are taken off
    /// ``LiveState/arrivalsNotWaitedFor``. One line either way: what came, or an error
    /// (time ran out, or the user stopped it).
    public func endWait(_ wait: Wait, interrupted: Bool = false) -> [Report] {
        let reports = waitEnded(wait, interrupted: interrupted)
        lastLineErrors += reports.compactMap(\.error)
        return reports
    }

    private func waitEnded(_ wait: Wait, interrupted: Bool) -> [Report] {
        switch wait.until {
        case .arrivals(let wanted):
            let arrived = live.takeArrivals(wanted)
            guard arrived < wanted else { return [.waited(wait.until, count: arrived)] }
            if interrupted { return [.error(.waitInterrupted(arrived: arrived, wanted: wanted))] }
            return [.error(.waitTimedOut(arrived: arrived, wanted: wanted, seconds: wait.seconds))]
        case .total(let wanted):
            _ = live.takeArrivals(nil)
            let held: Int
            do throws(DraftlineError) { held = try storedCount() } catch { return [.error(error)] }
            guard held < wanted else { return [.waited(wait.until, count: held)] }
            return [.error(.totalNotReached(held: held, wanted: wanted, seconds: interrupted ? nil : wait.seconds))]
        }
    }

    /// Stores the demo peers' answers that are due; they arrive through the feed.
    public func answerPeers() -> [Report] { live.answerPeers() }

    /// `/wait`: asks the front end to wait; `/wait total` needs a chat open.
    func requestWait(_ wait: Wait) throws(DraftlineError) -> Outcome {
        if case .total = wait.until { _ = try currentTarget() }
        return Outcome(effects: [.wait(wait)])
    }
}
