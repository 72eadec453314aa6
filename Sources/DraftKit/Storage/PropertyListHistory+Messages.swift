/// Reading a chat's messages: the last few, all of them, how many. A call that fails on
/// the way is the chat's error (``StoreError/chat(_:_:)``), never fewer messages.
extension PropertyListHistory {
    public func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> Reading<[Message]> {
        guard limit > 0, let folder = try chatDirectory(chat) else { return Reading([]) }
        var result: [Message] = []
        var warnings: [StoreWarning] = []
        var earlier = SegmentIndex.Earlier(index: segments.index, chat: chat, directory: folder)
        try Self.readable(chat) { () throws(FileError) in
            guard var number = try earlier.lastSegment() else { return }
            while result.count < limit {
                let messages =
                    try segments.read(
                        chat, in: folder, number, repair: true, last: limit - result.count, warnings: &warnings) ?? []
                result.insert(contentsOf: messages.suffix(limit - result.count), at: 0)
                guard let previous = try earlier.segment(before: number) else { break }
                number = previous
            }
        }
        segments.removeEmpty(passedBy: &earlier)
        return Reading(result, warnings: warnings)
    }

    /// Every message of a chat, oldest first: each segment there is read once, in order.
    public func allMessages(in chat: ChatID) throws(StoreError) -> Reading<[Message]> {
        guard let folder = try chatDirectory(chat) else { return Reading([]) }
        var result: [Message] = []
        var warnings: [StoreWarning] = []
        try Self.readable(chat) { () throws(FileError) in
            for number in try segments.index.segments(in: folder) {
                result += try segments.read(chat, in: folder, number, repair: true, warnings: &warnings) ?? []
            }
        }
        return Reading(result, warnings: warnings)
    }

    public func messageCount(in chat: ChatID) throws(StoreError) -> Reading<Int> {
        guard let folder = try chatDirectory(chat) else { return Reading(0) }
        var warnings: [StoreWarning] = []
        let count = try Self.readable(chat) { () throws(FileError) -> Int in
            guard let last = try segments.index.lastSegment(of: chat, in: folder) else { return 0 }
            return try segments.lock.withLock { () throws(FileError) in
                let file = segments.countFile(in: folder)
                var cache = file.read()
                if cache.segments > last { cache = (0, 0) }
                let known = cache.segments
                // Segments the cache does not cover are counted as they are now (a damaged one
                // is repaired first, and counts as empty); a gap counts as nothing, and costs
                // nothing: beyond the next number, the directory is listed once.
                let uncovered =
                    last - cache.segments <= 1
                    ? Array(cache.segments..<last)
                    : try segments.index.segments(in: folder).filter { (known..<last).contains($0) }
                for number in uncovered {
                    cache.messages +=
                        try segments.read(chat, in: folder, number, repair: true, warnings: &warnings)?.count ?? 0
                }
                cache.segments = max(cache.segments, last)
                if cache.segments > known && readOnly == nil { file.write(cache) }
                return cache.messages
                    + (try segments.read(chat, in: folder, last, repair: true, warnings: &warnings)?.count ?? 0)
            }
        }
        return Reading(count, warnings: warnings)
    }
}
