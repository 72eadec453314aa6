/// Cuts a stream of bytes into IRC lines: at LF, with a CR before it dropped (so LF and
/// CRLF both end a line), and with bounded memory whatever the stream holds.
///
/// A line longer than ``maximumLineLength`` is not kept: its bytes are counted and
/// dropped as they come, and it is given as ``Frame/overlong(bytes:)``, so a hostile
/// server's endless line costs at most one read's worth of memory.
public struct LineFramer: Sendable {
    /// One unit the framer gives.
    public enum Frame: Equatable, Sendable {
        /// A line's bytes, without its line end.
        case line([UInt8])
        /// A line that was too long, dropped: how many bytes it had.
        case overlong(bytes: Int)
    }

    /// The longest line kept, line end excluded: 8191 bytes of tags and 512 of the rest,
    /// as the message-tags specification allows a server to send.
    public static let defaultMaximum = 8191 + 512

    public let maximumLineLength: Int
    private var partial: [UInt8] = []
    /// The bytes of an overlong line dropped so far, while one is being dropped.
    private var dropping: Int?
    private var frames: [Frame] = []
    private var nextFrame = 0

    public init(maximumLineLength: Int = LineFramer.defaultMaximum) {
        self.maximumLineLength = maximumLineLength
    }

    /// Whether frames are waiting to be taken with ``next()``.
    public var hasFrames: Bool { nextFrame < frames.count }

    /// Bytes held for a line not yet ended (at most ``maximumLineLength``).
    public var bufferedBytes: Int { partial.count }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if nextFrame == frames.count {
            frames.removeAll(keepingCapacity: true)
            nextFrame = 0
        }
        var rest = bytes[...]
        while !rest.isEmpty {
            guard let newline = rest.firstIndex(of: 0x0A) else {
                hold(rest)
                return
            }
            hold(rest[..<newline])
            finishLine()
            rest = rest[rest.index(after: newline)...]
        }
    }

    /// The next line or overlong line, in the order they came.
    public mutating func next() -> Frame? {
        guard nextFrame < frames.count else { return nil }
        defer { nextFrame += 1 }
        return frames[nextFrame]
    }

    private mutating func hold(_ bytes: some Collection<UInt8>) {
        if let dropped = dropping {
            dropping = dropped + bytes.count
        } else if partial.count + bytes.count > maximumLineLength + 1 {
            // One byte over the limit is allowed for a CR that may come before the LF.
            dropping = partial.count + bytes.count
            partial.removeAll(keepingCapacity: false)
        } else {
            partial.append(contentsOf: bytes)
        }
    }

    private mutating func finishLine() {
        if let dropped = dropping {
            frames.append(.overlong(bytes: dropped))
            dropping = nil
            return
        }
        if partial.last == 0x0D { partial.removeLast() }
        if partial.count > maximumLineLength {
            frames.append(.overlong(bytes: partial.count))
        } else if !partial.isEmpty {
            frames.append(.line(partial))
        }
        partial.removeAll(keepingCapacity: true)
    }
}
