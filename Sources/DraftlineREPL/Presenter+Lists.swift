import DraftKit
import Foundation

/// The screens made of several lines: a profile, the draft map and the undo stack, the
/// chat list.
extension Presenter {
    func profile(_ profile: Profile) -> [OutputLine] {
        let count: String
        switch profile.messageCount {
        case .success(let number): count = String(number)
        case .failure(let error): count = "unknown (\(Self.flat(Self.describe(error))))"
        }
        let draft =
            profile.waitingDrafts.isEmpty
            ? "none" : "waiting (\(profile.waitingDrafts.map(\.rawValue).joined(separator: ", ")))"
        return [
            "── profile ──",
            "name:       \(profile.name.map(Self.flat) ?? profile.user.rawValue)",
            "global_key: \(profile.user)",
            "messages:   \(count)",
            "draft:      \(draft)",
            "/back or \(keys[.back]) returns",
        ].map { OutputLine(.info, $0) }
    }

    func draftMap(_ entries: [DraftMapEntry]) -> [OutputLine] {
        guard !entries.isEmpty else { return [OutputLine(.info, "no drafts in memory")] }
        return [OutputLine(.info, "drafts in memory (\(entries.count)):")]
            + entries.map { entry in
                let shown = entry.text.map { "\"\(Self.flat($0.text))\"" } ?? "(no text)"
                return OutputLine(
                    .info,
                    "  \(entry.key)  \(shown)  cursor \(entry.text?.cursor ?? 0)  media \(entry.mediaCount)"
                        + "  age \(Self.age(entry.age))")
            }
    }

    /// The undo stack, most recent first (what `/undo` brings back next).
    func undoStack(_ entries: [Drafts.Lost]) -> [OutputLine] {
        guard !entries.isEmpty else { return [] }
        return [OutputLine(.info, "undo stack (\(entries.count), /undo brings back the first):")]
            + entries.reversed().map { entry in
                let text = entry.draft.text.map { "\"\(Self.flat($0.text))\"" } ?? "(no text)"
                let media = entry.draft.attachments.count
                return OutputLine(
                    .info,
                    "  \(entry.origin.key?.rawValue ?? "(line)")  \(text)" + (media > 0 ? "  media \(media)" : ""))
            }
    }

    func chatList(_ entries: [ChatListEntry], identity: GlobalKey) -> [OutputLine] {
        guard !entries.isEmpty else {
            return [OutputLine(.info, "no conversations yet: /open <global_key> to start one")]
        }
        var lines: [OutputLine] = []
        for entry in entries {
            let last =
                entry.lastMessage.map {
                    Self.preview(Self.render($0, identity: identity).trimmingCharacters(in: .whitespaces))
                } ?? (entry.unreadable ? "(could not be read)" : "(no messages)")
            let unread = entry.unread > 0 ? " · \(entry.unread) unread" : ""
            lines.append(
                OutputLine(
                    .info, "  \(chatTitle(entry.chatID, name: entry.name, identity: identity)) · \(last)\(unread)"))
            for draft in entry.drafts {
                let text = draft.text.map { Self.flat(Self.preview($0.text)) } ?? ""
                var label = " (\(draft.key))"
                if case .privateChat = draft.key.target { label = "" }
                let media = draft.mediaCount > 0 ? " +\(draft.mediaCount) attached" : ""
                lines.append(OutputLine(.info, "      Draft\(label): \(text)\(media)"))
            }
        }
        return lines
    }

    /// A chat as the list names it: the other person's key and name, or the thread.
    func chatTitle(_ chat: ChatID, name: String?, identity: GlobalKey) -> String {
        if let user = chat.otherPerson(for: identity) { return Self.named(user, name, keyFirst: true) }
        return chat.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    /// `text` on one line of at most `length` characters: each line break, with the spaces
    /// around it (a message's indent under its first line), shown as one ` ↵ `.
    static func preview(_ text: String, length: Int = 50) -> String {
        let flat = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ↵ ")
        return flat.count > length ? String(flat.prefix(length - 1)) + "…" : flat
    }

    static func age(_ seconds: Double) -> String {
        let whole = Int(max(0, min(seconds, 1e12)))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m\(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h\(String(format: "%02d", whole / 60 % 60))m"
    }
}
