import Foundation

/// One line of the chat list and the drafts waiting under it.
public struct ChatListEntry: Equatable, Sendable {
    public var chatID: ChatID
    /// The last message, when there is one and it could be read.
    public var lastMessage: Message?
    /// The drafts of input targets in this chat (a thread has one per reply target).
    public var drafts: [DraftMapEntry]

    /// The chat list: every chat with history or a draft, the most recently active first
    /// (a message's send time, or a draft's last change), ties by chat ID.
    static func list(
        _ summaries: [ChatSummary], drafts: [DraftMapEntry], updated: [DraftKey: Date]
    ) -> [ChatListEntry] {
        var activity: [ChatID: Date] = [:]
        var last: [ChatID: Message] = [:]
        for summary in summaries {
            activity[summary.chatID] = summary.lastActivity
            last[summary.chatID] = summary.lastMessage
        }
        for entry in drafts {
            let chat = entry.key.target.chatID
            activity[chat] = max(activity[chat] ?? .distantPast, updated[entry.key] ?? .distantPast)
        }
        let order = activity.keys.sorted { (activity[$1]!, $0) < (activity[$0]!, $1) }
        return order.map { chat in
            ChatListEntry(
                chatID: chat, lastMessage: last[chat], drafts: drafts.filter { $0.key.target.chatID == chat })
        }
    }
}
