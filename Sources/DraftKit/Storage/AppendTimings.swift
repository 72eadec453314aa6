/// Where the time of appends went, summed over every append since the history was opened
/// (or since ``reset()``): for the benchmark, which prints it per send.
public struct AppendTimings: Sendable {
    /// Appends counted.
    public var appends = 0
    /// Reading the last segment's bytes (open, `fstat`, `read`).
    public var read = 0.0
    /// Decoding messages (only when a segment is written anew) and reading its layout.
    public var decode = 0.0
    /// Encoding the new messages' bytes.
    public var encode = 0.0
    /// Making chats' directories (`mkdirat`).
    public var directories = 0.0
    /// Making a new segment's file (`openat` with `O_CREAT`, `fchmod`, `close`).
    public var create = 0.0
    /// Writing them (`write`).
    public var write = 0.0
    /// `fsync` or `fdatasync` of the segment, or the `syncfs` that commits a bulk load.
    public var sync = 0.0
    /// Renaming a new segment into place and syncing its directory.
    public var rename = 0.0
    /// The journal's line and the chat list's index line.
    public var announce = 0.0

    public init() {}

    /// Forgets what was counted.
    public mutating func reset() { self = AppendTimings() }

    /// Runs `body`, adding its time to the figure at `phase`.
    mutating func measure<T, E: Error>(
        _ phase: WritableKeyPath<AppendTimings, Double>, _ body: () throws(E) -> T
    ) throws(E) -> T {
        let start = SuspendingClock.now
        defer { self[keyPath: phase] += (SuspendingClock.now - start) / .seconds(1) }
        return try body()
    }
}
