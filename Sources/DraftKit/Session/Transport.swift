/// Where a session's messages go and the other side's come from: the data directory
/// today (``DirectoryTransport``), a chat server next.
///
/// Arrivals come as a feed does (``HistoryFeed``: a descriptor to wait on, bounded
/// slices). A send's fate is told by the message's ID: at once, when the transport has it
/// before ``send(_:to:)`` returns, or later, in a slice (``FeedSlice/deliveries``). The
/// session holds a send in flight until then (``LiveState/inFlight``).
public protocol Transport: HistoryFeed {
    /// Hands `message` over for `chat`.
    func send(_ message: Message, to chat: ChatID) -> Delivery

    /// Whether anyone with a valid key can be written to, not only the contacts here: a
    /// chat server knows who is on it and says so when a send goes (`401`).
    var reachesAnyone: Bool { get }
}

extension Transport {
    /// The data directory reaches the contacts here and those its history holds.
    public var reachesAnyone: Bool { false }
}

/// What became of a message handed to a ``Transport``.
public enum Delivery: Equatable, Sendable {
    /// The other side has it (stored, or the server took it), with what the store noticed.
    case acknowledged([StoreWarning])
    /// It was not taken, and why: its text is the user's again.
    case failed(StoreError)
    /// Its fate comes later, in a slice.
    case inFlight
}

/// A send's fate told later, in a slice: the message's ID and what became of it.
public struct Delivered: Equatable, Sendable {
    public var messageID: String
    public var delivery: Delivery

    public init(messageID: String, delivery: Delivery) {
        self.messageID = messageID
        self.delivery = delivery
    }
}

/// The data directory as the other side: a send is stored, and told to the other
/// processes by the journal, before ``send(_:to:)`` returns (acknowledged at once);
/// arrivals are the journal's (``HistoryStore/follow(notifications:)``), or none.
public final class DirectoryTransport: Transport {
    /// Where messages are stored.
    public let history: any HistoryStore
    private let feed: (any HistoryFeed)?

    /// Sends into `history`; arrivals from `feed`, when given.
    public init(_ history: any HistoryStore, feed: (any HistoryFeed)? = nil) {
        self.history = history
        self.feed = feed
    }

    public var descriptor: Int32 { feed?.descriptor ?? -1 }

    public func take() -> FeedSlice { feed?.take() ?? FeedSlice() }

    public func send(_ message: Message, to chat: ChatID) -> Delivery {
        do throws(StoreError) {
            return .acknowledged(try history.append(message, to: chat))
        } catch {
            return .failed(error)
        }
    }
}
