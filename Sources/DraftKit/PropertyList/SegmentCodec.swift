import Foundation

/// A segment's bytes to messages and back: a binary property list holding an array of
/// message dictionaries.
enum SegmentCodec {
    /// The last `count` messages in a segment's bytes (all by default); `nil` when they are
    /// not a binary property list holding an array of message dictionaries (or nest too
    /// deep to be read safely: ``PropertyListInput``). Read from the object table, the others
    /// not decoded (``BinaryChatLog/segment(_:last:)``), wherever that reads as Foundation's
    /// decoder does, several times faster; else all decoded by the decoder, then cut.
    static func decode(_ data: Data, last count: Int = .max) -> [Message]? {
        if let messages = BinaryChatLog.segment(data, last: count) { return messages }
        return (try? PropertyListInput.decode([Message].self, from: data)).map { Array($0.suffix(max(0, count))) }
    }

    /// The last message in a segment's bytes, the ones before it stepped over without
    /// decoding a field; `.some(nil)` for an empty segment, `nil` when the bytes are not a
    /// segment. Read from the object table (``BinaryChatLog/lastMessage(_:)``) where that
    /// reads it as Foundation does; by the decoder otherwise.
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

/// A segment read for its last message only: the ones before it are stepped over without
/// decoding a field.
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
