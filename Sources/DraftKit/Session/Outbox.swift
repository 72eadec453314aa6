import Foundation
import Glibc

/// Turns what the user sends into messages and hands them to a ``Transport``: each
/// attachment as a message of its own, then the text.
public final class Outbox {
    /// How a message ID ends, after the clock's milliseconds.
    public enum IDSuffix {
        /// Random bits: two processes sending in the same millisecond stay apart.
        case random
        /// The sender's global_key, then a run and a count (``MessageNumbering``): with a
        /// pinned clock, unique across processes and identities, and the same for the same
        /// script on the same directory.
        case numbered(MessageNumbering)
    }

    /// Where messages go.
    public let transport: any Transport
    /// Who sends: stored in each message's `sender` and `mineHead` (the sender's avatar).
    public let identity: GlobalKey
    private let clock: @Sendable () -> Date
    private let suffix: IDSuffix
    /// The IDs of messages stored by this outbox that the feed has not yet brought back.
    private var unechoed: Set<String> = []

    public init(
        transport: any Transport, identity: GlobalKey = .me, clock: @escaping @Sendable () -> Date,
        idSuffix: IDSuffix = .random
    ) {
        self.transport = transport
        self.identity = identity
        self.clock = clock
        self.suffix = idSuffix
    }

    /// What a send did: the messages acknowledged, those in flight, in order, and, when one
    /// was refused, why and what was not sent.
    public struct Result {
        public var stored: [Message] = []
        /// Messages whose fate comes later, each with the part of the draft it carries.
        public var inFlight: [(message: Message, part: DraftContents)] = []
        public var failure: (error: StoreError, unsent: DraftContents)?
        /// Attachments whose file was gone when they were sent (sent as a name only).
        public var gone: [Attachment] = []
        /// What the store noticed while storing them.
        public var warnings: [StoreWarning] = []
    }

    /// Sends the attachments, then `text` unless it is blank; stops at the first refusal.
    public func send(_ text: String, attachments: [Attachment], to target: InputTarget) -> Result {
        var result = Result()
        var pending = attachments[...]
        while let attachment = pending.first {
            var message = compose("", to: target)
            message.type = attachment.messageType
            message.filePath = attachment.path
            if access(attachment.path, F_OK) != 0 { result.gone.append(attachment) }
            let part = DraftContents(text: nil, attachments: [attachment])
            if let error = hand(message, part, to: target, &result) {
                result.failure = (error, DraftContents(text: TextDraft(text: text), attachments: Array(pending)))
                return result
            }
            pending = pending.dropFirst()
        }
        guard !text.allSatisfy(\.isWhitespace) else { return result }
        let message = compose(text, to: target)
        let part = DraftContents(text: TextDraft(text: text), attachments: [])
        if let error = hand(message, part, to: target, &result) { result.failure = (error, part) }
        return result
    }

    /// Hands one message to the transport and notes its fate in `result`; the refusal, if
    /// it was refused.
    private func hand(
        _ message: Message, _ part: DraftContents, to target: InputTarget, _ result: inout Result
    ) -> StoreError? {
        switch transport.send(message, to: target.chatID(as: identity)) {
        case .acknowledged(let warnings):
            result.warnings += warnings
            result.stored.append(message)
        case .inFlight:
            result.inFlight.append((message, part))
        case .failed(let error):
            return error
        }
        unechoed.insert(message.messageID)
        return nil
    }

    /// Hands over one message that is not typed text (a location or a demo reply).
    public func send(_ message: Message, to target: InputTarget) -> Delivery {
        let delivery = transport.send(message, to: target.chatID(as: identity))
        if case .failed = delivery { return delivery }
        unechoed.insert(message.messageID)
        return delivery
    }

    /// Whether a message that came back through a feed is one this outbox stored (it was
    /// shown when sent); each is recognised once.
    func isEcho(_ message: Message) -> Bool {
        message.author == identity.rawValue && unechoed.remove(message.messageID) != nil
    }

    /// A message to `target` with this text, dated and identified by the clock.
    public func compose(_ text: String, to target: InputTarget) -> Message {
        let other = target.otherUser?.rawValue ?? ""
        let now = clock()
        return Message(
            chatID: target.chatID(as: identity).rawValue, messageID: messageID(at: now), content: text, target: other,
            mineHead: identity.rawValue, otherHead: other, type: "text", sentAt: now, sender: identity.rawValue)
    }

    /// A unique, time-ordered message ID: milliseconds since 1970 by the clock, then the
    /// suffix (`1700000000000-alice-1.3` when numbered; random bits when the run could not
    /// be claimed, so the send goes on and its own error, if any, is the one shown).
    private func messageID(at time: Date) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        if case .numbered(let numbering) = suffix, let number = numbering.next() {
            return "\(milliseconds)-\(identity.rawValue)-\(number)"
        }
        return "\(milliseconds)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    }
}

/// Numbers message IDs when the clock is pinned: `<run>.<n>`, where the run is claimed
/// once, at the first ID, from the data directory (``PropertyListHistory/claimRun()``:
/// no two processes get the same one) and `n` counts the IDs this process made, across
/// every outbox given this numbering (the user's and the demo peers'). With the sender's
/// key before it, an ID is unique across processes and identities; a script run on a fresh
/// directory makes the same IDs every time.
public final class MessageNumbering {
    private let claim: () -> Int?
    private var run: Int??
    private var count = 0

    /// `claim` gives the run number, or `nil` when it cannot (the IDs are then random).
    public init(claim: @escaping () -> Int?) { self.claim = claim }

    /// Numbering in a run already known (a store in memory, a test).
    public convenience init(run: Int) { self.init(claim: { run }) }

    /// The next `<run>.<n>`, or `nil` when no run could be claimed.
    func next() -> String? {
        if run == nil { run = .some(claim()) }
        guard case .some(.some(let run)) = run else { return nil }
        count += 1
        return "\(run).\(count)"
    }
}
