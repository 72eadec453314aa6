/// What was appended to history since a feed last looked: by this process or another
/// one on the same data directory.
///
/// A front end waits on ``descriptor`` together with the keyboard, and calls ``take()``
/// when it becomes readable (or, when it is -1, every ``HistoryFeedPolling/interval``).
/// The session decides which arrivals concern its user (``Session/receive(_:)``).
public protocol HistoryFeed: AnyObject {
    /// A descriptor that becomes readable when there may be news; -1 when there is none
    /// and the feed has to be asked at intervals.
    var descriptor: Int32 { get }

    /// Every message appended since the last call (or since the feed was made), in the
    /// order the appends happened: each one once.
    func take() -> [Arrival]
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
