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
/// - warnings travel with what a call returns (``Reading``), to the caller that asked.
public protocol HistoryStore: AnyObject {
    /// Stores a message at the end of its chat; returns what went wrong that did not stop it.
    @discardableResult
    func append(_ message: Message, to chat: ChatID) throws(StoreError) -> [StoreWarning]

    /// The last `limit` messages of a chat, oldest first.
    func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> Reading<[Message]>

    /// How many messages a chat holds.
    func messageCount(in chat: ChatID) throws(StoreError) -> Reading<Int>

    /// Every chat with history, each with its last message and when it was sent.
    func chats() throws(StoreError) -> Reading<[ChatSummary]>

    /// The `limit` chats that changed last among those `include` accepts, newest first, each
    /// with its last message: the chat list, at a cost in what it shows.
    func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> Reading<[ChatSummary]>

    /// A feed of the messages appended from now on, by this process or any other.
    func follow(notifications: Bool) -> any HistoryFeed
}

/// A store that whole histories can be moved in and out of: what `draftline import` and
/// `export` need (``HistoryTransfer``).
public protocol BulkHistoryStore: HistoryStore {
    /// Every chat with history, in a stable order; nothing in them is read.
    func chatIDs() throws(StoreError) -> [ChatID]

    /// Every message of a chat, oldest first.
    func allMessages(in chat: ChatID) throws(StoreError) -> Reading<[Message]>

    /// Appends many messages to a chat at once; with `durable` off unsynced until
    /// ``commit()``, with `announce` off untold to the running draftlines.
    @discardableResult
    func appendAll(
        _ messages: [Message], to chat: ChatID, durable: Bool, announce: Bool
    ) throws(StoreError)
        -> [StoreWarning]

    /// Makes everything appended without `durable` safe on the disk.
    func commit() throws(StoreError)

    /// Runs `body` while no other writer can append (reentrant).
    func exclusively<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T
}
