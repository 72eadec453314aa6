/// How fast lines go to a server: a burst, then one line per interval (a token bucket),
/// as irssi and WeeChat pace themselves, so that a server's flood limits (InspIRCd's 8 KB
/// receive queue, ngircd's penalties) never end the connection.
public struct OutputPacing: Equatable, Sendable {
    /// Lines that may go at once.
    public let burst: Int
    /// Seconds for each line after the burst.
    public let interval: Double
    private var tokens: Double
    private var updated: Double?

    /// The default: 5 lines at once, then 2 a second.
    public init(burst: Int = 5, interval: Double = 0.5) {
        self.burst = burst
        self.interval = interval
        tokens = Double(burst)
    }

    /// No pacing: every line goes at once (test servers with relaxed flood limits).
    public static let unlimited = OutputPacing(burst: .max, interval: 0)

    /// Whether a line may go at `now` and leave `reserve` more free (fewer when the burst
    /// is smaller); when it may, it is counted.
    public mutating func take(at now: Double, leaving reserve: Int = 0) -> Bool {
        refill(at: now)
        guard tokens >= needed(reserve) else { return false }
        tokens -= 1
        return true
    }

    /// When the next line may go (leaving `reserve` more free), if one may not go now.
    public func nextAllowed(after now: Double, leaving reserve: Int = 0) -> Double? {
        guard interval > 0, burst != .max else { return nil }
        var copy = self
        copy.refill(at: now)
        let needed = needed(reserve)
        return copy.tokens >= needed ? nil : now + (needed - copy.tokens) * interval
    }

    private func needed(_ reserve: Int) -> Double { 1 + Double(min(reserve, burst - 1)) }

    private mutating func refill(at now: Double) {
        if burst == .max { return }
        if let updated, interval > 0 { tokens = min(Double(burst), tokens + (now - updated) / interval) }
        updated = now
    }
}
