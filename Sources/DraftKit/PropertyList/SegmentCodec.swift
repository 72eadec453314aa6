import Foundation

/// A segment's bytes to messages and back: a binary property list holding an array of
/// message dictionaries.
enum SegmentCodec {
    /// The last `count` messages in a segment's bytes; `nil` when they are no segment. Read
    /// by the own reader where it takes them, else all decoded by Foundation, then cut.
    static func decode(_ data: Data, last count: Int = .max) -> [Message]? {
        if let messages = BinaryChatLog.segment(data, last: count) { return messages }
        return (try? PropertyListInput.decode([Message].self, from: data)).map { Array($0.suffix(max(0, count))) }
    }

    /// The last message in a segment's bytes, the others not decoded; `.some(nil)` for an
    /// empty segment, `nil` when the bytes are no segment.
    static func lastMessage(_ data: Data) -> Message?? {
        if let last = BinaryChatLog.lastMessage(data) { return last }
        guard let decoded = try? PropertyListInput.decode(LastMessage.self, from: data) else { return nil }
        return .some(decoded.message)
    }

    /// Segments as binary property lists that sends can extend, encoded on every core.
    static func encode(_ segments: [ArraySlice<Message>]) -> [[UInt8]] {
        Parallel.map(segments.count) { SegmentEncoder.segment(segments[$0]) }
    }
}

/// A segment read by Foundation for its last message only.
private struct LastMessage: Decodable {
    var message: Message?

    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let count = container.count ?? 0
        while container.currentIndex < count - 1 { _ = try container.decode(Skipped.self) }
        message = container.isAtEnd ? nil : try container.decode(Message.self)
    }
}
