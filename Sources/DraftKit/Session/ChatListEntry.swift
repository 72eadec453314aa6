import Foundation

/// One line of the chat list and the drafts waiting under it.
public struct ChatListEntry: Equatable, Sendable {
    public var chatID: ChatID
    /// The other person's name, for a private chat whose contact has one.
    public var name: String?
    /// The last message, when there is one and it could be read.
    public var lastMessage: Message?
    /// The drafts of input targets in this chat (a thread has one per reply target).
    public var drafts: [DraftMapEntry]
    /// Messages that arrived since the chat was last opened.
    public var unread = 0
    /// Whether its last message could not be read (a warning says why): not "no messages".
    public var unreadable = false

    /// The chat list: every chat with history or a draft, the most recently active first
    /// (a message's send time, or a draft's last change), ties by chat ID. Private chats
    /// of other people sharing the data directory are not the user's and are left out.
    static func list(
        _ summaries: [ChatSummary], drafts: [DraftMapEntry], updated: [DraftKey: Date], unread: [ChatID: Int],
        identity: GlobalKey
    ) -> [ChatListEntry] {
        var activity: [ChatID: Date] = [:]
        var last: [ChatID: Message] = [:]
        var unreadable: Set<ChatID> = []
        for summary in summaries where summary.chatID.kind == .thread || summary.chatID.includes(identity) {
            activity[summary.chatID] = summary.lastActivity
            last[summary.chatID] = summary.lastMessage
            if summary.unreadable { unreadable.insert(summary.chatID) }
        }
        for entry in drafts {
            let chat = entry.key.target.chatID(as: identity)
            activity[chat] = max(activity[chat] ?? .distantPast, updated[entry.key] ?? .distantPast)
        }
        let order = activity.keys.sorted { (activity[$1]!, $0) < (activity[$0]!, $1) }
        return order.map { chat in
            ChatListEntry(
                chatID: chat, lastMessage: last[chat],
                drafts: drafts.filter { $0.key.target.chatID(as: identity) == chat }, unread: unread[chat] ?? 0,
                unreadable: unreadable.contains(chat))
        }
    }
}
