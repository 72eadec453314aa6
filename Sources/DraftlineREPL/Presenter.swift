import DraftKit
import Foundation

/// Turns a session's ``Report``s into the lines a person reads.
///
/// Every piece of text that came from a user, a file or the disk goes through
/// ``TerminalText/visible(_:keepNewlines:)``, so no stored text can drive the terminal.
/// Keys are named as they are bound (``KeyLabels``).
public struct Presenter {
    /// The bindings in force.
    public var keys: KeyLabels

    public init(keys: KeyLabels = .defaults) { self.keys = keys }

    /// The lines for these reports, for `session` (its contacts name users; its trace
    /// switch decides whether draft events are shown).
    public func lines(for reports: [Report], in session: Session) -> [OutputLine] {
        reports.flatMap { lines(for: $0, in: session) }
    }

    private func lines(for report: Report, in session: Session) -> [OutputLine] {
        switch report {
        case .home:
            return [info("home: /open <global_key> to chat, /chats for conversations, /help for more")]
        case .chatTitle(let target):
            return [info("── \(title(of: target, in: session)) ──")]
        case .messages(let messages):
            return messages.isEmpty
                ? [info("(no messages yet)")] : messages.map { info(Self.render($0, identity: session.identity)) }
        case .sent(let message), .arrived(let message):
            return [info(Self.render(message, identity: session.identity))]
        case .arrivedElsewhere(let message, let chat, let unread):
            return [info(arrival(message, in: chat, unread: unread, session: session))]
        case .profile(let profile):
            return self.profile(profile, in: session)
        case .attachments(let attachments):
            guard !attachments.isEmpty else { return [info("no attachments")] }
            let list = attachments.enumerated().map {
                "\($0.offset + 1)) \($0.element.name) [\($0.element.messageType)]"
            }
            return [info("attached: " + Self.flat(list.joined(separator: "  ")))]
        case .draft(let event):
            return session.isTracing ? [info(trace(event))] : []
        case .undone(let draft, let key, let replaced):
            let media = draft.attachments.count
            return [
                info(
                    "draft for \(key) is back: \"\(Self.flat(draft.text?.text ?? ""))\""
                        + (media > 0 ? ", \(media) attached" : "")
                        + (replaced ? "; the newer draft it replaced is on the undo stack (/undo again)" : ""))
            ]
        case .chatList(let entries, let more):
            return chatList(entries, in: session)
                + (more
                    ? [info("(the \(entries.count) most recent: /chats \(entries.count * 2) or /chats all for more)")]
                    : [])
        case .draftMap(let entries):
            return draftMap(entries)
        case .help:
            return help().map(info)
        case .alreadyHere(.privateChat(let user)):
            return [info("already in the chat with \(user)")]
        case .alreadyHere(.comment):
            return [info("already writing this comment")]
        case .discarded:
            return [info("draft discarded: /undo brings it back")]
        case .tracing(let on):
            return [info("trace \(on ? "on: every draft event is shown" : "off")")]
        case .quitPending(let count):
            return [
                info(
                    "\(count) unsent draft\(count == 1 ? "" : "s") would be forgotten: "
                        + "Ctrl-D again (or /quit) quits; anything else carries on")
            ]
        case .abandoned:
            return [info("line abandoned: /undo brings it back")]
        case .expectationMet(let statement):
            return [info("ok: " + Self.flat(statement))]
        case .forgotten(let keys):
            let names = keys.map(\.rawValue).joined(separator: ", ")
            return [info("\(keys.count) draft\(keys.count == 1 ? "" : "s") discarded: \(Self.flat(names))")]
        case .error(.unknownUser(let user)):
            return [OutputLine(.error, Self.flat("no user '\(user)': /open then Tab lists who is here"))]
        case .error(let error):
            return [OutputLine(.error, Self.flat(error.description))]
        case .warning(let warning):
            return [OutputLine(.warning, Self.flat(Self.describe(warning)))]
        }
    }

    private func info(_ text: String) -> OutputLine { OutputLine(.info, text) }

    /// Text made safe, on one line.
    static func flat(_ text: String) -> String { TerminalText.visible(text, keepNewlines: false) }

