import Foundation

/// One conversation in history, for the chat list.
public struct ChatSummary: Equatable, Sendable {
    /// The chat's ID.
    public var chatID: ChatID
    /// Its last message, if it could be read.
    public var lastMessage: Message?
    /// When it last changed.
    public var lastActivity: Date

    public init(chatID: ChatID, lastMessage: Message?, lastActivity: Date) {
        self.chatID = chatID
        self.lastMessage = lastMessage
        self.lastActivity = lastActivity
    }
}
