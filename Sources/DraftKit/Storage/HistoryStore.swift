/// Where chat messages are kept: the storage contract.
///
/// ``PropertyListHistory`` keeps them in property-list files and ``InMemoryHistory`` in
/// memory; one contract test suite holds both to the same rules:
///
/// - ``append(_:to:)`` returns only when the message is stored for good, and when it
///   throws, nothing was changed;
/// - messages come back in the order they were appended, with every field as stored;
/// - a private chat and a comment thread never share a history, whatever their names;
/// - ``messageCount(in:)`` is exact;
/// - one damaged chat never hides another: ``chats()`` lists it without its last message
///   and reports a warning;
/// - warnings arrive as events through ``onWarning``.
public protocol HistoryStore: AnyObject {
    /// Stores a message at the end of its chat.
    func append(_ message: Message, to chat: ChatID) throws(StoreError)

    /// The last `limit` messages of a chat, oldest first.
    func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> [Message]

    /// How many messages a chat holds.
    func messageCount(in chat: ChatID) throws(StoreError) -> Int

    /// Every chat with history, each with its last message and when it was sent.
    func chats() throws(StoreError) -> [ChatSummary]

    /// The `limit` chats that changed last among those `include` accepts, newest first,
    /// each with its last message: what the chat list shows, at a cost in what it shows
    /// rather than in how many chats there are.
    func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> [ChatSummary]

    /// A feed of the messages appended from now on, by this process or any other.
    func follow(notifications: Bool) -> any HistoryFeed

    /// Called with each warning as it happens (a damaged file moved aside, a chat that
    /// could not be listed).
    var onWarning: ((StoreWarning) -> Void)? { get set }
}
