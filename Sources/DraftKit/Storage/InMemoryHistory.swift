/// A ``HistoryStore`` in memory: for tests, demos and the tour. Nothing reaches a disk.
public final class InMemoryHistory: BulkHistoryStore {
    private var stored: [ChatID: [Message]] = [:]
    /// Every announced append, in order, for feeds.
    private(set) var appended: [Arrival] = []
    /// The chat of every append, in order, for the chat list.
    private var changed: [ChatID] = []

    /// When set, the next append fails with this error and stores nothing (a full disk,
    /// played in memory).
    public var nextAppendFailure: StoreError?

    /// Warnings every read and append returns from now on, as a damaged store's would.
    public var warningsToReport: [StoreWarning] = []

    public init() {}

    @discardableResult
    public func append(_ message: Message, to chat: ChatID) throws(StoreError) -> [StoreWarning] {
        try appendAll([message], to: chat, durable: true, announce: true)
    }

    @discardableResult
    public func appendAll(
        _ messages: [Message], to chat: ChatID, durable: Bool = true, announce: Bool = true
    ) throws(StoreError) -> [StoreWarning] {
        if let failure = nextAppendFailure {
            nextAppendFailure = nil
            throw failure
        }
        stored[chat, default: []] += messages
        if !messages.isEmpty { changed.append(chat) }
        if announce { appended += messages.map { Arrival(chat: chat, message: $0) } }
        return warningsToReport
    }

    public func commit() throws(StoreError) {}

    /// Runs `body`: one process holds this history.
    public func exclusively<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T { try body() }

    /// A feed of what is appended from now on; it has no descriptor (ask it).
    public func follow(notifications: Bool = false) -> any HistoryFeed { Feed(history: self) }

    private final class Feed: HistoryFeed {
        let history: InMemoryHistory
        var seen: Int

        init(history: InMemoryHistory) {
            self.history = history
            seen = history.appended.count
        }

        var descriptor: Int32 { -1 }

        func take() -> FeedSlice {
            defer { seen = history.appended.count }
            return FeedSlice(arrivals: Array(history.appended[seen...]))
        }
    }

    public func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> Reading<[Message]> {
        guard limit > 0 else { return reading([]) }
        return reading(Array((stored[chat] ?? []).suffix(limit)))
    }

    public func messageCount(in chat: ChatID) throws(StoreError) -> Reading<Int> { reading(stored[chat]?.count ?? 0) }

    public func chatIDs() throws(StoreError) -> [ChatID] { stored.keys.sorted() }

    public func allMessages(in chat: ChatID) throws(StoreError) -> Reading<[Message]> { reading(stored[chat] ?? []) }

    public func chats() throws(StoreError) -> Reading<[ChatSummary]> {
        reading(stored.keys.sorted().map { ChatSummary(chatID: $0, lastMessage: stored[$0]?.last) })
    }

    public func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> Reading<[ChatSummary]> {
        // The order of the last appends, as the property-list index keeps it.
        var seen: Set<ChatID> = []
        var result: [ChatSummary] = []
        for chat in changed.reversed() where result.count < limit && include(chat) {
            guard seen.insert(chat).inserted else { continue }
            result.append(ChatSummary(chatID: chat, lastMessage: stored[chat]?.last))
        }
        return reading(result)
    }

    private func reading<T>(_ value: T) -> Reading<T> { Reading(value, warnings: warningsToReport) }
}
