/// A ``HistoryStore`` in memory: for tests, demos and the tour. Nothing reaches a disk.
public final class InMemoryHistory: HistoryStore {
    private var stored: [ChatID: [Message]] = [:]

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
    }

    public func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> [Message] {
        guard limit > 0 else { return [] }
        return Array((stored[chat] ?? []).suffix(limit))
    }

    public func messageCount(in chat: ChatID) throws(StoreError) -> Int { stored[chat]?.count ?? 0 }

    public func chats() throws(StoreError) -> [ChatSummary] {
        stored.keys.sorted().map { ChatSummary(chatID: $0, lastMessage: stored[$0]?.last) }
    }
}
