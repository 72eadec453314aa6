import Foundation

/// One conversation in history, for the chat list.
public struct ChatSummary: Equatable, Sendable {
    /// The chat's ID.
    public var chatID: ChatID
    /// Its last message, if it could be read.
    public var lastMessage: Message?

    /// When the chat last changed, when known without its last message (an index's word).
    public var changed: Date?
    /// Whether its last message could not be read (a call failed; a warning says which):
    /// the chat has messages, unknown here, not none.
    public var unreadable = false

    public init(chatID: ChatID, lastMessage: Message?, changed: Date? = nil, unreadable: Bool = false) {
        self.chatID = chatID
        self.lastMessage = lastMessage
        self.changed = changed
        self.unreadable = unreadable
    }

    /// When the chat last changed: its last message's send time (else the index's).
    public var lastActivity: Date { lastMessage?.sentAt ?? changed ?? Message.unknownTime }
}
