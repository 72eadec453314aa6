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
    public internal(set) var navigator = Navigator()
    /// The drafts and the undo stack.
    public internal(set) var rules: DraftRules
    /// Whether the user quit.
    public internal(set) var hasQuit = false
    /// Whether a message could not be stored during this session.
    public internal(set) var hadSendFailure = false
    /// Whether every draft event is shown (`--trace`, `/trace on`).
    public var isTracing: Bool
    /// What the front end can do: take text back into an edit line, play the tour.
    public let capabilities: Capabilities
    /// A line given back to the edit line that is no draft: text typed where no chat is
    /// open, after a key or Enter that could not keep it. Used by the next read only.
    public private(set) var returnedLine: TextDraft?
    /// Whether Ctrl-D was pressed once with drafts in memory: a second one quits.
    public private(set) var isQuitPending = false
    /// Messages that arrived in chats that were not open, by chat, since each was last
    /// opened. In memory, like drafts: a new session starts with none.
    public internal(set) var unread: [ChatID: Int] = [:]
    /// Messages that arrived (shown in the open chat or announced) that no `/wait` has
    /// counted yet: a wait counts these first, so an arrival between two lines of a
    /// script is never missed.
    public internal(set) var arrivalsNotWaitedFor = 0
    /// People who answer what is sent to them (`--demo`).
    public let peers: DemoPeers?

    /// The users one can chat with, loaded when first needed (not at start-up).
    public private(set) lazy var contacts: ContactBook = {
        var book = loadContacts()
        if identity != .me { book.add(Contact(key: .me, name: "me")) }
        if let problem = book.problem { pendingReports.append(.warning(.contacts(problem))) }
        if book.skipped > 0 { pendingReports.append(.warning(.contactsSkipped(book.skipped))) }
        return book
    }()
    /// Where messages are kept.
    public let history: any HistoryStore
    /// Who the user is (`--as`): the sender of what they send, and one of the two people
    /// of every private chat they open.
    public let identity: GlobalKey
    /// The clock every time, age and message ID follows.
    public let clock: @Sendable () -> Date

    private let loadContacts: () -> ContactBook
    let outbox: Outbox
    let workingDirectory: String
    let home: String?
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
        workingDirectory: String = "/", home: String? = nil, clock: @escaping @Sendable () -> Date = { Date() },
        idSuffix: Outbox.IDSuffix = .random, identity: GlobalKey = .me, capabilities: Capabilities = .terminal,
        peers: DemoPeers? = nil
    ) {
        self.identity = identity
        self.capabilities = capabilities
        self.peers = peers
        self.loadContacts = contacts
        self.history = history
        self.isTracing = tracing
        self.workingDirectory = workingDirectory
        self.home = home
        self.clock = clock
        rules = DraftRules(clock: clock)
        outbox = Outbox(history: history, identity: identity, clock: clock, idSuffix: idSuffix)
    }

    /// Every unsent draft.
    public var drafts: DraftStore { rules.drafts }
    /// The current screen.
    public var screen: Screen { navigator.screen }
    /// Whether `^X o` asked for the name of a chat to open and the next line answers.
    public var isAskingForChat: Bool { navigator.isAskingForChat }
    /// What the next line answers, if it answers a question.
    public var question: Navigator.Question? { navigator.question }
    /// The prompt that names where the user is.
    public var prompt: String { navigator.prompt }

    /// What the next edit line starts with: the current target's draft, if it has one
    /// (or a line given back where no chat is open).
    public var prefill: TextDraft? {
        guard navigator.question == nil else { return nil }
        return returnedLine ?? restoredDraft
    }

    /// The current target's draft, when the next edit line starts with it: what a command
    /// typed into the line is told apart from.
    public var restoredDraft: TextDraft? {
        guard navigator.question == nil, let target = screen.target else { return nil }
        return drafts.text(for: target.draftKey)
    }

    /// Handles one input event: what to show, and what the front end is asked to do.
    @discardableResult
    public func handle(_ event: InputEvent) -> Outcome {
        guard !hasQuit else { return [] }
        // What the edit line started with for this event, before anything changes.
        let given = restoredDraft
        returnedLine = nil
        if event != .quitRequest { isQuitPending = false }
        var outcome: Outcome
        switch event {
        case .endOfInput:
            outcome = quit()
        case .quitRequest:
            outcome = requestQuit()
        case .interrupt(let line):
            outcome = Outcome(interrupt(line))
        case .leave(let key, let buffer):
            outcome = Outcome(leave(with: key, buffer: buffer))
        case .line(let line) where line.utf8.count > Self.maximumLineBytes:
            outcome = [.error(.lineTooLong(line.utf8.count))]
        case .line(let line):
            outcome = enter(line, given: given)
        }
        return outcome + takePendingReports()
    }

    /// Warnings that arrived between reports.
    /// Keeps the store's warnings of a call this session made, to show after its report.
    func note(_ warnings: [StoreWarning]) {
        pendingReports += warnings.map { .warning(.store($0)) }
    }

    func takePendingReports() -> [Report] {
        defer { pendingReports = [] }
        return pendingReports
    }

    /// Enter on `line`, which started as `given`.
    private func enter(_ line: String, given: TextDraft?) -> Outcome {
        switch navigator.question {
        case .chatName:
            return Outcome(answerChatName(line))
        case .command:
            navigator.question = nil
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return [] }
            return run(text.hasPrefix("/") ? text : "/" + text)
        case nil:
            if let given, let command = CommandInDraft.find(in: line, restored: given) { return run(command) }
            if line.hasPrefix("/") && !line.hasPrefix("//") { return run(line) }
            return Outcome(send(line.hasPrefix("//") ? String(line.dropFirst()) : line))
        }
    }

    private func run(_ line: String) -> Outcome {
        do throws(DraftlineError) {
            return try Command(parsing: line, capabilities: capabilities).run(in: self)
        } catch {
            return [.error(error)]
        }
    }

    /// Ctrl-D on an empty line: quits, or with drafts in memory, warns first.
    private func requestQuit() -> Outcome {
        if navigator.question != nil {
            navigator.question = nil
            return Outcome(enter(screen))
        }
        guard !drafts.isEmpty, !isQuitPending else { return quit() }
        isQuitPending = true
        return [.quitPending(drafts.count)]
    }

    /// Ctrl-C: the line is abandoned; a draft in it goes on the undo stack.
    private func interrupt(_ line: TextDraft) -> [Report] {
        if navigator.question != nil {
            navigator.question = nil
            return enter(screen)
        }
        guard let target = screen.target else { return [] }
        let events = rules.interrupt(target, line: line)
        return events.map(Report.draft) + (events.isEmpty ? [] : [.abandoned])
    }

    /// What the completion key does with this text before the cursor.
    public func complete(_ before: String) -> Completion {
        let users = contacts.keys
        if isAskingForChat {
            guard !before.contains(" ") else { return .none }
            return .of(before, among: users.map(\.rawValue).filter { $0.hasPrefix(before) })
        }
        if navigator.question == .command, !before.hasPrefix("/") {
            let (word, candidates) = CommandCatalogue.completions(
                for: "/" + before, users: users, capabilities: capabilities)
            let bare = before.contains(" ") ? word : String(word.dropFirst())
            return .of(
                bare, among: candidates.map { before.contains(" ") ? $0 : String($0.dropFirst()) },
                suffix: before.contains(" ") ? "" : " ")
        }
        let (word, candidates) = CommandCatalogue.completions(for: before, users: users, capabilities: capabilities)
        let isCommandName = before.hasPrefix("/") && !before.contains(" ")
        return .of(word, among: candidates, suffix: isCommandName ? " " : "")
    }

    // MARK: - Screens

    private func leave(with key: LeaveKey, buffer: TextDraft) -> [Report] {
        guard let target = screen.target else {
            // No chat here to keep a draft for: the text comes back rather than vanish.
            if !buffer.text.isEmpty {
                if capabilities.editLine { returnedLine = buffer }
                return [.error(.nothingToKeepDraftFor(buffer.text))]
            }
            return navigate(with: key)
        }
        return rules.leave(target, with: buffer, via: key).map(Report.draft) + navigate(with: key)
    }

    private func navigate(with key: LeaveKey) -> [Report] {
        do throws(DraftlineError) {
            switch key {
            case .profile: return try showProfile(of: nil)
            case .back: return try back()
            case .open:
                navigator.question = .chatName
                return []
            case .command:
                navigator.question = .command
                return []
            }
        } catch {
            // Nowhere to go: stay, with the draft saved and back in the edit line.
            return [.error(error)]
        }
    }

    /// The answer to "open chat with:". A name that cannot be opened asks again; an empty
    /// line cancels.
    private func answerChatName(_ line: String) -> [Report] {
        let name = line.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            navigator.question = nil
            return enter(screen)
        }
        do throws(DraftlineError) {
            let key = try GlobalKey(validating: name)
            try checkOpenable(key)
            navigator.question = nil
            return try open(key)
        } catch {
            return [.error(error)]
        }
    }

    func go(to next: Screen) -> [Report] {
        navigator.push(next)
        return enter(next)
    }

    /// What arriving on a screen shows.
    func enter(_ screen: Screen) -> [Report] {
        switch screen {
        case .home:
            return [.home]
        case .chat(let target):
            unread[target.chatID(as: identity)] = nil
            var reports: [Report] = [.chatTitle(target, name: target.otherUser.flatMap(displayName(of:)))]
            do throws(StoreError) {
                let reading = try history.recentMessages(in: target.chatID(as: identity), limit: Self.openHistoryCount)
                note(reading.warnings)
                reports.append(.messages(reading.value))
            } catch {
                reports.append(.error(.historyUnreadable(error)))
            }
            reports += rules.enter(target).map(Report.draft)
            let media = drafts.attachments(for: target.draftKey)
            if !media.isEmpty { reports.append(.attachments(media)) }
            return reports
        case .profile(let user):
            return [
                .profile(
                    Profile(
                        of: user, name: displayName(of: user), as: identity, history: history, drafts: drafts,
                        from: navigator.previousScreen, warnings: &pendingReports))
            ]
        }
    }

    func checkKnown(_ key: GlobalKey) throws(DraftlineError) {
        guard contacts[key] != nil else { throw .unknownUser(key) }
    }

    func currentTarget() throws(DraftlineError) -> InputTarget {
        guard let target = screen.target else { throw .noChatOpen }
        return target
    }

    // MARK: - Sending

    private func send(_ text: String) -> [Report] {
        guard let target = screen.target else {
            if capabilities.editLine && !text.isEmpty { returnedLine = TextDraft(text: text) }
            return [.error(.notSentNoChat(String(text.prefix(40))))]
        }
        let (taken, events) = rules.takeForSending(target, text: text)
        var reports = events.map(Report.draft)
        if text.allSatisfy(\.isWhitespace) && taken.attachments.isEmpty { return reports }
        let result = outbox.send(text, attachments: taken.attachments, to: target)
        note(result.warnings)
        reports += result.gone.map { .warning(.attachmentGone($0.name)) }
        reports += result.stored.map(Report.sent)
        notifyPeers(of: result.stored, to: target)
        if let failure = result.failure {
            hadSendFailure = true
            if capabilities.editLine {
                reports += rules.putBack(failure.unsent, for: target).map(Report.draft)
                reports.append(.error(.notSent(failure.error)))
            } else {
                reports += rules.setAside(failure.unsent, for: target).map(Report.draft)
                reports.append(.error(.notSentSetAside(failure.error, text: String(text.prefix(40)))))
            }
        }
        return reports
    }
}
