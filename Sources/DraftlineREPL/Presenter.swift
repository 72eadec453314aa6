import DraftKit
import Foundation

/// Turns a session's ``Report``s into the lines a person reads: every word draftline shows
/// is here (errors in `Presenter+Errors.swift`, help in `Presenter+Help.swift`, lists in
/// `Presenter+Lists.swift`).
///
/// It renders from values only: a report carries what it shows (names included), so no
/// line reads a file. Every piece of text that came from a user, a file or the disk goes
/// through ``TerminalText/visible(_:keepNewlines:)``, so no stored text can drive the
/// terminal. Keys are named as they are bound (``KeyLabels``).
public struct Presenter {
    /// The bindings in force.
    public var keys: KeyLabels

    /// The columns `/help` fits in: the terminal's width, at most ``helpWidth``.
    public var width = Presenter.helpWidth
    /// Whether Tab completes names here (a terminal; not a pipe): hints offer it only then.
    public var completes = true

    public init(keys: KeyLabels = .defaults) { self.keys = keys }

    /// The prompt that names where the user is: the question the line answers, or the
    /// screen.
    public func prompt(on screen: Screen, answering question: Navigator.Question?) -> String {
        switch question {
        case .chatName: return "open chat with: "
        case .command: return "command: /"
        case nil: break
        }
        switch screen {
        case .home: return "draftline> "
        case .chat(.privateChat(let user)): return "\(user)> "
        case .chat(.comment(let kind, let id, let replyTo)):
            return "\(kind.rawValue) \(id) " + (replyTo.map { "reply to @\($0)" } ?? "new comment") + "> "
        case .profile(let user): return "profile \(user)> "
        }
    }

    /// The lines for these reports, as `identity` sees them (what they sent is `you`);
    /// draft events are shown only when `tracing`.
    public func lines(for reports: [Report], identity: GlobalKey, tracing: Bool) -> [OutputLine] {
        reports.flatMap { lines(for: $0, identity: identity, tracing: tracing) }
    }

