import Foundation

/// The draftline REPL as plain data: it takes ``InputEvent``s and answers with
/// ``Report``s.
///
/// A session coordinates the parts: the ``Navigator`` (where the user is), the
/// ``DraftRules`` (what happens to drafts), the ``Outbox`` (sending), the commands of the
/// ``CommandCatalogue``, and the history store. It knows no terminal: a front end reads
/// the edit line (pre-filled with ``prefill``, prompted with ``prompt``), hands over what
/// happened, and presents the reports; tests drive it directly.
public final class Session {
    /// Where the user is.
    public private(set) var navigator = Navigator()
    /// The drafts and the undo stack.
    public private(set) var rules: DraftRules
    /// Whether the user quit.
    public private(set) var hasQuit = false
    /// Whether a message could not be stored during this session.
    public private(set) var hadSendFailure = false
    /// Whether every draft event is shown (`--trace`, `/trace on`).
    public var isTracing: Bool
    /// Whether the tour can be played here (a terminal); set by the front end.
    public var canPlayTour = false
    /// The tour speed `/tour` asked for, until the front end takes it.
    public private(set) var requestedTour: Double?

    /// The users one can chat with, loaded when first needed (not at start-up).
    public private(set) lazy var contacts: ContactBook = {
        let book = loadContacts()
        if let problem = book.problem { pendingReports.append(.warning(.contacts(problem))) }
        if book.skipped > 0 { pendingReports.append(.warning(.contactsSkipped(book.skipped))) }
        return book
    }()
    /// Where messages are kept.
    public let history: any HistoryStore
    /// The clock every time, age and message ID follows.
    public let clock: @Sendable () -> Date

    private let loadContacts: () -> ContactBook
    private let outbox: Outbox
    private let workingDirectory: String
    private let home: String?
    /// Warnings that arrived between reports, shown after the next one.
    private var pendingReports: [Report] = []

    /// How many messages opening a chat shows.
    public static let openHistoryCount = 20
    /// The longest line, message or command, draftline takes: 64 KiB of UTF-8.
    public static let maximumLineBytes = 64 * 1024

    /// Makes a session. `contacts` is evaluated when first needed; `workingDirectory` and
    /// `home` resolve relative paths and `~` given to `/attach`.
    public init(
        contacts: @autoclosure @escaping () -> ContactBook, history: any HistoryStore, tracing: Bool = false,
        workingDirectory: String = "/", home: String? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.loadContacts = contacts
        self.history = history
        self.isTracing = tracing
        self.workingDirectory = workingDirectory
        self.home = home
        self.clock = clock
        rules = DraftRules(clock: clock)
        outbox = Outbox(history: history, clock: clock)
        history.onWarning = { [weak self] warning in self?.pendingReports.append(.warning(.store(warning))) }
    }

    /// Every unsent draft.
    public var drafts: DraftStore { rules.drafts }
    /// The current screen.
    public var screen: Screen { navigator.screen }
    /// Whether `^X o` asked for the name of a chat to open and the next line answers.
    public var isAskingForChat: Bool { navigator.isAskingForChat }
    /// The prompt that names where the user is.
    public var prompt: String { navigator.prompt }

    /// What the next edit line starts with: the current target's draft, if it has one.
    public var prefill: TextDraft? {
        guard !isAskingForChat, let target = screen.target else { return nil }
        return drafts.text(for: target.draftKey)
    }

    /// Takes the tour `/tour` asked for, if any: its speed.
    public func takeRequestedTour() -> Double? {
        defer { requestedTour = nil }
        return requestedTour
    }

    /// Handles one input event and returns what to show.
    @discardableResult
    public func handle(_ event: InputEvent) -> [Report] {
        guard !hasQuit else { return [] }
        var reports: [Report]
        switch event {
        case .endOfInput:
            reports = quit()
        case .interrupt:
            reports = []
            if isAskingForChat {
                navigator.isAskingForChat = false
                reports = enter(screen)
            }
        case .leave(let key, let buffer):
            reports = leave(with: key, buffer: buffer)
        case .line(let line) where line.utf8.count > Self.maximumLineBytes:
            reports = [.error(.lineTooLong(line.utf8.count))]
        case .line(let line):
            if isAskingForChat {
                navigator.isAskingForChat = false
                reports = answerChatName(line)
            } else if line.hasPrefix("/") && !line.hasPrefix("//") {
                do throws(DraftlineError) {
                    reports = try Command(parsing: line).run(in: self)
                } catch {
                    reports = [.error(error)]
                }
            } else {
                reports = send(line.hasPrefix("//") ? String(line.dropFirst()) : line)
            }
        }
        defer { pendingReports = [] }
        return reports + pendingReports
    }

