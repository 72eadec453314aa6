/// The receiving side of typing notifications: who is typing where, with the expiry the
/// specification gives (an `active` that is not renewed within 6 s, a `paused` within
/// 30 s, ends), and a message from someone ending their typing there.
public struct TypingIndicators<Key: Hashable & Sendable>: Sendable {
    /// Seconds an `active` holds without another.
    public static var activeExpiry: Double { 6 }
    /// Seconds a `paused` holds without another.
    public static var pausedExpiry: Double { 30 }

    private var current: [Key: (state: TypingState, expires: Double)] = [:]

    public init() {}

    /// The state shown for `key` (`done` when nothing is shown).
    public func state(of key: Key) -> TypingState { current[key]?.state ?? .done }

    /// A notification came; returns whether what is shown changed.
    public mutating func received(_ state: TypingState, for key: Key, at now: Double) -> Bool {
        let before = self.state(of: key)
        switch state {
        case .active: current[key] = (.active, now + Self.activeExpiry)
        case .paused: current[key] = (.paused, now + Self.pausedExpiry)
        case .done: current[key] = nil
        }
        return before != state
    }

    /// A message came from `key`'s sender there: their typing is over. Returns whether
    /// what is shown changed.
    public mutating func messageArrived(for key: Key) -> Bool {
        current.removeValue(forKey: key) != nil
    }

    /// Ends what has expired by `now`; returns the keys that are `done` now.
    public mutating func expire(at now: Double) -> [Key] {
        let ended = current.filter { $0.value.expires <= now }.map(\.key)
        for key in ended { current[key] = nil }
        return ended
    }

    /// Ends everything (the connection was lost); returns the keys that were shown.
    public mutating func removeAll() -> [Key] {
        defer { current.removeAll() }
        return Array(current.keys)
    }

    /// When the next state expires.
    public var nextExpiry: Double? { current.values.map(\.expires).min() }
}
