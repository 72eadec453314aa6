/// `/expect`: what a QA script states, checked against the session.
extension Session {
    /// Checks an expectation: met, it is reported; not met, the error says what was
    /// expected and what was found.
    func expect(_ expectation: Expectation) throws(DraftlineError) -> [Report] {
        let found: Expectation.Found
        let holds: Bool
        switch expectation {
        case .draft(let key, let text, let cursor, let media):
            let draft = drafts.text(for: key)
            let count = drafts.attachments(for: key).count
            found = .draft(draft, media: count)
            holds =
                (draft != nil || count > 0) && (text == nil || draft?.text == text)
                && (cursor == nil || draft?.cursor == cursor) && (media == nil || count == media)
        case .noDraft(let key):
            let draft = drafts.text(for: key)
            let count = drafts.attachments(for: key).count
            found = .draft(draft, media: count)
            holds = draft == nil && count == 0
        case .messages(let count):
            let stored = try storedCount()
            found = .messages(stored)
            holds = stored == count
        case .lastMessage(let text, let sender, let type):
            let last = try lastMessage()
            found = .lastMessage(last)
            holds =
                last.map {
                    (text == nil || $0.content == text) && (sender == nil || $0.author == sender?.rawValue)
                        && (type == nil || $0.type == type)
                } ?? false
        case .screen(let name):
            found = .screen(screenName)
            holds = screenName == name
        }
        guard holds else { throw .expectationFailed(expectation, found: found) }
        return [.expectationMet(expectation)]
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

    private func storedCount() throws(DraftlineError) -> Int {
        let target = try currentTarget()
        do throws(StoreError) {
            let reading = try history.messageCount(in: target.chatID(as: identity))
            note(reading.warnings)
            return reading.value
        } catch {
            throw .historyUnreadable(error)
        }
    }

    private func lastMessage() throws(DraftlineError) -> Message? {
        let target = try currentTarget()
        do throws(StoreError) {
            let reading = try history.recentMessages(in: target.chatID(as: identity), limit: 1)
            note(reading.warnings)
            return reading.value.last
        } catch {
            throw .historyUnreadable(error)
        }
    }
}
