/// What was appended to history since a feed last looked: by this process or another
/// one on the same data directory.
///
/// A front end waits on ``descriptor`` together with the keyboard, and calls ``take()``
/// when it becomes readable (or, when it is -1, every ``HistoryFeedPolling/interval``).
/// Each call does a bounded amount of work and says whether more is waiting
/// (``FeedSlice/hasMore``, the one signal of it): while it is, a loop serves the keys
/// waiting, then takes the next slice without waiting, so a flood never starves the
/// keyboard. The session decides which arrivals concern its user
/// (``Session/receive(_:)``).
public protocol HistoryFeed: AnyObject {
    /// A descriptor that becomes readable when there may be news; -1 when there is none
    /// and the feed has to be asked at intervals. The number stays the same for the
    /// feed's life.
    var descriptor: Int32 { get }

    /// The next slice of the messages appended since the last call (or since the feed was
    /// made), in the order the appends happened: each one once.
    func take() -> FeedSlice
}

/// One bounded slice of what a feed brought.
public struct FeedSlice: Equatable, Sendable {
    /// The messages, in the order they were appended.
    public var arrivals: [Arrival]
    /// What the feed noticed on the way (a flood of the journal skipped).
    public var warnings: [StoreWarning]
    /// Whether more is waiting: call ``HistoryFeed/take()`` again (after the keys).
    public var hasMore: Bool
    /// What became of sends a ``Transport`` held in flight.
    public var deliveries: [Delivered]

    public init(
        arrivals: [Arrival] = [], warnings: [StoreWarning] = [], hasMore: Bool = false, deliveries: [Delivered] = []
    ) {
        self.arrivals = arrivals
        self.warnings = warnings
        self.hasMore = hasMore
        self.deliveries = deliveries
    }
}

/// One message appended to a chat.
public struct Arrival: Equatable, Sendable {
    public var chat: ChatID
    public var message: Message

    public init(chat: ChatID, message: Message) {
        self.chat = chat
        self.message = message
    }
}

/// How often a feed without a descriptor is asked.
public enum HistoryFeedPolling {
    /// A quarter of a second: arrivals show within it, and an idle process wakes four
    /// times a second.
    public static let interval = 0.25
}