    private func lines(for report: Report, identity: GlobalKey, tracing: Bool) -> [OutputLine] {
        switch report {
        case .home:
            return [info("home: /open <global_key> to chat, /chats for conversations, /help for more")]
        case .chatTitle(let target, let name):
            return [info("── \(title(of: target, name: name)) ──")]
        case .messages(let messages):
            return messages.isEmpty
                ? [info("(no messages yet)")] : messages.map { info(Self.render($0, identity: identity)) }
        case .sent(let message), .arrived(let message):
            return [info(Self.render(message, identity: identity))]
        case .arrivedElsewhere(let message, let chat, let unread, let name):
            return [info(arrival(message, in: chat, unread: unread, name: name, identity: identity))]
        case .profile(let profile):
            return self.profile(profile)
        case .attachments(let attachments):
            guard !attachments.isEmpty else { return [info("detached: nothing is attached now")] }
            let list = attachments.enumerated().map {
                "\($0.offset + 1)) \($0.element.name) [\($0.element.messageType)]"
            }
            return [info("attached: " + Self.flat(list.joined(separator: "  ")))]
        case .draft(let event) where event.cause == .undoStackFull:
            // Said whether tracing or not: this text's notice had promised /undo.
            let text = Self.flat(Self.preview(event.draft.text?.text ?? "", length: 30))
            let media = event.draft.attachments.count
            return [
                info(
                    "the undo stack keeps \(Drafts.undoDepth) entries: its oldest, \"\(text)\""
                        + (media > 0 ? ", \(media) attached" : "") + ", is forgotten")
            ] + (tracing ? [info(trace(event))] : [])
        case .draft(let event):
            // A lookup that changed nothing is in the trace file's debuglog, not on screen.
            return tracing && event.kind != .unchanged ? [info(trace(event))] : []
        case .undone(let draft, let origin, let replaced):
            let media = draft.attachments.count
            let place = origin.key.map { "draft for \($0)" } ?? "line"
            let parts = [draft.text.map { "\"\(Self.flat($0.text))\"" }, media > 0 ? "\(media) attached" : nil]
            return [
                info(
                    "\(place) is back: " + parts.compactMap { $0 }.joined(separator: ", ")
                        + (replaced ? "; the draft that was there is on the undo stack (/undo again)" : ""))
            ]
        case .chatList(let entries, let more):
            return chatList(entries, identity: identity)
                + (more
                    ? [info("(the \(entries.count) most recent: /chats \(entries.count * 2) or /chats all for more)")]
                    : [])
        case .draftMap(let entries, let undo, let line):
            return draftMap(entries) + undoStack(undo)
                + (line.map { [info("edit line: \"\(Self.flat($0.text))\"  cursor \($0.cursor)")] } ?? [])
        case .help:
            return help().map(info)
        case .alreadyHere(.privateChat(let user)):
            return [info("already in the chat with \(user)")]
        case .alreadyHere(.comment):
            return [info("already writing this comment")]
        case .discarded:
            return [info("draft discarded: /undo brings it back")]
        case .peerSilenced(let peer, let why):
            let reason =
                switch why {
                case .running: "a draftline runs as \(peer) on this data directory"
                case .ranBefore: "a draftline ran as \(peer) on this data directory before"
                case .spoke: "\(peer) wrote from another draftline"
                }
            return [info("\(reason): the demo no longer answers as \(peer)")]
        case .tracing(let on):
            return [info("trace \(on ? "on: every draft event is shown" : "off")")]
        case .quitPending(let drafts, let undo):
            let what = [
                drafts > 0 ? "\(drafts) unsent draft\(drafts == 1 ? "" : "s")" : nil,
                undo > 0 ? "\(Self.counted(undo, "entry", "entries")) on the undo stack" : nil,
            ].compactMap { $0 }.joined(separator: " and ")
            return [info("\(what) would be forgotten: Ctrl-D again (or /quit) quits; anything else carries on")]
        case .confirming(let count):
            return [info("waiting for the server to confirm \(Self.counted(count, "message"))…")]
        case .notConfirmed(let messages):
            let texts = messages.map { message in
                let text = Self.flat(message.content.isEmpty ? message.type : message.content)
                return "'" + (text.count > 40 ? text.prefix(39) + "…" : text) + "'"
            }
            let count = Self.counted(messages.count, "message")
            return [
                OutputLine(
                    .error,
                    "\(count) not confirmed by the server, so not in this history: " + texts.joined(separator: ", "))
            ]
        case .keptOverRecall(let kept, let target, let here):
            return [info(keptOverRecall(kept.text, target: target, here: here))]
        case .oneSlashSent:
            return [info("the // typed into the draft sent one /: type /// to send two")]
        case .setAside(let cause, let count, let files):
            return [info(setAside(cause, count: count, files: files))]
        case .expectationMet(let expectation):
            return [info("ok: " + Self.flat(Self.statement(of: expectation)))]
        case .waited(.arrivals, let count):
            return [info("ok: \(Self.counted(count, "message")) arrived")]
        case .waited(.total(let wanted), let count):
            let more = count > wanted ? " (\(wanted) waited for)" : ""
            return [info("ok: " + Self.statement(of: .messages(count)) + more)]
        case .forgotten(let keys, let undo):
            let names = keys.map(\.rawValue).joined(separator: ", ")
            return [
                info(
                    [
                        keys.isEmpty
                            ? nil : "\(Self.counted(keys.count, "draft")) discarded: \(Self.flat(names))",
                        undo > 0 ? "\(Self.counted(undo, "entry", "entries")) on the undo stack forgotten" : nil,
                    ].compactMap { $0 }.joined(separator: "; "))
            ]
        case .lineForgotten(let text):
            return [info("the text in the line, \"\(Self.flat(Self.preview(text, length: 30)))\", is forgotten")]
        case .error(let error):
            return [line(for: error)]
        case .warning(let warning):
            return [OutputLine(.warning, Self.flat(Self.describe(warning)))]
        }
    }

    private func info(_ text: String) -> OutputLine { OutputLine(.info, text) }

