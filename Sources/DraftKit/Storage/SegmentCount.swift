import Foundation

/// The `count` file of a chat: how many messages its first *k* segments hold. A full
/// segment changes only by repair (which deletes this file); a cache, never synced.
struct SegmentCount {
    /// More messages than any segment holds: no figure from disk can make the sums overflow.
    static let largestSegment = 1 << 20

    /// The chat's directory, which holds the file.
    let directory: Directory
    /// Where the file is written before it is renamed into place.
    let temporary: Directory

    /// The file's name.
    static let name = "count"

    /// How many full segments the file covers, and their messages; (0, 0) without a usable file.
    func read() -> (segments: Int, messages: Int) {
        guard let data = try? directory.read(Self.name, limit: 4096),
            let cache = try? PropertyListInput.decode([String: Int].self, from: data),
            let segments = cache["segments"], let messages = cache["messages"],
            (0...SegmentIndex.maximum).contains(segments), (0...segments * Self.largestSegment).contains(messages)
        else { return (0, 0) }
        return (segments, messages)
    }

    /// Replaces the file (a binary property list: `segments`, `messages`).
    func write(_ cache: (segments: Int, messages: Int)) {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        guard let data = try? encoder.encode(["segments": cache.segments, "messages": cache.messages]) else { return }
        _ = try? directory.replace(Self.name, with: data, temporary: temporary, durable: false)
    }

    /// These segments just filled up, in order: covered, as far as every one before them is.
    func add(_ segments: [(index: Int, count: Int)]) {
        guard !segments.isEmpty else { return }
        var cache = read()
        let known = cache.segments
        for (index, count) in segments where cache.segments == index {
            cache.segments += 1
            cache.messages += count
        }
        if cache.segments > known { write(cache) }
    }
}
