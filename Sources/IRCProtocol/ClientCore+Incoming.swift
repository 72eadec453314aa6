extension ClientCore {
    /// Takes one line from the server.
    public mutating func receive(_ message: IRCMessage, at now: Double) {
        if case .closed = phase { return }
        lastHeard = now
        if phase == .registering { urgent += capabilities.handle(message) }
        switch message.command {
        case "PING": urgent.append(IRCMessage("PONG", message.parameters.last ?? ""))
        case "PONG": answered(token: message.parameters.last ?? "", at: now)
        case "ERROR":
            let text = message.parameters.last ?? ""
            if phase == .registering {
                fail(registration: .refused(text))
            } else {
                close(.serverError(text), failing: .disconnected)
            }
        case "001": welcomed(message, at: now)
        case "005": support.update(message)
        case "302": learnUserHost(message[parameter: 1])
        case "396": if message.parameters.count >= 2 { source.host = message[parameter: 1] }
        case "432" where phase == .registering:
            fail(registration: .erroneousNick(message[parameter: 1], text: message.parameters.last ?? ""))
        case "433", "436", "437":
            if phase == .registering { fail(registration: .nickInUse(message[parameter: 1])) }
        case "465", "463", "464", "484":
            if phase == .registering { fail(registration: .refused(message.parameters.last ?? "")) }
        case "JOIN": joined(message)
        case "PART", "KICK": left(message)
        case "QUIT":
            guard let who = message.source?.nick else { return }
            roster.removeEverywhere(who)
            endTypingEverywhere(of: who)
        case "NICK": renamed(message)
        case "353":
            // `353 me = #channel :@alice +bob carol`
            let channel = message[parameter: 2]
            for member in (message.parameters.last ?? "").split(separator: " ") {
                roster.add(String(member.drop { support.memberPrefixes.contains($0) }), to: channel)
            }
        case "PRIVMSG", "NOTICE": textArrived(message, at: now)
        case "TAGMSG": tagsArrived(message, at: now)
        case "401", "402", "403", "404", "406", "407", "411", "412", "413", "414", "442", "477", "481", "482", "489",
            "492", "531":
            refused(message)
        case "471", "473", "474", "475", "476", "405", "479":
            events.append(
                .joinFailed(channel: message[parameter: 1], code: message.command, text: message.parameters.last ?? ""))
        default: break
        }
    }

    private mutating func welcomed(_ message: IRCMessage, at now: Double) {
        guard phase == .registering else { return }
        phase = .registered
        nick = message[parameter: 0].isEmpty ? configuration.nick : message[parameter: 0]
        source.nick = nick
        // `Welcome to the Network alice!~alice@127.0.0.1`: the last word, when it is a mask.
        if let mask = (message.parameters.last ?? "").split(separator: " ").last, mask.contains("!"),
            mask.contains("@")
        {
            let parsed = IRCSource(parsing: mask)
            if IRCNames.folded(parsed.nick) == IRCNames.folded(nick) { source = parsed }
        }
        roster.caseMapping = support.caseMapping
        urgent.append(IRCMessage("USERHOST", nick))
        for channel in joinAfterWelcome { enqueue(IRCMessage("JOIN", channel)) }
        joinAfterWelcome.removeAll()
        events.append(.registered(nick: nick, capabilities: capabilities.enabled))
    }

    /// `alice=+~alice@127.0.0.1` (`*` after the nick marks an operator, `-` for away).
    private mutating func learnUserHost(_ reply: String) {
        for item in reply.split(separator: " ") {
            guard let equals = item.firstIndex(of: "=") else { continue }
            var name = item[..<equals]
            if name.last == "*" { name = name.dropLast() }
            guard IRCNames.folded(String(name)) == IRCNames.folded(nick) else { continue }
            let mask = item[item.index(after: equals)...].dropFirst()  // `+` or `-`
            guard let at = mask.firstIndex(of: "@") else { continue }
            source.user = String(mask[..<at])
            source.host = String(mask[mask.index(after: at)...])
        }
    }

    private func isMe(_ nick: String?) -> Bool {
        guard let nick else { return false }
        return IRCNames.folded(nick, mapping: support.caseMapping)
            == IRCNames.folded(self.nick, mapping: support.caseMapping)
    }

    private mutating func joined(_ message: IRCMessage) {
        guard let who = message.source else { return }
        let channel = message[parameter: 0]
        roster.add(who.nick, to: channel)
        guard isMe(who.nick) else { return }
        if who.user != nil, who.host != nil { source = who }
        events.append(.joined(channel: channel))
    }

    private mutating func left(_ message: IRCMessage) {
        let channel = message[parameter: 0]
        let leaving = message.command == "KICK" ? message[parameter: 1] : message.source?.nick ?? ""
        if isMe(leaving) {
            roster.forget(channel)
            let kickedBy = message.command == "KICK" ? message.source?.nick : nil
            events.append(
                .left(
                    channel: channel, kickedBy: kickedBy,
                    reason: message.parameters.count > (kickedBy == nil ? 1 : 2) ? message.parameters.last ?? "" : ""))
        } else {
            roster.remove(leaving, from: channel)
            endTyping(of: leaving, in: .channel(channel))
        }
    }

    private mutating func renamed(_ message: IRCMessage) {
        guard let old = message.source?.nick else { return }
        let new = message[parameter: 0]
        roster.rename(old, to: new)
        if isMe(old) {
            nick = new
            source.nick = new
            events.append(.nickChanged(new))
        } else {
            endTypingEverywhere(of: old)
        }
    }

    /// A PONG: the keepalive answered, or a fence, acknowledging every line before it.
    private mutating func answered(token: String, at now: Double) {
        if token == keepalive?.token { keepalive = nil }
        guard token.hasPrefix("draftline-"), let fence = Int(token.dropFirst("draftline-".count)) else { return }
        while let first = pending.first, let entryFence = first.fence, entryFence <= fence {
            pending.removeFirst()
            acknowledge(first, time: nil, messageID: nil)
        }
    }

    /// An error numeric about a target: the oldest unanswered line to it is refused.
    private mutating func refused(_ message: IRCMessage) {
        let target = IRCNames.folded(message[parameter: 1], mapping: support.caseMapping)
        guard let index = pending.firstIndex(where: { $0.target == target }) else { return }
        let entry = pending.remove(at: index)
        guard entry.command == "PRIVMSG" else { return }
        let failure: SendFailure
        switch message.command {
        case "401": failure = .noSuchNick(message[parameter: 1])
        case "403", "404", "442": failure = .cannotSendToChannel(message[parameter: 1])
        default: failure = .refused(code: message.command, text: message.parameters.last ?? "")
        }
        refuse(entry, failure)
    }

    private mutating func textArrived(_ message: IRCMessage, at now: Double) {
        guard let from = message.source, message.parameters.count >= 2 else { return }
        var target = message[parameter: 0]
        let text = message[parameter: 1]
        if isMe(from.nick) {
            guard message.command == "PRIVMSG" else { return }
            echoed(text, to: target, tags: message.tags)
            return
        }
        // A server's own notice (no user, or a server name), or one before the welcome.
        if from.user == nil && from.host == nil || from.nick.contains(".") {
            if message.command == "NOTICE" && phase == .registered { events.append(.serverNotice(text)) }
            return
        }
        while let first = target.first, support.statusPrefixes.contains(first) { target.removeFirst() }
        let conversation: Conversation = target.hasPrefix("#") ? .channel(target) : .nick(from.nick)
        var kind: IncomingMessage.Kind = message.command == "NOTICE" ? .notice : .message
        var body = text
        if let ctcp = CTCP(parsing: text) {
            guard ctcp.command == "ACTION" else {
                if message.command == "PRIVMSG" { answer(ctcp, from: from.nick, at: now) }
                return
            }
            kind = .action
            body = ctcp.text
        }
        endTyping(of: from.nick, in: conversation)
        events.append(
            .message(
                IncomingMessage(
                    source: from, conversation: conversation, text: body, kind: kind,
                    time: message.tags["time"].flatMap(ServerTime.seconds), messageID: message.tags["msgid"])))
    }

    /// Answers `VERSION`, `PING`, `TIME` and `CLIENTINFO`, at most once every 2 s.
    private mutating func answer(_ ctcp: CTCP, from nick: String, at now: Double) {
        guard now - lastCTCPReply >= 2 else { return }
        let reply: String
        switch ctcp.command {
        case "VERSION": reply = "draftline"
        case "PING": reply = String(ctcp.text.prefix(64))
        case "CLIENTINFO": reply = "ACTION CLIENTINFO PING VERSION"
        default: return
        }
        lastCTCPReply = now
        enqueue(IRCMessage("NOTICE", nick, CTCP(ctcp.command, reply).messageText))
    }

    /// The server's echo of a line this client sent.
    private mutating func echoed(_ text: String, to target: String, tags: MessageTags) {
        let folded = IRCNames.folded(target, mapping: support.caseMapping)
        let candidates = pending.indices.filter { pending[$0].command == "PRIVMSG" && pending[$0].target == folded }
        // The same text; else a cut one (the echo is shorter, and begins it); else the
        // oldest line to that target, which the server has in a form of its own.
        guard
            let index = candidates.first(where: { pending[$0].text == text })
                ?? candidates.first(where: { pending[$0].text.utf8.starts(with: text.utf8) }) ?? candidates.first
        else { return }
        let entry = pending.remove(at: index)
        if entry.text.utf8.count > text.utf8.count && entry.text.utf8.starts(with: text.utf8) {
            refuse(entry, .cut(sent: entry.text.utf8.count, relayed: text.utf8.count))
        } else {
            acknowledge(entry, time: tags["time"].flatMap(ServerTime.seconds), messageID: tags["msgid"])
        }
    }

    private mutating func tagsArrived(_ message: IRCMessage, at now: Double) {
        guard let from = message.source else { return }
        let target = message[parameter: 0]
        if isMe(from.nick) {
            let folded = IRCNames.folded(target, mapping: support.caseMapping)
            if let index = pending.firstIndex(where: { $0.command == "TAGMSG" && $0.target == folded }) {
                pending.remove(at: index)
            }
            return
        }
        guard let value = message.tags[TypingState.tag], let state = TypingState(rawValue: value) else { return }
        let conversation: Conversation = target.hasPrefix("#") ? .channel(target) : .nick(from.nick)
        let key = typingKey(conversation, from.nick)
        if typing.received(state, for: key, at: now) {
            events.append(.typing(from: key.nick, in: key.conversation, state: state))
        }
    }

    /// Typing is kept by folded names, and reported by them.
    func typingKey(_ conversation: Conversation, _ nick: String) -> TypingKey {
        let fold = { IRCNames.folded($0, mapping: support.caseMapping) }
        switch conversation {
        case .nick(let name): return TypingKey(conversation: .nick(fold(name)), nick: fold(nick))
        case .channel(let name): return TypingKey(conversation: .channel(fold(name)), nick: fold(nick))
        }
    }

    private mutating func endTyping(of nick: String, in conversation: Conversation) {
        let key = typingKey(conversation, nick)
        if typing.messageArrived(for: key) {
            events.append(.typing(from: key.nick, in: key.conversation, state: .done))
        }
    }

    private mutating func endTypingEverywhere(of nick: String) {
        for conversation in [Conversation.nick(nick)] + roster.channels.map(Conversation.channel) {
            endTyping(of: nick, in: conversation)
        }
    }
}