    /// What the completion key does with this text before the cursor.
    public func complete(_ before: String) -> Completion {
        let users = contacts.keys
        if isAskingForChat {
            guard !before.contains(" ") else { return .none }
            return .of(before, among: users.map(\.rawValue).filter { $0.hasPrefix(before) })
        }
        let (word, candidates) = CommandCatalogue.completions(for: before, users: users)
        let isCommandName = before.hasPrefix("/") && !before.contains(" ")
        return .of(word, among: candidates, suffix: isCommandName ? " " : "")
    }

    // MARK: - Screens

    private func leave(with key: LeaveKey, buffer: TextDraft) -> [Report] {
        var reports: [Report] = []
        if let target = screen.target {
            reports += rules.leave(target, with: buffer, via: key).map(Report.draft)
        }
        do throws(DraftlineError) {
            switch key {
            case .profile: return reports + (try showProfile(of: nil))
            case .back: return reports + (try back())
            case .open:
                navigator.isAskingForChat = true
                return reports
            }
        } catch {
            // Nowhere to go: stay, with the draft saved and back in the edit line.
            return reports + [.error(error)]
        }
    }

    private func answerChatName(_ line: String) -> [Report] {
        let name = line.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return enter(screen) }
        do throws(DraftlineError) {
            return try open(try GlobalKey(validating: name))
        } catch {
            return [.error(error)] + enter(screen)
        }
    }

    private func go(to next: Screen) -> [Report] {
        navigator.push(next)
        return enter(next)
    }

    /// What arriving on a screen shows.
    private func enter(_ screen: Screen) -> [Report] {
        switch screen {
        case .home:
            return [.home]
        case .chat(let target):
            var reports: [Report] = [.chatTitle(target)]
            do throws(StoreError) {
                reports.append(.messages(try history.recentMessages(in: target.chatID, limit: Self.openHistoryCount)))
            } catch {
                reports.append(.error(.historyUnreadable(error.description)))
            }
            reports += rules.enter(target).map(Report.draft)
            let media = drafts.attachments(for: target.draftKey)
            if !media.isEmpty { reports.append(.attachments(media)) }
            return reports
        case .profile(let user):
            return [.profile(Profile(of: user, history: history, drafts: drafts, from: navigator.previousScreen))]
        }
    }

    private func checkKnown(_ key: GlobalKey) throws(DraftlineError) {
        guard contacts[key] != nil else { throw .unknownUser(key) }
    }

    private func currentTarget() throws(DraftlineError) -> InputTarget {
        guard let target = screen.target else { throw .noChatOpen }
        return target
    }

    // MARK: - Commands

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
            try outbox.send(message, to: target)
        } catch {
            hadSendFailure = true
            throw .notSent(error.description)
        }
        return [.sent(message)]
    }

    func showHistory(count: Int) throws(DraftlineError) -> [Report] {
        let target = try currentTarget()
        do throws(StoreError) {
            return [.messages(try history.recentMessages(in: target.chatID, limit: count))]
        } catch {
            throw .historyUnreadable(error.description)
        }
    }

    func chatList() throws(DraftlineError) -> [Report] {
        let summaries: [ChatSummary]
        do throws(StoreError) { summaries = try history.chats() } catch {
            throw .historyUnreadable(error.description)
        }
        return [
            .chatList(
                ChatListEntry.list(
                    summaries, drafts: DraftMapEntry.map(of: drafts, at: clock()), updated: drafts.updated))
        ]
    }

    func draftMap() -> [Report] { [.draftMap(DraftMapEntry.map(of: drafts, at: clock()))] }

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

    func requestTour(speed: Double) throws(DraftlineError) -> [Report] {
        guard canPlayTour else { throw .tourNeedsTerminal }
        requestedTour = speed
        return []
    }

    func quit() -> [Report] {
        hasQuit = true
        let events = rules.forgetAll()
        let gone = events.map(\.key)
        return events.map(Report.draft) + (gone.isEmpty ? [] : [.forgotten(gone)])
    }

    // MARK: - Sending

    private func send(_ text: String) -> [Report] {
        guard let target = screen.target else {
            return [.error(.notSentNoChat(String(text.prefix(40))))]
        }
        let (taken, events) = rules.takeForSending(target, text: text)
        var reports = events.map(Report.draft)
        if text.allSatisfy(\.isWhitespace) && taken.attachments.isEmpty { return reports }
        let result = outbox.send(text, attachments: taken.attachments, to: target)
        reports += result.stored.map(Report.sent)
        if let failure = result.failure {
            hadSendFailure = true
            reports += rules.putBack(failure.unsent, for: target).map(Report.draft)
            reports.append(.error(.notSent(failure.error.description)))
        }
        return reports
    }
}
