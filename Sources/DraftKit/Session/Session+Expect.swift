/// `/expect`: what a QA script states, checked against the session. The edit line checked
/// is the one this event started with (the pre-fill), since a command typed into the line
/// does not change it.
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
        case .drafts(let count):
            found = .count(drafts.count)
            holds = drafts.count == count
        case .messages(let count):
            let stored = try storedCount()
            found = .count(stored)
            holds = stored == count
        case .message(let place, let text, let sender, let type):
            let (message, held) = try message(place)
            found = .message(message, held: held)
            holds =
                message.map {
                    (text == nil || $0.content == text) && (sender == nil || $0.author == sender?.rawValue)
                        && (type == nil || $0.type == type)
                } ?? false
        case .undo(let count):
            found = .count(drafts.undoStack.count)
            holds = drafts.undoStack.count == count
        case .undoTop(let text):
            let top = drafts.undoStack.last?.draft.text
            found = .undoTop(top, entries: drafts.undoStack.count)
            holds = top?.text == text
        case .line(let text, let cursor):
            found = .line(line)
            holds = line.text == text && (cursor == nil || line.cursor == cursor)
        case .screen(let name):
            found = .screen(screenName)
            holds = screenName == name
        case .error(let kind):
            let kinds = lastLineErrors.map(\.kind)
            found = .errors(kinds)
            holds = kind.map(kinds.contains) ?? !kinds.isEmpty
        }
        guard holds else { throw .expectationFailed(expectation, found: found) }
        return [.expectationMet(expectation)]
    }

    /// Keeps the errors of an event for `/expect error`, unless the event was a check: an
    /// answer to a question adds to those of the event that asked it (a name refused and
    /// then given again is one step, as a recording writes it).
    /// A piped line too long to read (its bytes were skipped; only its length is known):
    /// its error, which the script's next line may check (`/expect error line-too-long`),
    /// as it may any other line's. Nothing else changes.
    public func refuseUnreadLine(bytes: Int) -> [Report] {
        let reports: [Report] = [.error(.lineTooLong(bytes, setAside: false))]
        lineToEnterAgain = nil
        rememberErrors(of: reports, answering: false)
        return reports
    }

    func rememberErrors(of reports: [Report], answering: Bool) {
        guard !reports.contains(where: \.isCheck) else { return }
        lastLineErrors = (answering ? lastLineErrors : []) + reports.compactMap(\.error)
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

    /// How many messages the open chat holds; a failed read is the error that names its
    /// file, never 0.
    func storedCount() throws(DraftlineError) -> Int {
        let target = try currentTarget()
        do throws(StoreError) {
            let reading = try history.messageCount(in: target.chatID(as: identity))
            note(reading.warnings)
            return reading.value
        } catch {
            throw .historyUnreadable(error)
        }
    }

    /// The open chat's `place`th message from the end (1 the last), if it holds that many,
    /// and how many it holds (counted only when it holds fewer).
    private func message(_ place: Int) throws(DraftlineError) -> (Message?, held: Int) {
        let target = try currentTarget()
        do throws(StoreError) {
            let chat = target.chatID(as: identity)
            let reading = try history.recentMessages(in: chat, limit: place)
            note(reading.warnings)
            guard reading.value.count < place else { return (reading.value.first, place) }
            return (nil, reading.value.count)
        } catch {
            throw .historyUnreadable(error)
        }
    }
}

extension Report {
    /// The error this reports, if it is one.
    public var error: DraftlineError? {
        guard case .error(let error) = self else { return nil }
        return error
    }
}
