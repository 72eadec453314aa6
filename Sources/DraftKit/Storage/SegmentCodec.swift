import Foundation

/// A segment's bytes to messages and back: a binary property list holding an array of
/// message dictionaries.
enum SegmentCodec {
    /// The messages in a segment's bytes; `nil` when they are not such a property list (or
    /// nest too deep to be read safely: ``PropertyListInput``).
    static func decode(_ data: Data) -> [Message]? {
        try? PropertyListInput.decode([Message].self, from: data)
    }

    /// The last message in a segment's bytes, the ones before it stepped over without
    /// decoding a field; `.some(nil)` for an empty segment, `nil` when the bytes are not a
    /// segment.
    static func lastMessage(_ data: Data) -> Message?? {
        guard let decoded = try? PropertyListInput.decode(LastMessage.self, from: data) else { return nil }
        return .some(decoded.message)
    }

    /// Segments as binary property lists. Many at once (a bulk append) are encoded on
    /// every core: the encoding, not the writing, is most of a bulk append's time.
    static func encode(_ segments: [[Message]], path: String) throws(FileError) -> [Data] {
        @Sendable func one(_ messages: [Message]) -> Result<Data, FileError> {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            do { return .success(try encoder.encode(messages)) } catch {
                return .failure(FileError("encode", path: path, code: 0, detail: "\(error)"))
            }
        }
        func unwrapped(_ results: [Result<Data, FileError>?]) throws(FileError) -> [Data] {
            var data: [Data] = []
            for result in results {
                switch result {
                case .success(let bytes): data.append(bytes)
                case .failure(let error): throw error
                case nil: throw FileError("encode", path: path, code: 0, detail: "a segment was not encoded")
                }
            }
            return data
        }
        guard segments.count >= 2 else { return try unwrapped(segments.map(one)) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        var results = [Result<Data, FileError>?](repeating: nil, count: segments.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for item in stride(from: worker, to: segments.count, by: workers) { slots[item] = one(segments[item]) }
            }
        }
        return try unwrapped(results)
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
