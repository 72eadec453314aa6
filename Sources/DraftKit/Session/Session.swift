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
    /// Whether unsent text can come back in the edit line (a terminal): a failed send
    /// puts it back as the draft. Without an edit line (a pipe) it goes on the undo stack,
    /// so that the next line is a message of its own.
    public var returnsTextToLine = true
    /// A line given back to the edit line that is no draft: text typed where no chat is
    /// open, after a key or Enter that could not keep it. Used by the next read only.
    public private(set) var returnedLine: TextDraft?
    /// Whether Ctrl-D was pressed once with drafts in memory: a second one quits.
    public private(set) var isQuitPending = false

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

    /// Takes the tour `/tour` asked for, if any: its speed.
    public func takeRequestedTour() -> Double? {
        defer { requestedTour = nil }
        return requestedTour
    }

    /// Handles one input event and returns what to show.
    @discardableResult
    public func handle(_ event: InputEvent) -> [Report] {
        guard !hasQuit else { return [] }
        // What the edit line started with for this event, before anything changes.
        let given = restoredDraft
        returnedLine = nil
        if event != .quitRequest { isQuitPending = false }
        var reports: [Report]
        switch event {
        case .endOfInput:
            reports = quit()
        case .quitRequest:
            reports = requestQuit()
        case .interrupt(let line):
            reports = interrupt(line)
        case .leave(let key, let buffer):
            reports = leave(with: key, buffer: buffer)
        case .line(let line) where line.utf8.count > Self.maximumLineBytes:
            reports = [.error(.lineTooLong(line.utf8.count))]
        case .line(let line):
            reports = enter(line, given: given)
        }
        defer { pendingReports = [] }
        return reports + pendingReports
    }

    /// Enter on `line`, which started as `given`.
    private func enter(_ line: String, given: TextDraft?) -> [Report] {
        switch navigator.question {
        case .chatName:
            return answerChatName(line)
        case .command:
            navigator.question = nil
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return [] }
            return run(text.hasPrefix("/") ? text : "/" + text)
        case nil:
            if let given, let command = Self.command(insertedInto: given, making: line) { return run(command) }
            if line.hasPrefix("/") && !line.hasPrefix("//") { return run(line) }
            return send(line.hasPrefix("//") ? String(line.dropFirst()) : line)
        }
    }

    private func run(_ line: String) -> [Report] {
        do throws(DraftlineError) {
            return try Command(parsing: line).run(in: self)
        } catch {
            return [.error(error)]
        }
    }

    /// The command in `line` when it is `given` with one contiguous insertion that starts
    /// with `/` and a declared command name: a command typed into a restored draft.
    ///
    /// Exact, not a guess: every place the insertion could have gone is tried, the
    /// restored cursor first. `//` starts no command.
    public static func command(insertedInto given: TextDraft, making line: String) -> String? {
        let draft = Array(given.text.unicodeScalars)
        let typed = Array(line.unicodeScalars)
        let extra = typed.count - draft.count
        guard extra > 0 else { return nil }
        var prefix = 0
        while prefix < draft.count && draft[prefix] == typed[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < draft.count && draft[draft.count - 1 - suffix] == typed[typed.count - 1 - suffix] { suffix += 1 }
        guard draft.count - suffix <= prefix else { return nil }
        let places = [given.cursor] + Array((draft.count - suffix)...prefix)
        for place in places where (draft.count - suffix...prefix).contains(place) {
            var inserted = String.UnicodeScalarView()
            inserted.append(contentsOf: typed[place..<place + extra])
            let candidate = String(inserted)
            guard candidate.hasPrefix("/"), !candidate.hasPrefix("//") else { continue }
            let name = candidate.dropFirst().prefix { $0 != " " && $0 != "\t" }
            if CommandCatalogue.spec(named: String(name)) != nil { return candidate }
        }
        return nil
    }

    /// Ctrl-D on an empty line: quits, or with drafts in memory, warns first.
    private func requestQuit() -> [Report] {
        if navigator.question != nil {
            navigator.question = nil
            return enter(screen)
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
            let (word, candidates) = CommandCatalogue.completions(for: "/" + before, users: users)
            let bare = before.contains(" ") ? word : String(word.dropFirst())
            return .of(
                bare, among: candidates.map { before.contains(" ") ? $0 : String($0.dropFirst()) },
                suffix: before.contains(" ") ? "" : " ")
        }
        let (word, candidates) = CommandCatalogue.completions(for: before, users: users)
        let isCommandName = before.hasPrefix("/") && !before.contains(" ")
        return .of(word, among: candidates, suffix: isCommandName ? " " : "")
    }

    // MARK: - Screens

    private func leave(with key: LeaveKey, buffer: TextDraft) -> [Report] {
        guard let target = screen.target else {
            // No chat here to keep a draft for: the text comes back rather than vanish.
            if !buffer.text.isEmpty {
                if returnsTextToLine { returnedLine = buffer }
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
            try checkKnown(key)
            navigator.question = nil
            return try open(key)
        } catch {
            return [.error(error)]
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
            if returnsTextToLine && !text.isEmpty { returnedLine = TextDraft(text: text) }
            return [.error(.notSentNoChat(String(text.prefix(40))))]
        }
        let (taken, events) = rules.takeForSending(target, text: text)
        var reports = events.map(Report.draft)
        if text.allSatisfy(\.isWhitespace) && taken.attachments.isEmpty { return reports }
        let result = outbox.send(text, attachments: taken.attachments, to: target)
        reports += result.stored.map(Report.sent)
        if let failure = result.failure {
            hadSendFailure = true
            if returnsTextToLine {
                reports += rules.putBack(failure.unsent, for: target).map(Report.draft)
                reports.append(.error(.notSent(failure.error.description)))
            } else {
                reports += rules.setAside(failure.unsent, for: target).map(Report.draft)
                reports.append(.error(.notSentSetAside(failure.error.description, text: String(text.prefix(40)))))
            }
        }
        return reports
    }
}
