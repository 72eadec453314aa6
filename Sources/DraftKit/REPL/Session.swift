import Foundation

/// The draftline REPL as plain data: screens, commands, drafts and sending.
///
/// A session takes ``InputEvent``s and answers with ``OutputLine``s. It never touches a
/// terminal: the executable reads the edit line (pre-filled with ``prefill``, prompted
/// with ``prompt``) and prints what comes back, and tests drive it directly.
///
/// The draft rules it keeps, after the original input view:
/// - entering an input target pre-fills the edit line with its draft, verbatim, cursor
///   where it was;
/// - leaving a target with a ``LeaveKey`` saves the edit buffer as its draft (empty text
///   removes it);
/// - sending removes the draft first, then appends the messages to history (each
///   attachment, then the text); if a write fails, what was not stored is put back;
/// - a line that starts with `/` is a command and never changes the draft's text;
/// - quitting forgets every draft.
public final class Session {
    /// Every unsent draft.
    public private(set) var drafts = DraftStore()
    /// The screen stack; the last one is where the user is. The first is always home.
    public private(set) var screens: [Screen] = [.home]
    /// Whether `^X o` asked for the name of a chat to open and the next line answers.
    public private(set) var isAskingForChat = false
    /// Whether the user quit.
    public private(set) var hasQuit = false
    /// Whether a message could not be stored during this session.
    public private(set) var hadSendFailure = false
    /// Whether every draft event is printed (`--trace`, `/trace on`).
    public var isTracing: Bool
    /// Whether the tour can be played here (a terminal); set by the executable.
    public var canPlayTour = false
    /// The tour speed `/tour` asked for, until the executable takes it.
    public private(set) var requestedTour: Double?

    /// The users one can chat with, loaded when first needed (not at start-up).
    public private(set) lazy var contacts: ContactBook = {
        let book = loadContacts()
        if book.skipped > 0 {
            warnings.append("\(book.skipped) entries of contacts.plist have no valid global_key and were skipped")
        }
        return book
    }()
    private let loadContacts: () -> ContactBook
    private var warnings: [String] = []
    /// Where messages are kept.
    public let history: any HistoryStore

    /// When this session last stored a message in each chat. File times come from the
    /// kernel's coarse clock, which can lag a few milliseconds behind draft times, so the
    /// chat list orders this session's own activity by these.
    private var sentAt: [ChatID: Date] = [:]
    /// Drafts that were discarded, emptied or cleared, most recent last, for `/undo`.
    private var lost: [(key: DraftKey, draft: DraftStore.Removed)] = []
    private let workingDirectory: String
    private let home: String?

    /// How many messages opening a chat shows.
    public static let openHistoryCount = 20
    /// The deepest the screen stack gets; older screens above home are dropped.
    public static let maximumDepth = 64
    /// How many lost drafts `/undo` can bring back.
    public static let undoDepth = 20
    /// The longest line, message or command, draftline takes: 64 KiB of UTF-8.
    public static let maximumLineBytes = 64 * 1024

    /// Makes a session. `contacts` is evaluated when first needed; `workingDirectory` and
    /// `home` resolve the paths given to `/attach`.
    public init(
        contacts: @autoclosure @escaping () -> ContactBook, history: any HistoryStore, tracing: Bool = false,
        workingDirectory: String = FileManager.default.currentDirectoryPath,
        home: String? = ProcessInfo.processInfo.environment["HOME"], clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.loadContacts = contacts
        self.history = history
        self.isTracing = tracing
        self.workingDirectory = workingDirectory
        self.home = home
        drafts.now = clock
    }

    /// The current screen.
    public var screen: Screen { screens[screens.count - 1] }

    /// Takes the tour `/tour` asked for, if any: its speed.
    public func takeRequestedTour() -> Double? {
        defer { requestedTour = nil }
        return requestedTour
    }

    /// The prompt that names where the user is.
    public var prompt: String {
        if isAskingForChat { return "open chat with: " }
        switch screen {
        case .home: return "draftline> "
        case .chat(.privateChat(let user)): return "\(user)> "
        case .chat(.comment(let kind, let id, let replyTo)):
            return "\(kind.rawValue) \(id) " + (replyTo.map { "reply to @\($0)" } ?? "new comment") + "> "
        case .profile(let user): return "profile \(user)> "
        }
    }

