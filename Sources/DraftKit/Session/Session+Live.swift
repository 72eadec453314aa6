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

    /// A slice a feed brought (``HistoryFeed/take()``): its arrivals as
    /// ``receive(_:)-([Arrival])`` shows them, then the feed's warnings.
    public func receive(_ slice: FeedSlice) -> [Report] {
        note(slice.warnings)
        let arrivals = slice.arrivals
        var reports: [Report] = []
        for arrival in arrivals {
            let message = arrival.message
            let chat = arrival.chat
            if outbox.isEcho(message) { continue }
            if message.author != identity.rawValue { peers?.arrived(message) }
            if screen.target?.chatID(as: identity) == chat {
                reports.append(.arrived(message))
                arrivalsNotWaitedFor += 1
                continue
            }
            guard message.author != identity.rawValue else { continue }
            switch chat.kind {
            case .privateChat: guard chat.includes(identity) else { continue }
            case .thread: guard message.target == identity.rawValue else { continue }
            }
            unread[chat, default: 0] += 1
            arrivalsNotWaitedFor += 1
            reports.append(
                .arrivedElsewhere(
                    message, chat: chat, unread: unread[chat] ?? 0,
                    name: chat.otherPerson(for: identity).flatMap(displayName(of:))))
        }
        return reports + peerSilences() + takePendingReports()
    }

    /// Whether what `wait` waits for is there: enough arrivals that no earlier wait
    /// counted, or the open chat holds enough messages.
    public func waitIsOver(_ wait: Wait) -> Bool {
        switch wait.until {
        case .arrivals(let count): return arrivalsNotWaitedFor >= count
        case .total(let count): return openChatCount() >= count
        }
    }

    /// Ends a wait (``Effect/wait(_:)``): the arrivals it counted (at most what it wanted,
    /// oldest first; for `/wait total`, every arrival so far) are taken off
    /// ``arrivalsNotWaitedFor``. One line either way: what came, or an error (time ran out,
    /// or the user stopped it).
    public func endWait(_ wait: Wait, interrupted: Bool = false) -> [Report] {
        let reports = waitEnded(wait, interrupted: interrupted)
        lastLineErrors += reports.compactMap(\.error)
        return reports
    }

    private func waitEnded(_ wait: Wait, interrupted: Bool) -> [Report] {
        switch wait.until {
        case .arrivals(let wanted):
            let arrived = min(arrivalsNotWaitedFor, wanted)
            arrivalsNotWaitedFor -= arrived
            guard arrived < wanted else { return [.waited(wait.until, count: arrived)] }
            if interrupted { return [.error(.waitInterrupted(arrived: arrived, wanted: wanted))] }
            return [.error(.waitTimedOut(arrived: arrived, wanted: wanted, seconds: wait.seconds))]
        case .total(let wanted):
            let held = openChatCount()
            arrivalsNotWaitedFor = 0
            guard held < wanted else { return [.waited(wait.until, count: held)] }
            return [.error(.totalNotReached(held: held, wanted: wanted, seconds: interrupted ? nil : wait.seconds))]
        }
    }

    /// How many messages the open chat holds (0 when none is open or it cannot be read).
    private func openChatCount() -> Int {
        guard let target = screen.target else { return 0 }
        guard let reading = try? history.messageCount(in: target.chatID(as: identity)) else { return 0 }
        note(reading.warnings)
        return reading.value
    }

    /// Stores the demo peers' answers that are due; they arrive through the feed.
    public func answerPeers() -> [Report] {
        guard let peers else { return [] }
        let answered = peers.answerDue()
        return answered.errors.map { .error(.peerReplyNotStored($0.peer, $0.error)) }
            + answered.warnings.map { .warning(.store($0)) } + peerSilences()
    }

    /// One line for each demo peer that fell silent since the last look, never twice.
    func peerSilences() -> [Report] {
        peers?.takeSilences().map { .peerSilenced($0.peer, $0.why) } ?? []
    }

    /// `/wait`: asks the front end to wait; `/wait total` needs a chat open.
    func requestWait(_ wait: Wait) throws(DraftlineError) -> Outcome {
        if case .total = wait.until { _ = try currentTarget() }
        return Outcome(effects: [.wait(wait)])
    }

    /// Tells the demo peers what was sent to them.
    func notifyPeers(of stored: [Message], to target: InputTarget) {
        guard let peers, case .privateChat(let user) = target else { return }
        for message in stored { peers.heard(message, from: identity, to: user) }
        pendingReports += peerSilences()
    }
}
