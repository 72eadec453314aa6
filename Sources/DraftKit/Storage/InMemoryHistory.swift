/// A ``HistoryStore`` in memory: for tests, demos and the tour. Nothing reaches a disk.
public final class InMemoryHistory: HistoryStore {
    private var stored: [ChatID: [Message]] = [:]
    /// Every append, in order, for feeds.
    private(set) var appended: [Arrival] = []

    /// When set, the next append fails with this error and stores nothing (a full disk,
    /// played in memory).
    public var nextAppendFailure: StoreError?

    public var onWarning: ((StoreWarning) -> Void)?

    public init() {}

    public func append(_ message: Message, to chat: ChatID) throws(StoreError) {
        if let failure = nextAppendFailure {
            nextAppendFailure = nil
            throw failure
        }
        stored[chat, default: []].append(message)
        appended.append(Arrival(chat: chat, message: message))
    }

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

        func take() -> [Arrival] {
            defer { seen = history.appended.count }
            return Array(history.appended[seen...])
        }
    }

    public func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> [Message] {
        guard limit > 0 else { return [] }
        return Array((stored[chat] ?? []).suffix(limit))
    }

    public func messageCount(in chat: ChatID) throws(StoreError) -> Int { stored[chat]?.count ?? 0 }

    public func chats() throws(StoreError) -> [ChatSummary] {
        stored.keys.sorted().map { ChatSummary(chatID: $0, lastMessage: stored[$0]?.last) }
    }

    public func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> [ChatSummary] {
        // The order of the last appends, as the property-list index keeps it.
        var seen: Set<ChatID> = []
        var result: [ChatSummary] = []
        for arrival in appended.reversed() where result.count < limit && include(arrival.chat) {
            guard seen.insert(arrival.chat).inserted else { continue }
            result.append(ChatSummary(chatID: arrival.chat, lastMessage: stored[arrival.chat]?.last))
        }
        return result
    }
}