    /// `count` and the noun in its number: `1 message`, `2 messages`.
    static func counted(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) " + (count == 1 ? one : many ?? one + "s")
    }

    /// Text made safe, on one line.
    static func flat(_ text: String) -> String { TerminalText.visible(text, keepNewlines: false) }

    static func describe(_ warning: Report.Warning) -> String {
        switch warning {
        case .store(let warning): return describe(warning)
        case .contactsSkipped(let count):
            return "\(count) entries of contacts.plist have no valid global_key and were skipped"
        case .contacts(let problem): return describe(problem)
        case .attachmentGone(let name): return "\(name) was deleted after /attach: it is sent as a name only"
        }
    }

    /// A message as a chat shows it: `you:` when `identity` sent it, else the sender's key.
    public static func render(_ message: Message, identity: GlobalKey = .me) -> String {
        let author = message.author == identity.rawValue ? "you" : TerminalText.visible(message.author)
        let head = "  \(author): "
        // A message of several lines (a paste) keeps them, each under the first.
        let indent = "\n" + String(repeating: " ", count: head.count)
        return head + body(of: message).replacingOccurrences(of: "\n", with: indent)
    }

    /// What a message says, made safe: its text, or what it carries.
    static func body(of message: Message) -> String {
        switch message.type {
        case "text", "": return TerminalText.visible(message.content)
        case "location":
            let address = message.address.isEmpty ? "" : " \(message.address)"
            return TerminalText.visible("[location \(message.latitude), \(message.longitude)\(address)]")
        default:
            return TerminalText.visible(
                "[\(message.type) \(Attachment(path: message.filePath).name)]"
                    + (message.content.isEmpty ? "" : " " + message.content))
        }
    }

    /// The one line that announces a message in a chat that is not open: who, the start of
    /// it, how many are unread there, and how to go there.
    private func arrival(
        _ message: Message, in chat: ChatID, unread: Int, name: String?, identity: GlobalKey
    ) -> String {
        let text: String
        let place: String
        if let user = chat.otherPerson(for: identity) {
            // In a private chat the sender is the chat's other person, named by the title.
            place = "/open \(user)"
            text = Self.body(of: message)
        } else {
            place = "/comment " + chat.rawValue.replacingOccurrences(of: "_", with: " ")
            text = Self.render(message, identity: identity).trimmingCharacters(in: .whitespaces)
        }
        let title = chatTitle(chat, name: name, identity: identity)
        return "● \(title): \(Self.preview(text, length: 40)) · \(unread) unread: \(place)"
    }

    /// A user as a title names them: the contact's name (made safe) and the key, or the key.
    static func named(_ user: GlobalKey, _ name: String?, keyFirst: Bool) -> String {
        guard let name = name.map(flat), name != user.rawValue else { return user.rawValue }
        return keyFirst ? "\(user) (\(name))" : "\(name) (\(user))"
    }

    private func title(of target: InputTarget, name: String?) -> String {
        switch target {
        case .privateChat(let user):
            return "chat with " + Self.named(user, name, keyFirst: false)
        case .comment(let kind, let id, let replyTo):
            return "\(kind.rawValue) \(id): " + (replyTo.map { "reply to @\($0)" } ?? "new comment")
        }
    }

    /// The trace line for a draft event: the event, the key, its cause, and the draft.
    func trace(_ event: DraftEvent) -> String {
        let text =
            event.draft.text.map { " \"\(Self.flat($0.text))\" cursor \($0.cursor)" } ?? ""
        let media = event.draft.attachments.count
        return "trace: \(event.kind.rawValue) \(event.key?.rawValue ?? "(line)") (\(cause(event.cause)))\(text)"
            + (media > 0 ? ", \(media) attached" : "")
    }

    /// The one line that says where the text a recalled command replaced is kept, and how
    /// to see it again.
    private func keptOverRecall(_ text: String, target: InputTarget, here: Bool) -> String {
        let quoted = "\"\(Self.flat(Self.preview(text, length: 30)))\""
        guard !here else {
            return "your text is kept as this chat's draft: \(quoted); it is back in the line once a command runs here"
        }
        let command: String
        switch target {
        case .privateChat(let user): command = "/open \(user)"
        case .comment(let kind, let id, let replyTo):
            command = "/comment \(kind.rawValue) \(id)" + (replyTo.map { " @\($0)" } ?? "")
        }
        return "your text is kept as the draft for \(target.draftKey): \(quoted); \(command) brings it back"
    }

    /// The one line that says text went on the undo stack without the user asking.
    private func setAside(_ cause: DraftEvent.Cause, count: Int, files: [String]) -> String {
        let what: String
        switch cause {
        case .interrupted: what = "line abandoned"
        case .replacedByRecall: what = "the line a recall replaced is on the undo stack"
        case .recallEdited: what = "the recalled line you edited is on the undo stack"
        case .replacedBySend: what = "the draft you replaced is on the undo stack"
        case .leftEmpty: what = "draft emptied"
        case .blankLine: what = "draft cleared"
        case .nowhereToKeep: what = "nothing here can keep that text: it is on the undo stack"
        case .left, .leftByCommand, .attached, .detached, .entering, .sending, .sendFailed, .sendFailedAside,
            .keptOverRecall, .editedAroundCommand, .lineTooLong, .discardCommand, .undo, .quitting, .undoStackFull:
            what = "text went on the undo stack"
        }
        let more = count > 1 ? " (\(count) entries)" : ""
        let names = files.map { Self.flat($0) }.joined(separator: ", ")
        let with =
            files.isEmpty
            ? ""
            : files.count == 1
                ? " with its attached file \(names)" : " with its \(files.count) attached files (\(names))"
        return what + with + more + ": /undo brings " + (files.isEmpty ? "it" : "them") + " back"
    }

    private func cause(_ cause: DraftEvent.Cause) -> String {
        switch cause {
        case .left(let key): return "\(keys[key]) (\(key.functionName))"
        case .leftEmpty(let key): return "\(keys[key]) with an empty line"
        case .leftByCommand: return "a command left the screen; the draft stays"
        case .attached(let name): return "/attach added \(Self.flat(name))"
        case .detached: return "/detach"
        case .entering(.privateChat(let user)): return "entering \(user)"
        case .entering(.comment(let kind, let id, _)): return "entering \(kind.rawValue)_\(id)"
        case .sending: return "sending (removed first, as the original does)"
        case .blankLine: return "a blank line sends nothing"
        case .sendFailed: return "the send failed: nothing is lost"
        case .sendFailedAside: return "the send failed: /undo brings it back"
        case .replacedBySend: return "the line that replaced this draft did not hold it: /undo brings it back"
        case .replacedByRecall: return "a recalled line replaced this text: /undo brings it back"
        case .recallEdited: return "a recalled line you edited and went back from: /undo brings it back"
        case .keptOverRecall: return "a recalled command ran: the line it replaced is the draft"
        case .editedAroundCommand: return "a command typed into the draft ran: the draft keeps your edits"
        case .nowhereToKeep: return "nothing here keeps a draft: /undo brings it back"
        case .lineTooLong: return "a line over 64 KiB cannot be entered: /undo brings it back to shorten"
        case .interrupted: return "Ctrl-C abandons the line: /undo brings it back"
        case .discardCommand: return "/discard (/undo brings it back)"
        case .undo: return "/undo"
        case .quitting: return "quitting forgets every draft"
        case .undoStackFull: return "the undo stack keeps \(Drafts.undoDepth) entries: the oldest is forgotten"
        }
    }

    /// What the demo peers answer, in turn (`{quote}`: the start of the message
    /// answered); one names the key that leaves for a profile, as bound.
    public var demoPeerScript: [String] {
        [
            "got it: “{quote}”",
            "I'm typing on the other side: my lines land above yours",
            "your half-typed line is still there, isn't it?",
            "leave for a profile (\(keys[.profile])) and come back: your draft waits",
            "send me another and I'll answer again",
        ]
    }
}
