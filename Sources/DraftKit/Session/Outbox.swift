import Foundation
import Glibc

/// Turns what the user sends into messages and stores them in history: each attachment
/// as a message of its own, then the text.
public final class Outbox {
    /// How a message ID ends, after the clock's milliseconds.
    public enum IDSuffix: Sendable {
        /// Random bits: two processes sending in the same millisecond stay apart.
        case random
        /// A count from 1 in this process: with a pinned clock, a run gives the same IDs
        /// every time.
        case sequential
    }

    /// Where messages go.
    public let history: any HistoryStore
    /// The sender's avatar, stored in each message's `mineHead`.
    public let identity: String
    private let clock: @Sendable () -> Date
    private let suffix: IDSuffix
    private var sent = 0

    public init(
        history: any HistoryStore, identity: String = "me", clock: @escaping @Sendable () -> Date,
        idSuffix: IDSuffix = .random
    ) {
        self.history = history
        self.identity = identity
        self.clock = clock
        self.suffix = idSuffix
    }

    /// What a send did: the messages stored, in order, and, when a write failed, why and
    /// what was not stored.
    public struct Result {
        public var stored: [Message] = []
        public var failure: (error: StoreError, unsent: DraftStore.Removed)?
        /// Attachments whose file was gone when they were sent (sent as a name only).
        public var gone: [Attachment] = []
    }

    /// Sends the attachments, then `text` unless it is blank; stops at the first failed
    /// write.
    public func send(_ text: String, attachments: [Attachment], to target: InputTarget) -> Result {
        var result = Result()
        var pending = attachments[...]
        while let attachment = pending.first {
            var message = compose("", to: target)
            message.type = attachment.messageType
            message.filePath = attachment.path
            if access(attachment.path, F_OK) != 0 { result.gone.append(attachment) }
            do throws(StoreError) {
                try history.append(message, to: target.chatID)
            } catch {
                result.failure = (error, DraftStore.Removed(text: TextDraft(text: text), attachments: Array(pending)))
                return result
            }
            result.stored.append(message)
            pending = pending.dropFirst()
        }
        guard !text.allSatisfy(\.isWhitespace) else { return result }
        let message = compose(text, to: target)
        do throws(StoreError) {
            try history.append(message, to: target.chatID)
        } catch {
            result.failure = (error, DraftStore.Removed(text: TextDraft(text: text), attachments: []))
            return result
        }
        result.stored.append(message)
        return result
    }

    /// Stores one message that is not typed text (a location).
    public func send(_ message: Message, to target: InputTarget) throws(StoreError) {
        try history.append(message, to: target.chatID)
    }

    /// A message to `target` with this text, dated and identified by the clock.
    public func compose(_ text: String, to target: InputTarget) -> Message {
        let other = target.otherUser?.rawValue ?? ""
        let now = clock()
        return Message(
            chatID: target.chatID.rawValue, messageID: messageID(at: now), content: text, target: other,
            mineHead: identity, otherHead: other, type: "text", sentAt: now)
    }

    /// A unique, time-ordered message ID: milliseconds since 1970 by the clock, then the
    /// suffix.
    private func messageID(at time: Date) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        sent += 1
        switch suffix {
        case .random: return "\(milliseconds)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        case .sequential: return "\(milliseconds)-\(String(sent, radix: 16))"
        }
    }
}
