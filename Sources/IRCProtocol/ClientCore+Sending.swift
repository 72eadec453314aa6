extension ClientCore {
    /// Queues a message to `target` (a nick or a channel): each line of `text` in pieces
    /// that fit the relayed line, each after `prefix` (a reply's `bob: `). Its outcome
    /// comes later as ``ClientEvent/acknowledged(_:time:messageID:)`` or
    /// ``ClientEvent/failed(_:_:delivered:)``.
    public mutating func send(_ text: String, to target: String, prefix: String = "") throws(SendRefusal) -> SendID {
        guard phase == .registered else { throw .notConnected }
        guard IRCNames.isValidNick(target, maximumLength: 64) || IRCNames.isChannel(target, maximumLength: 256) else {
            throw .invalidTarget(target)
        }
        let budget = MessageSplitter.budget(source: source, target: target, prefix: prefix)
        let pieces: [String]
        do { pieces = try MessageSplitter.split(text, budget: budget) } catch { throw .text(error) }
        let id = SendID(rawValue: nextSendNumber)
        nextSendNumber += 1
        sends[id] = SendProgress(lines: pieces.count)
        // The message ends the typing there: a state still waiting would only go after it.
        dropTyping(to: target)
        for piece in pieces { enqueue(IRCMessage("PRIVMSG", target, prefix + piece), send: id) }
        return id
    }

    /// Queues a typing notification to `target`, when the server took `message-tags` and
    /// typing is on; returns whether it was queued.
    @discardableResult
    public mutating func sendTyping(_ state: TypingState, to target: String) -> Bool {
        guard phase == .registered, sendsTags, configuration.sendsTyping else { return false }
        enqueue(IRCMessage(tags: [TypingState.tag: state.rawValue], "TAGMSG", target), isTyping: true)
        return true
    }

    /// Joins a channel (now, or once welcomed).
    public mutating func join(_ channel: String) {
        switch phase {
        case .registering: joinAfterWelcome.append(channel)
        case .registered: enqueue(IRCMessage("JOIN", channel))
        case .closed: break
        }
    }

    /// Leaves a channel.
    public mutating func part(_ channel: String) {
        guard phase == .registered else { return }
        enqueue(IRCMessage("PART", channel))
    }

    /// The lines that may go now, in order, typing notifications last; the caller writes
    /// them (the connection buffers what the socket does not take at once). Sends and typing
    /// notifications are tracked from here; without `echo-message`, a PING fence follows
    /// them.
    public mutating func takeOutgoing(at now: Double) -> [IRCMessage] {
        var lines = urgent
        urgent.removeAll()
        if case .closed = phase { return lines }
        var fenced = false
        while let index = nextOutgoing, pacing.take(at: now, leaving: queue[index].isTyping ? 1 : 0) {
            let next = queue.remove(at: index)
            lines.append(next.message)
            guard next.send != nil || next.isTyping else { continue }
            pending.append(
                Pending(
                    send: next.send, target: IRCNames.folded(next.message[parameter: 0], mapping: support.caseMapping),
                    command: next.message.command, text: next.message[parameter: 1], writtenAt: now,
                    fence: echoes ? nil : nextFence))
            fenced = fenced || !echoes
        }
        if fenced {
            lines.append(IRCMessage("PING", "draftline-\(nextFence)"))
            nextFence += 1
        }
        return lines
    }

    /// Where in the queue the next line to go is: the first that is no typing notification,
    /// else the first. A typing notification goes only when nothing else waits and a slot
    /// stays free after it (``OutputPacing/take(at:leaving:)``), as WeeChat sends its
    /// automatic lines at a low priority: a message never waits behind one.
    var nextOutgoing: Int? { queue.firstIndex { !$0.isTyping } ?? queue.indices.first }

    /// Drops the typing notifications to `target` that have not gone yet: a message there
    /// ends its typing, and they would go after it.
    mutating func dropTyping(to target: String) {
        let folded = IRCNames.folded(target, mapping: support.caseMapping)
        queue.removeAll {
            $0.isTyping && IRCNames.folded($0.message[parameter: 0], mapping: support.caseMapping) == folded
        }
    }

    /// A line of a send was acknowledged; reports the send when it is complete.
    mutating func acknowledge(_ entry: Pending, time: Double?, messageID: String?) {
        guard let send = entry.send, var progress = sends[send] else { return }
        if progress.acknowledged == 0 {
            progress.time = time
            progress.messageID = messageID
        }
        progress.acknowledged += 1
        if progress.acknowledged == progress.lines {
            sends[send] = nil
            events.append(.acknowledged(send, time: progress.time, messageID: progress.messageID))
        } else {
            sends[send] = progress
        }
    }

    /// A line of a send was refused: the send fails. Its lines not yet written are dropped;
    /// those written stay, to take the answers the server still owes them.
    mutating func refuse(_ entry: Pending, _ failure: SendFailure) {
        guard let send = entry.send, let progress = sends.removeValue(forKey: send) else { return }
        queue.removeAll { $0.send == send }
        events.append(.failed(send, failure, delivered: progress.acknowledged))
    }
}