    /// What the next edit line starts with: the current target's draft, if it has one.
    public var prefill: TextDraft? {
        guard !isAskingForChat, let target = screen.target else { return nil }
        return drafts.text(for: target.draftKey)
    }

    /// Handles one input event and returns what to show.
    @discardableResult
    public func handle(_ event: InputEvent) -> [OutputLine] {
        guard !hasQuit else { return [] }
        var output: [OutputLine] = []
        switch event {
        case .endOfInput:
            output += quit()
        case .interrupt:
            if isAskingForChat {
                isAskingForChat = false
                output += enter(screen)
            }
        case .leave(let key, let buffer):
            output += leave(with: key, buffer: buffer)
        case .line(let line) where line.utf8.count > Self.maximumLineBytes:
            output.append(Self.error(.lineTooLong(line.utf8.count)))
        case .line(let line):
            if isAskingForChat {
                isAskingForChat = false
                output += answerChatName(line)
            } else if line.hasPrefix("/") && !line.hasPrefix("//") {
                do throws(DraftlineError) {
                    output += try run(try Command(parsing: line))
                } catch {
                    output.append(Self.error(error))
                }
            } else {
                output += send(line.hasPrefix("//") ? String(line.dropFirst()) : line)
            }
        }
        output += (warnings + history.takeWarnings()).map { OutputLine(.warning, $0) }
        warnings = []
        return output
    }

    private static func error(_ error: DraftlineError) -> OutputLine {
        OutputLine(.error, TerminalText.visible(error.description, keepNewlines: false))
    }

    private static func info(_ text: String) -> OutputLine { OutputLine(.info, text) }

    // MARK: - Commands

    private func run(_ command: Command) throws(DraftlineError) -> [OutputLine] {
        switch command {
        case .open(let key):
            try checkKnown(key)
            let target = InputTarget.privateChat(key)
            if screen == .chat(target) { return [Self.info("already in the chat with \(key)")] }
            return push(.chat(target))
        case .profile(let key):
            guard let user = key ?? currentUser else { throw .noChatOpen }
            try checkKnown(user)
            return push(.profile(user))
        case .back:
            return try back()
        case .comment(let kind, let id, let replyTo):
            if let replyTo { try checkKnown(replyTo) }
            let target = InputTarget.comment(kind, id: id, replyTo: replyTo)
            if screen == .chat(target) { return [Self.info("already writing this comment")] }
            return push(.chat(target))
        case .attach(let path):
            guard let target = screen.target else { throw .noChatOpen }
            let attachment = try Attachment.checked(path, workingDirectory: workingDirectory, home: home)
            let key = target.draftKey
            drafts.saveAttachments(drafts.attachments(for: key) + [attachment], for: key)
            return trace("saved", key, "/attach added \(attachment.name)") + mediaLines(for: key)
        case .detach(let which):
            guard let target = screen.target else { throw .noChatOpen }
            let key = target.draftKey
            var attachments = drafts.attachments(for: key)
            if let which {
                guard let index = Int(which), attachments.indices.contains(index - 1) else {
                    throw .noSuchAttachment(which, count: attachments.count)
                }
                attachments.remove(at: index - 1)
            } else {
                guard !attachments.isEmpty else { throw .noSuchAttachment("", count: 0) }
                attachments.removeAll()
            }
            let change = drafts.saveAttachments(attachments, for: key)
            return trace(change == .removed ? "removed" : "saved", key, "/detach")
                + (attachments.isEmpty ? [Self.info("no attachments")] : mediaLines(for: key))
        case .location(let latitude, let longitude, let address):
            guard let target = screen.target else { throw .noChatOpen }
            var message = makeMessage("", to: target)
            message.type = "location"
            message.latitude = latitude
            message.longitude = longitude
            message.address = address
            do {
                try store(message, in: target.chatID)
            } catch {
                throw .notSent(error.description)
            }
            return [Self.info(Self.render(message))]
        case .history(let count):
            guard let target = screen.target else { throw .noChatOpen }
            return try showHistory(of: target, count: count ?? Command.defaultHistoryCount)
        case .chats:
            return try chatList()
        case .drafts:
            return draftMap()
        case .discard:
            guard let target = screen.target, drafts.hasDraft(for: target.draftKey) else { throw .noDraftHere }
            let key = target.draftKey
            let removed = drafts.remove(key)
            remember(key, removed)
            return trace("discarded", key, "/discard (/undo brings it back)", removed)
                + [Self.info("draft discarded: /undo brings it back")]
        case .undo:
            guard let last = lost.popLast() else { throw .nothingToUndo }
            let current = drafts.remove(last.key)
            if !current.isEmpty { remember(last.key, current) }
            drafts.restore(last.draft, for: last.key)
            let traced = trace("restored", last.key, "/undo")
            let text = TerminalText.visible(last.draft.text?.text ?? "", keepNewlines: false)
            let media = last.draft.attachments.count
            return traced + [
                Self.info("draft for \(last.key) is back: \"\(text)\"" + (media > 0 ? ", \(media) attached" : ""))
            ]
        case .trace(let on):
            isTracing = on
            return [Self.info("trace \(on ? "on: every draft event is shown" : "off")")]
        case .tour(let speed):
            guard canPlayTour else { throw .tourNeedsTerminal }
            requestedTour = speed ?? 1
            return []
        case .help:
            return helpText().map(Self.info)
        case .quit:
            return quit()
        }
    }

