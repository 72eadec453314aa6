/// What was appended to history since a feed last looked, by any process on the data
/// directory. A front end waits on ``descriptor`` with the keyboard and calls ``take()``,
/// a bounded slice; while ``FeedSlice/hasMore``, it serves the keys waiting, then takes the
/// next, so a flood never starves the keyboard.
public protocol HistoryFeed: AnyObject {
    /// Readable when there may be news, the same for the feed's life; -1: ask at intervals.
    var descriptor: Int32 { get }

    /// The next slice of the messages appended since the last call, in order, each once.
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
    /// A quarter of a second: arrivals show within it; an idle process wakes four times a second.
    public static let interval = 0.25
}
