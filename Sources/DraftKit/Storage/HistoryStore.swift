/// Where chat messages are kept.
///
/// ``PropertyListHistory`` keeps them on disk; tests may use another store.
public protocol HistoryStore: AnyObject {
    /// Stores a message at the end of its chat. When this returns, the message is on disk
    /// for good; when it throws, nothing was changed.
    func append(_ message: Message, to chat: ChatID) throws(StorageError)

    /// The last `limit` messages of a chat, oldest first.
    func recentMessages(in chat: ChatID, limit: Int) throws(StorageError) -> [Message]

    /// How many messages a chat holds.
    func messageCount(in chat: ChatID) throws(StorageError) -> Int

    /// Every chat with history, each with its last message and when it last changed.
    func chats() throws(StorageError) -> [ChatSummary]

    /// Warnings about damaged files found since the last call (each one line), then
    /// forgotten.
    func takeWarnings() -> [String]
}
