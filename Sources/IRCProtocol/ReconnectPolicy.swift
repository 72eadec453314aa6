/// How long to wait before each attempt to connect again: 1 s, doubling to 30 s, back to
/// 1 s once a connection has been welcomed.
public struct ReconnectPolicy: Equatable, Sendable {
    public let first: Double
    public let maximum: Double
    private var next: Double

    public init(first: Double = 1, maximum: Double = 30) {
        self.first = first
        self.maximum = maximum
        next = first
    }

    /// The wait before the next attempt; each call doubles the one after it, up to
    /// ``maximum``.
    public mutating func nextDelay() -> Double {
        defer { next = min(maximum, next * 2) }
        return next
    }

    /// A connection was welcomed: the next loss waits ``first`` again.
    public mutating func reset() { next = first }
}
