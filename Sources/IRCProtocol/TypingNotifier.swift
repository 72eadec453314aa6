/// The sending side of typing notifications: which state to send for what the user does
/// to a chat's input, and when to stay quiet.
///
/// `active` goes at most every ``activeInterval`` seconds while the user edits; `paused`
/// when they leave a chat with a draft; `done` when the draft is gone, and only after
/// `active` or `paused` was sent (nobody needs to hear that an idle chat stays idle).
public struct TypingNotifier<Target: Hashable & Sendable>: Sendable {
    /// The least time between two `active` notifications for one chat.
    public static var activeInterval: Double { 3 }

    private var sent: [Target: (state: TypingState, at: Double)] = [:]

    public init() {}

    /// The user changed the input of `target`; it now holds text or is empty.
    public mutating func edited(_ target: Target, hasText: Bool, at now: Double) -> TypingState? {
        guard hasText else { return draftGone(target, at: now) }
        if let last = sent[target], last.state == .active, now - last.at < Self.activeInterval { return nil }
        return record(.active, for: target, at: now)
    }

    /// The user left `target`, with a draft in it or without.
    public mutating func left(_ target: Target, hasDraft: Bool, at now: Double) -> TypingState? {
        guard hasDraft else { return draftGone(target, at: now) }
        if sent[target]?.state == .paused { return nil }
        return record(.paused, for: target, at: now)
    }

    /// The draft of `target` is gone: sent, emptied, discarded or abandoned.
    public mutating func draftGone(_ target: Target, at now: Double) -> TypingState? {
        guard let last = sent[target], last.state != .done else { return nil }
        sent[target] = nil
        return .done
    }

    /// The user quits: `done` for every chat whose last notification was not.
    public mutating func quit() -> [Target] {
        defer { sent.removeAll() }
        return sent.filter { $0.value.state != .done }.map(\.key)
    }

    /// The connection was lost: the server forgot nothing to take back, and after the
    /// reconnect the next edit sends `active` at once.
    public mutating func reset() { sent.removeAll() }

    private mutating func record(_ state: TypingState, for target: Target, at now: Double) -> TypingState {
        sent[target] = (state, now)
        return state
    }
}