    static func describe(_ warning: Report.Warning) -> String {
        switch warning {
        case .store(let warning): return warning.description
        case .contactsSkipped(let count):
            return "\(count) entries of contacts.plist have no valid global_key and were skipped"
        case .contacts(let problem): return problem
        case .attachmentGone(let name): return "\(name) was deleted after /attach: it is sent as a name only"
        }
    }

    /// A message as one line of a chat.
    /// A message as a chat shows it: `you:` when `identity` sent it, else the sender's key.
    public static func render(_ message: Message, identity: GlobalKey = .me) -> String {
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
        let author = message.author == identity.rawValue ? "you" : TerminalText.visible(message.author)
        return "  \(author): " + TerminalText.visible(body)
    }

    /// The one line that announces a message in a chat that is not open: who, the start of
    /// it, how many are unread there, and how to go there.
    private func arrival(_ message: Message, in chat: ChatID, unread: Int, session: Session) -> String {
        // In a private chat the sender is the chat's other person, named by the title.
        var text = Self.render(message, identity: session.identity).trimmingCharacters(in: .whitespaces)
        let place: String
        if let user = chat.otherPerson(for: session.identity) {
            place = "/open \(user)"
            text = String(text.dropFirst(TerminalText.visible(message.author).count + 2))
        } else {
            place = "/comment " + chat.rawValue.replacingOccurrences(of: "_", with: " ")
        }
        return "● \(chatTitle(chat, in: session)): \(Self.preview(text, length: 40)) · \(unread) unread: \(place)"
    }

    /// A user's name as shown: the contact's name made safe, else the key.
    private func displayName(of user: GlobalKey, in session: Session) -> String {
        Self.flat(session.contacts[user]?.name ?? user.rawValue)
    }

    private func title(of target: InputTarget, in session: Session) -> String {
        switch target {
        case .privateChat(let user):
            let name = displayName(of: user, in: session)
            return "chat with " + (name == user.rawValue ? name : "\(name) (\(user))")
        case .comment(let kind, let id, let replyTo):
            return "\(kind.rawValue) \(id): " + (replyTo.map { "reply to @\($0)" } ?? "new comment")
        }
    }

    private func profile(_ profile: Profile, in session: Session) -> [OutputLine] {
        let count: String
        switch profile.messageCount {
        case .success(let number): count = String(number)
        case .failure(let error): count = "unknown (\(Self.flat(error.description)))"
        }
        let draft =
            profile.waitingDrafts.isEmpty
            ? "none" : "waiting (\(profile.waitingDrafts.map(\.rawValue).joined(separator: ", ")))"
        return [
            "── profile ──",
            "name:       \(displayName(of: profile.user, in: session))",
            "global_key: \(profile.user)",
            "messages:   \(count)",
            "draft:      \(draft)",
            "/back or \(Self.spaced(keys[.back])) returns",
        ].map(info)
    }

    /// `^Xb` as a person reads it: `^X b`.
    static func spaced(_ keys: String) -> String {
        keys.hasPrefix("^X") && keys.count == 3 ? "^X " + keys.dropFirst(2) : keys
    }

    /// The trace line for a draft event: the event, the key, its cause, and the draft.
    func trace(_ event: DraftEvent) -> String {
        let text =
            event.draft.text.map { " \"\(Self.flat($0.text))\" cursor \($0.cursor)" } ?? ""
        let media = event.draft.attachments.count
        return "trace: \(event.kind.rawValue) \(event.key) (\(cause(event.cause)))\(text)"
            + (media > 0 ? ", \(media) attached" : "")
    }

    private func cause(_ cause: DraftEvent.Cause) -> String {
        switch cause {
        case .left(let key): return "\(keys[key]) (\(key.functionName))"
        case .leftEmpty(let key): return "\(keys[key]) with an empty line"
        case .attached(let name): return "/attach added \(Self.flat(name))"
        case .detached: return "/detach"
        case .entering(.privateChat(let user)): return "entering \(user)"
        case .entering(.comment(let kind, let id, _)): return "entering \(kind.rawValue)_\(id)"
        case .sending: return "sending (removed first, as the original does)"
        case .blankLine: return "a blank line sends nothing"
        case .sendFailed: return "the send failed: nothing is lost"
        case .sendFailedAside: return "the send failed: /undo brings it back"
        case .replacedBySend: return "the line sent was not this draft typed into: /undo brings it back"
        case .interrupted: return "Ctrl-C abandons the line: /undo brings it back"
        case .discardCommand: return "/discard (/undo brings it back)"
        case .undo: return "/undo"
        case .quitting: return "quitting forgets every draft"
        }
    }

