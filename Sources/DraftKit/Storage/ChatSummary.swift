import Foundation

/// One conversation in history, for the chat list.
public struct ChatSummary: Equatable, Sendable {
    /// The chat's ID.
    public var chatID: ChatID
    /// Its last message, if it could be read.
    public var lastMessage: Message?

    public init(chatID: ChatID, lastMessage: Message?) {
        self.chatID = chatID
        self.lastMessage = lastMessage
    }

    /// When the chat last changed: its last message's send time.
    public var lastActivity: Date { lastMessage?.sentAt ?? Message.unknownTime }
}
