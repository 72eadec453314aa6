import Foundation

/// The commands' work: what each declaration in ``CommandCatalogue`` calls.
extension Session {
    func open(_ key: GlobalKey) throws(DraftlineError) -> [Report] {
        try checkKnown(key)
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
        return enter(screen)
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
        return rules.attach(attachment, to: target).map(Report.draft)
            + [.attachments(drafts.attachments(for: target.draftKey))]
    }

    func detach(_ number: String?) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        return try rules.detach(number, from: target).map(Report.draft)
            + [.attachments(drafts.attachments(for: target.draftKey))]
    }

    func sendLocation(latitude: Double, longitude: Double, address: String) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        var message = outbox.compose("", to: target)
        message.type = "location"
        message.latitude = latitude
        message.longitude = longitude
        message.address = address
        do throws(StoreError) {
            note(try outbox.send(message, to: target))
        } catch {
            hadSendFailure = true
            throw .notSent(error.description)
        }
        notifyPeers(of: [message], to: target)
        return [.sent(message)]
    }

    func showHistory(count: Int) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        do throws(StoreError) {
            let reading = try history.recentMessages(in: target.chatID(as: identity), limit: count)
            note(reading.warnings)
            return [.messages(reading.value)]
        } catch {
            throw .historyUnreadable(error.description)
        }
    }

    /// `/chats [n|all]`: the `n` most recently active chats (default
    /// ``CommandCatalogue/defaultChatCount``), or all of them.
    func chatList(_ word: String?) throws(DraftlineError) -> [Report] {
        var limit: Int? = CommandCatalogue.defaultChatCount
        if let word {
            if word == "all" {
                limit = nil
            } else {
                guard let count = Int(word), CommandCatalogue.chatCountRange.contains(count) else {
                    throw .invalidChatCount(word)
                }
                limit = count
            }
        }
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
            throw .historyUnreadable(error.description)
        }
        var entries = ChatListEntry.list(
            summaries, drafts: DraftMapEntry.map(of: drafts, at: clock()), updated: drafts.updated, unread: unread,
            identity: identity)
        var more = false
        if let limit, entries.count > limit || summaries.count == limit {
            more = true
            entries = Array(entries.prefix(limit))
        }
        return [.chatList(entries, more: more)]
    }

    /// The draft map, as `/drafts` shows it; asking changes nothing (not even a pending
    /// quit), so a key can show it in the middle of a line.
    public func draftMap() -> [Report] { [.draftMap(DraftMapEntry.map(of: drafts, at: clock()))] }

    func discard() throws(DraftlineError) -> [Report] {
        guard let target = screen.target else { throw .noDraftHere }
        return try rules.discard(target).map(Report.draft) + [.discarded]
    }

    func undo() throws(DraftlineError) -> [Report] {
        let result = try rules.undo()
        return result.events.map(Report.draft) + [
            .undone(result.restored.draft, key: result.restored.key, replaced: result.replaced)
        ]
    }

    func setTracing(_ on: Bool) -> [Report] {
        isTracing = on
        return [.tracing(on)]
    }

    /// `/tour [chapter] [speed]`, in either order: asks the front end to play it.
    func requestTour(_ words: [String]) throws(DraftlineError) -> Outcome {
        let tourChapters = capabilities.tourChapters
        guard !tourChapters.isEmpty else { throw .tourNeedsTerminal }
        var chapter: String?
        var speed = 1.0
        for word in words {
            if let number = Double(word) {
                guard number.isFinite, number > 0, number <= 1000 else { throw .invalidSpeed(word) }
                speed = number
            } else {
                guard tourChapters.contains(word) else {
                    throw .unexpectedArgument(word, usage: "/tour [\(tourChapters.joined(separator: "|"))] [speed]")
                }
                chapter = word
            }
        }
        return Outcome(effects: [.playTour(chapter: chapter, speed: speed)])
    }

    func quit() -> Outcome {
        hasQuit = true
        let events = rules.forgetAll()
        let gone = events.map(\.key)
        return Outcome(events.map(Report.draft) + (gone.isEmpty ? [] : [.forgotten(gone)]), effects: [.quit])
    }

    /// `/expect`: checks what a tester states; a mismatch is one error line saying what
    /// was expected and what was found.
    func expect(_ what: String, _ details: String) throws(DraftlineError) -> [Report] {
        var words = Command.Words(details)
        /// The rest of the line; in double quotes, exactly what is between them (so that
        /// blanks at either end count).
        func quotedRest() -> String {
            let rest = words.takeRest()
            guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else { return rest }
            return String(rest.dropFirst().dropLast())
        }
        func draftKey() throws(DraftlineError) -> String {
            guard let key = words.next() else {
                throw .missingArgument(usage: "/expect \(what) <key>" + (what == "no-draft" ? "" : " ..."))
            }
            return key
        }
        func check(_ holds: Bool, _ statement: String, found: String) throws(DraftlineError) -> [Report] {
            guard holds else { throw .expectationFailed(statement, found: found) }
            return [.expectationMet(statement)]
        }
        switch what {
        case "draft", "no-draft", "media":
            let key = try draftKey()
            let draftKey = drafts.keys.first { $0.rawValue == key }
            let text = draftKey.flatMap { drafts.text(for: $0)?.text }
            let media = draftKey.map { drafts.attachments(for: $0).count } ?? 0
            let shown = text.map { "\"\($0)\"" } ?? "no text"
            switch what {
            case "draft":
                let expected = quotedRest()
                return try check(text == expected, "draft \(key) is \"\(expected)\"", found: shown)
            case "no-draft":
                return try check(text == nil && media == 0, "no draft for \(key)", found: "\(shown), \(media) attached")
            default:
                let expected = words.next() ?? ""
                guard let count = Int(expected) else { throw .invalidCount(expected, range: 0...Int.max) }
                return try check(media == count, "\(key) has \(count) attached", found: "\(media)")
            }
        case "last-message":
            let target = try currentTarget()
            let last: Message?
            do throws(StoreError) {
                let reading = try history.recentMessages(in: target.chatID(as: identity), limit: 1)
                note(reading.warnings)
                last = reading.value.last
            } catch {
                throw .historyUnreadable(error.description)
            }
            let expected = quotedRest()
            return try check(
                last?.content == expected, "last message is \"\(expected)\"",
                found: last.map { "\"\($0.content)\"" } ?? "no message")
        default:
            let expected = words.takeRest()
            return try check(screenName == expected, "screen is \(expected)", found: screenName)
        }
    }

    /// The screen as `/expect screen` names it: `home`, `alice`, `profile alice`, `tweet 123`.
    public var screenName: String {
        switch screen {
        case .home: return "home"
        case .chat(.privateChat(let user)): return user.rawValue
        case .chat(.comment(let kind, let id, _)): return "\(kind.rawValue) \(id)"
        case .profile(let user): return "profile \(user)"
        }
    }
}