    private func draftMap(_ entries: [DraftMapEntry]) -> [OutputLine] {
        guard !entries.isEmpty else { return [info("no drafts in memory")] }
        return [info("drafts in memory (\(entries.count)):")]
            + entries.map { entry in
                let shown = entry.text.map { "\"\(Self.flat($0.text))\"" } ?? "(no text)"
                return info(
                    "  \(entry.key)  \(shown)  cursor \(entry.text?.cursor ?? 0)  media \(entry.mediaCount)"
                        + "  age \(Self.age(entry.age))")
            }
    }

    private func chatList(_ entries: [ChatListEntry], in session: Session) -> [OutputLine] {
        guard !entries.isEmpty else { return [info("no conversations yet: /open <global_key> to start one")] }
        var lines: [OutputLine] = []
        for entry in entries {
            let last =
                entry.lastMessage.map {
                    Self.preview(Self.render($0, identity: session.identity).trimmingCharacters(in: .whitespaces))
                } ?? "(no messages)"
            let unread = entry.unread > 0 ? " · \(entry.unread) unread" : ""
            lines.append(info("  \(chatTitle(entry.chatID, in: session)) · \(last)\(unread)"))
            for draft in entry.drafts {
                let text = draft.text.map { Self.preview(Self.flat($0.text)) } ?? ""
                var label = " (\(draft.key))"
                if case .privateChat = draft.key.target { label = "" }
                lines.append(
                    info("      Draft\(label): \(text)\(draft.mediaCount > 0 ? " +\(draft.mediaCount) attached" : "")"))
            }
        }
        return lines
    }

    /// A chat as the list names it: the other person's key and name, or the thread.
    private func chatTitle(_ chat: ChatID, in session: Session) -> String {
        if let key = chat.otherPerson(for: session.identity) {
            let name = displayName(of: key, in: session)
            return name == key.rawValue ? name : "\(key) (\(name))"
        }
        return chat.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    private static func preview(_ text: String, length: Int = 50) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count > length ? String(flat.prefix(length - 1)) + "…" : flat
    }

    static func age(_ seconds: Double) -> String {
        let whole = Int(max(0, min(seconds, 1e12)))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h\(String(format: "%02d", whole / 60 % 60))m"
    }

    /// `/help`: every command from the catalogue, then the keys as bound.
    func help() -> [String] {
        var lines = ["commands:"]
        let width = CommandCatalogue.all.map(\.usage.count).max() ?? 0
        func row(_ left: String, _ right: String) -> String {
            "  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + right
        }
        for spec in CommandCatalogue.all { lines.append(row(spec.usage, spec.summary)) }
        lines.append(row("//text", "send a message that starts with /"))
        lines.append("keys (rebind by function name in ~/.editrc, lines starting 'draftline:'):")
        let rows =
            LeaveKey.allCases.map { (keys[$0], $0.functionName, $0.help) } + [
                (keys.draftMap, KeyLabels.draftMapFunction, "show the draft map above the edit line"),
                ("Tab", "draftline-complete", "complete a command or a global_key"),
            ]
        let keyWidth = rows.map(\.0.count).max() ?? 0
        let functionWidth = rows.map(\.1.count).max() ?? 0
        for (keys, function, help) in rows {
            lines.append(
                "  " + keys.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                    + function.padding(toLength: functionWidth, withPad: " ", startingAt: 0) + "  " + help)
        }
        lines.append("  Enter sends; Ctrl-C abandons the line (/undo brings it back);")
        lines.append("  Ctrl-D on an empty line quits (with drafts in memory, press it twice)")
        return lines
    }
}