    /// The user of the open chat, or of the profile on screen.
    private var currentUser: GlobalKey? {
        switch screen {
        case .chat(.privateChat(let user)), .profile(let user): return user
        case .chat(.comment(_, _, let replyTo)): return replyTo
        case .home: return nil
        }
    }

    private func checkKnown(_ key: GlobalKey) throws(DraftlineError) {
        guard contacts[key] != nil else { throw .unknownUser(key) }
    }

    private func push(_ next: Screen) -> [OutputLine] {
        screens.append(next)
        if screens.count > Self.maximumDepth { screens.remove(at: 1) }
        return enter(next)
    }

    private func back() throws(DraftlineError) -> [OutputLine] {
        guard screens.count > 1 else { throw .nothingToGoBackTo }
        screens.removeLast()
        return enter(screen)
    }

    private func quit() -> [OutputLine] {
        hasQuit = true
        let gone = drafts.keys
        var output: [OutputLine] = []
        for key in gone { output += trace("discarded", key, "quitting forgets every draft") }
        drafts.removeAll()
        lost.removeAll()
        guard !gone.isEmpty else { return output }
        let names = gone.map(\.rawValue).joined(separator: ", ")
        return output + [
            Self.info("\(gone.count) draft\(gone.count == 1 ? "" : "s") discarded: \(TerminalText.visible(names))")
        ]
    }

    // MARK: - Leaving and entering

    private func leave(with key: LeaveKey, buffer: TextDraft) -> [OutputLine] {
        var output: [OutputLine] = []
        if let target = screen.target {
            let draftKey = target.draftKey
            let before = drafts.text(for: draftKey)
            switch drafts.saveText(buffer, for: draftKey) {
            case .saved: output += trace("saved", draftKey, "\(key.defaultKeys) (\(key.functionName))")
            case .removed:
                let emptied = DraftStore.Removed(text: before, attachments: [])
                remember(draftKey, emptied)
                output += trace("removed", draftKey, "\(key.defaultKeys) with an empty line", emptied)
            case .none: break
            }
        }
        do throws(DraftlineError) {
            switch key {
            case .profile: return output + (try run(.profile(nil)))
            case .back: return output + (try back())
            case .open:
                isAskingForChat = true
                return output
            }
        } catch {
            // Nowhere to go: stay, with the draft saved and back in the edit line.
            return output + [Self.error(error)]
        }
    }

