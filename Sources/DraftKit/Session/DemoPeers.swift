import Foundation

/// People who answer: each message sent to one of them is answered, after ``delay``
/// seconds, with the next line of a small script, so that a single terminal shows a
/// message arriving while the next draft is being typed (`--demo`).
///
/// The script's words are the front end's (they name its keys as bound); without one, a
/// peer answers with the start of the message it got.
///
/// A reply is stored in history like any message, sent by the peer, and reaches the
/// screen through the feed, as one from another process does; its message ID ends in
/// ``replyMark`` (``isReply(_:)``), so a reader can tell it from what a person typed. Times
/// are measured on a monotonic clock the caller gives (`now`), never the session's clock,
/// which a test may have pinned.
///
/// A peer never speaks for a person who is really there: before it answers it asks
/// `presence` whether a draftline runs, or ran, as that identity on the data directory,
/// and a message from it that is no demo reply (typed in another process) arrives, it
/// falls silent for good, and says so once (``Silence``).
public final class DemoPeers {
    /// What a message ID of a demo reply ends with.
    public static let replyMark = "-demo"

    /// Why a peer stopped answering, for good.
    public enum Silence: Equatable, Sendable {
        /// A draftline runs as that person on this data directory.
        case running
        /// A draftline ran as that person on this data directory before.
        case ranBefore
        /// A message that person typed arrived from another draftline.
        case spoke
    }

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
    private let presence: (GlobalKey) -> Presence.State
    /// The peers that fell silent, and why.
    public private(set) var silenced: [GlobalKey: Silence] = [:]
    /// Silences not yet told to the user, in order.
    private var untold: [(peer: GlobalKey, why: Silence)] = []

    /// `now` is seconds on a monotonic clock; `clock` dates the replies; `idSuffix` ends
    /// their IDs (give the user's numbering when the clock is pinned); `presence` tells
    /// whether a draftline runs or ran as a person (``Presence/state(of:)``; a store in
    /// memory has no other process).
    public init(
        people: Set<GlobalKey>, delay: Double, history: any HistoryStore, clock: @escaping @Sendable () -> Date,
        idSuffix: Outbox.IDSuffix = .random, now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
        presence: @escaping (GlobalKey) -> Presence.State = { _ in .never }
    ) {
        self.idSuffix = idSuffix
        self.presence = presence
        self.people = people
        self.delay = max(0, delay)
        self.history = history
        self.clock = clock
        self.now = now
    }

    /// A message `sender` stored in the private chat with `peer`: answered in ``delay``
    /// seconds when `peer` is one of ``people``.
    func heard(_ message: Message, from sender: GlobalKey, to peer: GlobalKey) {
        guard people.contains(peer), peer != sender, mayAnswer(as: peer) else { return }
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
            guard mayAnswer(as: next.peer) else { continue }
            let turn = answered[next.peer, default: 0]
            answered[next.peer] = turn + 1
            let line = script.isEmpty ? "{quote}" : script[turn % script.count]
            let text = line.replacingOccurrences(of: "{quote}", with: next.quote)
            let outbox =
                outboxes[next.peer]
                ?? Outbox(transport: DirectoryTransport(history), identity: next.peer, clock: clock, idSuffix: idSuffix)
            outboxes[next.peer] = outbox
            var reply = outbox.compose(text, to: .privateChat(next.to))
            reply.messageID += Self.replyMark
            switch outbox.send(reply, to: .privateChat(next.to)) {
            case .acknowledged(let noticed): warnings += noticed
            case .failed(let error): errors.append((next.peer, error))
            case .inFlight: break
            }
        }
        return (errors, warnings)
    }

    /// Whether a message is a demo peer's reply (its ID ends in ``replyMark``), not
    /// something a person typed.
    public static func isReply(_ message: Message) -> Bool { message.messageID.hasSuffix(replyMark) }

    /// A message that arrived from the feed: when one of ``people`` typed it (it is no demo
    /// reply), that person is really there and their peer falls silent for good.
    func arrived(_ message: Message) {
        guard !Self.isReply(message), let author = try? GlobalKey(validating: message.author),
            people.contains(author)
        else { return }
        silence(author, .spoke)
    }

    /// The silences not yet told, each once, oldest first.
    func takeSilences() -> [(peer: GlobalKey, why: Silence)] {
        defer { untold = [] }
        return untold
    }

    /// Whether `peer` may still answer: not silenced, and no draftline runs or ran as it.
    private func mayAnswer(as peer: GlobalKey) -> Bool {
        guard silenced[peer] == nil else { return false }
        switch presence(peer) {
        case .never: return true
        case .before: silence(peer, .ranBefore)
        case .now: silence(peer, .running)
        }
        return false
    }

    /// Silences `peer` for good (the first reason stays), dropping its answers not given.
    private func silence(_ peer: GlobalKey, _ why: Silence) {
        guard silenced[peer] == nil else { return }
        silenced[peer] = why
        untold.append((peer, why))
        pending.removeAll { $0.peer == peer }
    }
}
