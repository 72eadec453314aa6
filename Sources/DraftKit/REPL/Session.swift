import Foundation

/// The draftline REPL as plain data: screens, commands, drafts and sending.
///
/// A session takes ``InputEvent``s and answers with ``OutputLine``s. It never touches a
/// terminal: the executable reads the edit line (pre-filled with ``prefill``, prompted
/// with ``prompt``) and prints what comes back, and tests drive it directly.
///
/// The draft rules it keeps, after the original input view:
/// - entering a chat pre-fills the edit line with its draft, verbatim, cursor where it was;
/// - leaving a chat with a ``LeaveKey`` saves the edit buffer as its draft (empty text
///   removes it);
/// - sending removes the draft first, then appends the message to history; if that write
///   fails the text is put back as the draft;
/// - a line that starts with `/` is a command and never changes a draft;
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

    /// The users one can chat with.
    public let contacts: ContactBook
    /// Where messages are kept.
    public let history: any HistoryStore

    /// How many messages opening a chat shows.
    public static let openHistoryCount = 10
    /// The deepest the screen stack gets; older screens above home are dropped.
    public static let maximumDepth = 64

    public init(contacts: ContactBook, history: any HistoryStore) {
        self.contacts = contacts
        self.history = history
    }

    /// The current screen.
    public var screen: Screen { screens[screens.count - 1] }

    /// The prompt that names where the user is.
    public var prompt: String {
        if isAskingForChat { return "open chat with: " }
        switch screen {
        case .home: return "draftline> "
        case .chat(.privateChat(let user)): return "\(user)> "
        case .chat(.comment(let kind, let id, let replyTo)):
            return "\(kind.rawValue) \(id)" + (replyTo.map { " reply to @\($0)" } ?? " comment") + "> "
        case .profile(let user): return "profile \(user)> "
        }
    }

    /// What the next edit line starts with: the current chat's draft, if it has one.
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
        case .line(let line):
            if isAskingForChat {
                isAskingForChat = false
                output += answerChatName(line)
            } else if line.hasPrefix("/") && !line.hasPrefix("//") {
                do throws(DraftlineError) {
                    output += try run(try Command(parsing: line))
                } catch {
                    output.append(OutputLine(.error, TerminalText.visible(error.description, keepNewlines: false)))
                }
            } else {
                output += send(line.hasPrefix("//") ? String(line.dropFirst()) : line)
            }
        }
        output += history.takeWarnings().map { OutputLine(.warning, $0) }
        return output
    }

    // MARK: - Commands

    private func run(_ command: Command) throws(DraftlineError) -> [OutputLine] {
        switch command {
        case .open(let key):
            try checkKnown(key)
            let target = InputTarget.privateChat(key)
            if screen == .chat(target) { return [OutputLine(.info, "already in the chat with \(key)")] }
            return push(.chat(target))
        case .profile(let key):
            guard let user = key ?? currentUser else { throw .noChatOpen }
            try checkKnown(user)
            return push(.profile(user))
        case .back:
            return try back()
        case .history(let count):
            guard let target = screen.target else { throw .noChatOpen }
            return try showHistory(of: target, count: count ?? 20, emptyNote: true)
        case .help:
            return helpText().map { OutputLine(.info, $0) }
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
        let gone = drafts.removeAll()
        guard !gone.isEmpty else { return [] }
        let names = gone.map(\.rawValue).joined(separator: ", ")
        return [
            OutputLine(
                .info, "\(gone.count) draft\(gone.count == 1 ? "" : "s") discarded: \(TerminalText.visible(names))")
        ]
    }

    // MARK: - Leaving and entering

    private func leave(with key: LeaveKey, buffer: TextDraft) -> [OutputLine] {
        if let target = screen.target {
            drafts.saveText(buffer, for: target.draftKey)
        }
        do throws(DraftlineError) {
            switch key {
            case .profile: return try run(.profile(nil))
            case .back: return try back()
            case .open:
                isAskingForChat = true
                return []
            }
        } catch {
            // Nowhere to go: stay, with the draft saved and back in the edit line.
            return [OutputLine(.error, error.description)]
        }
    }

    private func answerChatName(_ line: String) -> [OutputLine] {
        let name = line.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return enter(screen) }
        do throws(DraftlineError) {
            return try run(.open(try GlobalKey(validating: name)))
        } catch {
            return [OutputLine(.error, TerminalText.visible(error.description, keepNewlines: false))] + enter(screen)
        }
    }

    /// What arriving on a screen shows.
    private func enter(_ screen: Screen) -> [OutputLine] {
        switch screen {
        case .home:
            return [OutputLine(.info, "home: /open <global_key> to chat, /help for more")]
        case .chat(let target):
            var output = [OutputLine(.info, "── \(title(of: target)) ──")]
            do throws(DraftlineError) {
                output += try showHistory(of: target, count: Self.openHistoryCount, emptyNote: true)
            } catch {
                output.append(OutputLine(.error, error.description))
            }
            return output
        case .profile(let user):
            return profile(of: user)
        }
    }

    private func title(of target: InputTarget) -> String {
        switch target {
        case .privateChat(let user):
            return "chat with \(TerminalText.visible(contacts[user]?.name ?? user.rawValue)) (\(user))"
        case .comment(let kind, let id, let replyTo):
            return "\(kind.rawValue) \(id): " + (replyTo.map { "reply to @\($0)" } ?? "new comment")
        }
    }

    private func profile(of user: GlobalKey) -> [OutputLine] {
        let chat = InputTarget.privateChat(user)
        let count: String
        do { count = String(try history.messageCount(in: chat.chatID)) } catch { count = "unknown (\(error))" }
        let draft = drafts.hasDraft(for: chat.draftKey) ? "waiting (\(chat.draftKey))" : "none"
        return [
            OutputLine(.info, "── profile ──"),
            OutputLine(
                .info, "name:       \(TerminalText.visible(contacts[user]?.name ?? user.rawValue, keepNewlines: false))"
            ),
            OutputLine(.info, "global_key: \(user)"),
            OutputLine(.info, "messages:   \(count)"),
            OutputLine(.info, "draft:      \(draft)"),
            OutputLine(.info, "/back or ^X b returns to the chat"),
        ]
    }

    private func showHistory(of target: InputTarget, count: Int, emptyNote: Bool) throws(DraftlineError) -> [OutputLine]
    {
        let messages: [Message]
        do {
            messages = try history.recentMessages(in: target.chatID, limit: count)
        } catch {
            throw .historyUnreadable(error.description)
        }
        if messages.isEmpty { return emptyNote ? [OutputLine(.info, "(no messages yet)")] : [] }
        return messages.map { OutputLine(.info, Self.render($0)) }
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
            body = "[\(message.type) \(message.filePath)]" + (message.content.isEmpty ? "" : " " + message.content)
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
        guard !text.allSatisfy(\.isWhitespace) else { return [] }
        let message = makeMessage(text, to: target)
        do {
            try history.append(message, to: target.chatID)
        } catch {
            hadSendFailure = true
            var kept = removed
            kept.text = TextDraft(text: text)
            drafts.restore(kept, for: key)
            return [OutputLine(.error, DraftlineError.notSent(error.description).description)]
        }
        return [OutputLine(.info, Self.render(message))]
    }

    private func makeMessage(_ text: String, to target: InputTarget) -> Message {
        let target: (id: String, other: String) =
            switch target {
            case .privateChat(let user): (user.rawValue, user.rawValue)
            case .comment(_, _, let replyTo): (target.chatID.rawValue, replyTo?.rawValue ?? "")
            }
        return Message(
            chatID: target.id, messageID: Self.newMessageID(), content: text, target: target.other,
            mineHead: "me", otherHead: target.other, type: "text")
    }

    /// A unique, time-ordered message ID: milliseconds since 1970, then random bits.
    static func newMessageID() -> String {
        let milliseconds = Int64(Date().timeIntervalSince1970 * 1000)
        return "\(milliseconds)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    // MARK: - Help and completion

    private func helpText() -> [String] {
        var lines = ["commands:"]
        let width = Command.catalogue.map(\.usage.count).max() ?? 0
        for entry in Command.catalogue {
            lines.append("  " + entry.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.summary)
        }
        lines.append("  //text" + String(repeating: " ", count: width - 4) + "send a message that starts with /")
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
        if isAskingForChat || before.hasPrefix("/open ") || before.hasPrefix("/profile ") {
            let word = isAskingForChat ? before : String(before[before.index(after: before.firstIndex(of: " ")!)...])
            guard !word.contains(" ") else { return (word, []) }
            return (word, contacts.keys.map(\.rawValue).filter { $0.hasPrefix(word) })
        }
        if before.hasPrefix("/") && !before.contains(" ") {
            return (before, Command.catalogue.map { "/" + $0.name }.filter { $0.hasPrefix(before) })
        }
        return (before, [])
    }
}
