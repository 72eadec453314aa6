import Foundation

/// People who answer: each message sent to one of them is answered, after ``delay``
/// seconds, with the next line of a small script, so that a single terminal shows a
/// message arriving while the next draft is being typed (`--demo`).
///
/// The script's words are the front end's (they name its keys as bound); without one, a
/// peer answers with the start of the message it got.
///
/// A reply is stored in history like any message, sent by the peer, and reaches the
/// screen through the feed, as one from another process does. Times are measured on a
/// monotonic clock the caller gives (`now`), never the session's clock, which a test may
/// have pinned.
public final class DemoPeers {
    /// Who answers.
    public let people: Set<GlobalKey>
    /// Seconds between a message and its answer.
    public let delay: Double

    /// The replies, in turn; `{quote}` in one stands for the start of the message answered.
    public var script: [String] = []

    private let history: any HistoryStore
    private let clock: @Sendable () -> Date
    private let now: () -> Double
    private let idSuffix: Outbox.IDSuffix
    private var outboxes: [GlobalKey: Outbox] = [:]
    private var answered: [GlobalKey: Int] = [:]
    private var pending: [(due: Double, peer: GlobalKey, to: GlobalKey, quote: String)] = []

    /// `now` is seconds on a monotonic clock; `clock` dates the replies; `idSuffix` ends
    /// their IDs (give the user's numbering when the clock is pinned).
    public init(
        people: Set<GlobalKey>, delay: Double, history: any HistoryStore, clock: @escaping @Sendable () -> Date,
        idSuffix: Outbox.IDSuffix = .random, now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.idSuffix = idSuffix
        self.people = people
        self.delay = max(0, delay)
        self.history = history
        self.clock = clock
        self.now = now
    }

    /// A message `sender` stored in the private chat with `peer`: answered in ``delay``
    /// seconds when `peer` is one of ``people``.
    func heard(_ message: Message, from sender: GlobalKey, to peer: GlobalKey) {
        guard people.contains(peer), peer != sender else { return }
        let flat = (message.content.isEmpty ? message.type : message.content).replacingOccurrences(of: "\n", with: " ")
        let quote = flat.count > 30 ? String(flat.prefix(29)) + "…" : flat
        pending.append((now() + delay, peer, sender, quote))
    }

    /// Seconds until the next answer is due (0 when one is late); `nil` when none waits.
    public var secondsToNextAnswer: Double? {
        pending.first.map { max(0, $0.due - now()) }
    }

    /// Stores every answer that is due, in order; returns who could not store an answer and
    /// why (the answer is dropped: a peer does not retry), and the store's warnings.
    @discardableResult
    public func answerDue() -> (errors: [(peer: GlobalKey, error: StoreError)], warnings: [StoreWarning]) {
        var errors: [(peer: GlobalKey, error: StoreError)] = []
        var warnings: [StoreWarning] = []
        let time = now()
        while let next = pending.first, next.due <= time {
            pending.removeFirst()
            let turn = answered[next.peer, default: 0]
            answered[next.peer] = turn + 1
            let line = script.isEmpty ? "{quote}" : script[turn % script.count]
            let text = line.replacingOccurrences(of: "{quote}", with: next.quote)
            let outbox =
                outboxes[next.peer]
                ?? Outbox(history: history, identity: next.peer, clock: clock, idSuffix: idSuffix)
            outboxes[next.peer] = outbox
            let result = outbox.send(text, attachments: [], to: .privateChat(next.to))
            if let failure = result.failure { errors.append((next.peer, failure.error)) }
            warnings += result.warnings
        }
        return (errors, warnings)
    }
}