    private func answerChatName(_ line: String) -> [OutputLine] {
        let name = line.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return enter(screen) }
        do throws(DraftlineError) {
            return try run(.open(try GlobalKey(validating: name)))
        } catch {
            return [Self.error(error)] + enter(screen)
        }
    }

    /// What arriving on a screen shows.
    private func enter(_ screen: Screen) -> [OutputLine] {
        switch screen {
        case .home:
            return [Self.info("home: /open <global_key> to chat, /chats for conversations, /help for more")]
        case .chat(let target):
            var output = [Self.info("── \(title(of: target)) ──")]
            do throws(DraftlineError) {
                output += try showHistory(of: target, count: Self.openHistoryCount)
            } catch {
                output.append(Self.error(error))
            }
            let key = target.draftKey
            if drafts.hasDraft(for: key) {
                output += trace("restored", key, "entering \(key.target.chatID)")
                output += mediaLines(for: key)
            }
            return output
        case .profile(let user):
            return profile(of: user)
        }
    }

    private func title(of target: InputTarget) -> String {
        switch target {
        case .privateChat(let user):
            return "chat with \(displayName(of: user)) (\(user))"
        case .comment(let kind, let id, let replyTo):
            return "\(kind.rawValue) \(id): " + (replyTo.map { "reply to @\($0)" } ?? "new comment")
        }
    }

    /// A user's name as shown: the contact's name made safe, else the key.
    private func displayName(of user: GlobalKey) -> String {
        TerminalText.visible(contacts[user]?.name ?? user.rawValue, keepNewlines: false)
    }

    private func profile(of user: GlobalKey) -> [OutputLine] {
        let chat = InputTarget.privateChat(user)
        let count: String
        do { count = String(try history.messageCount(in: chat.chatID)) } catch { count = "unknown (\(error))" }
        let draft = drafts.hasDraft(for: chat.draftKey) ? "waiting (\(chat.draftKey))" : "none"
        return [
            "── profile ──",
            "name:       \(displayName(of: user))",
            "global_key: \(user)",
            "messages:   \(count)",
            "draft:      \(draft)",
            "/back or ^X b returns",
        ].map(Self.info)
    }

    private func showHistory(of target: InputTarget, count: Int) throws(DraftlineError) -> [OutputLine] {
        let messages: [Message]
        do {
            messages = try history.recentMessages(in: target.chatID, limit: count)
        } catch {
            throw .historyUnreadable(error.description)
        }
        if messages.isEmpty { return [Self.info("(no messages yet)")] }
        return messages.map { Self.info(Self.render($0)) }
    }

    private func mediaLines(for key: DraftKey) -> [OutputLine] {
        let attachments = drafts.attachments(for: key)
        guard !attachments.isEmpty else { return [] }
        let list = attachments.enumerated().map { "\($0.offset + 1)) \($0.element.name) [\($0.element.messageType)]" }
        return [Self.info("attached: " + TerminalText.visible(list.joined(separator: "  "), keepNewlines: false))]
    }

    /// A message as one line of a chat.
    public static func render(_ message: Message) -> String {
        let body: String
        switch message.type {
        case "text", "": body = message.content
        case "location":
            body =
                "[location \(message.latitude), \(message.longitude)\(message.address.isEmpty ? "" : " \(message.address)")]"
        default:
            body =
                "[\(message.type) \(Attachment(path: message.filePath).name)]"
                + (message.content.isEmpty ? "" : " " + message.content)
        }
        return "  you: " + TerminalText.visible(body)
    }

    // MARK: - Sending

    private func send(_ text: String) -> [OutputLine] {
        guard let target = screen.target else {
            let shown = TerminalText.visible(String(text.prefix(40)), keepNewlines: false)
            return [OutputLine(.error, "not sent '\(shown)': \(DraftlineError.noChatOpen)")]
        }
        let key = target.draftKey
        let removed = drafts.remove(key)
        let blank = text.allSatisfy(\.isWhitespace)
        var output: [OutputLine] = []
        if blank && removed.attachments.isEmpty {
            if !removed.isEmpty {
                remember(key, removed)
                output += trace("cleared", key, "a blank line sends nothing", removed)
            }
            return output
        }
        if !removed.isEmpty {
            output += trace("removed", key, "sending (removed first, as the original does)", removed)
        }
        var pending = removed.attachments
        while let attachment = pending.first {
            var message = makeMessage("", to: target)
            message.type = attachment.messageType
            message.filePath = attachment.path
            do {
                try store(message, in: target.chatID)
            } catch {
                return output + putBack(text, pending, for: key, after: error)
            }
            output.append(Self.info(Self.render(message)))
            pending.removeFirst()
        }
        if !blank {
            let message = makeMessage(text, to: target)
            do {
                try store(message, in: target.chatID)
            } catch {
                return output + putBack(text, [], for: key, after: error)
            }
            output.append(Self.info(Self.render(message)))
        }
        return output
    }

    /// Appends a message to history; a failure is remembered for the exit status.
    private func store(_ message: Message, in chat: ChatID) throws(StorageError) {
        do {
            try history.append(message, to: chat)
        } catch {
            hadSendFailure = true
            throw error
        }
        sentAt[chat] = drafts.now()
    }

    /// After a failed write: what was not stored becomes the draft again.
    private func putBack(
        _ text: String, _ attachments: [Attachment], for key: DraftKey, after error: StorageError
    ) -> [OutputLine] {
        let unsent = DraftStore.Removed(text: TextDraft(text: text), attachments: attachments)
        drafts.restore(unsent, for: key)
        return trace("restored", key, "the send failed: nothing is lost")
            + [Self.error(.notSent(error.description))]
    }

    private func makeMessage(_ text: String, to target: InputTarget) -> Message {
        let other: String
        switch target {
        case .privateChat(let user): other = user.rawValue
        case .comment(_, _, let replyTo): other = replyTo?.rawValue ?? ""
        }
        return Message(
            chatID: target.chatID.rawValue, messageID: Self.newMessageID(), content: text, target: other,
            mineHead: "me", otherHead: other, type: "text")
    }

    /// A unique, time-ordered message ID: milliseconds since 1970, then random bits.
    static func newMessageID() -> String {
        let milliseconds = Int64(Date().timeIntervalSince1970 * 1000)
        return "\(milliseconds)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    // MARK: - Drafts shown

    private func remember(_ key: DraftKey, _ draft: DraftStore.Removed) {
        guard !draft.isEmpty else { return }
        lost.append((key, draft))
        if lost.count > Self.undoDepth { lost.removeFirst() }
    }

    /// The trace line for a draft event, when tracing: the event, the key, its cause, and
    /// the draft as it now is (or, for a removal, as it was).
    private func trace(
        _ event: String, _ key: DraftKey, _ cause: String, _ was: DraftStore.Removed? = nil
    ) -> [OutputLine] {
        guard isTracing else { return [] }
        let draft = was ?? DraftStore.Removed(text: drafts.text(for: key), attachments: drafts.attachments(for: key))
        let text =
            draft.text.map { " \"\(TerminalText.visible($0.text, keepNewlines: false))\" cursor \($0.cursor)" } ?? ""
        let media = draft.attachments.count
        return [OutputLine(.info, "trace: \(event) \(key) (\(cause))\(text)\(media > 0 ? ", \(media) attached" : "")")]
    }

    private func draftMap() -> [OutputLine] {
        let keys = drafts.keys
        guard !keys.isEmpty else { return [Self.info("no drafts in memory")] }
        let now = Date()
        var lines = [Self.info("drafts in memory (\(keys.count)):")]
        for key in keys {
            let text = drafts.text(for: key)
            let shown = text.map { "\"\(TerminalText.visible($0.text, keepNewlines: false))\"" } ?? "(no text)"
            let age = Self.age(now.timeIntervalSince(drafts.updated[key] ?? now))
            lines.append(
                Self.info(
                    "  \(key)  \(shown)  cursor \(text?.cursor ?? 0)  media \(drafts.attachments(for: key).count)  age \(age)"
                ))
        }
        return lines
    }

    private func chatList() throws(DraftlineError) -> [OutputLine] {
        let summaries: [ChatSummary]
        do { summaries = try history.chats() } catch { throw .historyUnreadable(error.description) }
        var entries: [ChatID: (activity: Date, last: Message?)] = [:]
        for summary in summaries {
            entries[summary.chatID] = (
                max(summary.lastActivity, sentAt[summary.chatID] ?? .distantPast), summary.lastMessage
            )
        }
        for key in drafts.keys {
            let chat = key.target.chatID
            let changed = drafts.updated[key] ?? .distantPast
            let entry = entries[chat]
            entries[chat] = (max(entry?.activity ?? .distantPast, changed), entry?.last)
        }
        guard !entries.isEmpty else { return [Self.info("no conversations yet: /open <global_key> to start one")] }
        var lines: [OutputLine] = []
        for (chat, entry) in entries.sorted(by: { $0.value.activity > $1.value.activity }) {
            let last =
                entry.last.map { Self.preview(Self.render($0).trimmingCharacters(in: .whitespaces)) } ?? "(no messages)"
            lines.append(Self.info("  \(chatTitle(chat)) · \(last)"))
            for key in drafts.keys where key.target.chatID == chat {
                let text =
                    drafts.text(for: key).map { Self.preview(TerminalText.visible($0.text, keepNewlines: false)) } ?? ""
                let media = drafts.attachments(for: key).count
                var label = " (\(key))"
                if case .privateChat = key.target { label = "" }
                lines.append(Self.info("      Draft\(label): \(text)\(media > 0 ? " +\(media) attached" : "")"))
            }
        }
        return lines
    }

    private func chatTitle(_ chat: ChatID) -> String {
        if let key = try? GlobalKey(validating: chat.rawValue), contacts[key] != nil {
            return "\(chat) (\(displayName(of: key)))"
        }
        return chat.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    private static func preview(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > 50 ? String(flat.prefix(49)) + "…" : flat
    }

    private static func age(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h\(String(format: "%02d", whole / 60 % 60))m"
    }

    // MARK: - Help and completion

    private func helpText() -> [String] {
        var lines = ["commands:"]
        let width = Command.catalogue.map(\.usage.count).max() ?? 0
        for entry in Command.catalogue {
            lines.append("  " + entry.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.summary)
        }
        lines.append(
            "  " + "//text".padding(toLength: width + 2, withPad: " ", startingAt: 0)
                + "send a message that starts with /")
        lines.append("keys (rebind by function name in ~/.editrc, lines starting 'draftline:'):")
        for key in LeaveKey.allCases {
            lines.append(
                "  \(key.defaultKeys)  \(key.functionName.padding(toLength: 18, withPad: " ", startingAt: 0)) \(key.help)"
            )
        }
        lines.append("  Tab  draftline-complete  complete a command or a global_key")
        lines.append("  Enter sends; Ctrl-C abandons the line; Ctrl-D on an empty line quits")
        return lines
    }

    /// What the completion key does with this text before the cursor: insert the rest of
    /// the only (or common) match, list the matches, or nothing.
    public func complete(_ before: String) -> Completion {
        let (word, candidates) = completions(for: before)
        guard let first = candidates.first else { return .none }
        var common = Substring(first)
        for candidate in candidates.dropFirst() {
            common = common.prefix(zip(common, candidate).prefix { $0 == $1 }.count)
        }
        if candidates.count == 1 {
            let isCommandName = !isAskingForChat && before.hasPrefix("/") && !before.contains(" ")
            return .insert(String(first.dropFirst(word.count)) + (isCommandName ? " " : ""))
        }
        if common.count > word.count { return .insert(String(common.dropFirst(word.count))) }
        return .list(candidates)
    }

    /// What the completion key does.
    public enum Completion: Equatable, Sendable {
        /// Insert this text at the cursor.
        case insert(String)
        /// Show these candidates.
        case list([String])
        /// Nothing matches.
        case none
    }

    /// Completions for the text before the cursor: the names that could finish the word
    /// being typed, and how much of that word is already there.
    public func completions(for before: String) -> (word: String, candidates: [String]) {
        let keys = contacts.keys.map(\.rawValue)
        if isAskingForChat {
            return before.contains(" ") ? (before, []) : (before, keys.filter { $0.hasPrefix(before) })
        }
        guard before.hasPrefix("/") else { return (before, []) }
        let words = before.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let word = words.last ?? ""
        switch (words.first ?? "", words.count) {
        case (_, 1): return (word, Command.catalogue.map { "/" + $0.name }.filter { $0.hasPrefix(word) })
        case ("/open", 2), ("/profile", 2): return (word, keys.filter { $0.hasPrefix(word) })
        case ("/comment", 2): return (word, CommentKind.allCases.map(\.rawValue).filter { $0.hasPrefix(word) })
        case ("/comment", 4) where word.hasPrefix("@"):
            return (word, keys.map { "@" + $0 }.filter { $0.hasPrefix(word) })
        case ("/trace", 2): return (word, ["on", "off"].filter { $0.hasPrefix(word) })
        default: return (word, [])
        }
    }
}
