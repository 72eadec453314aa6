import Glibc

/// What one append writes: the chat's last segment filled up, then whole new ones; the
/// journal's records for the messages; and the full segments it moves past, for the count
/// cache.
struct AppendPlan {
    /// The segments to write, in order, each with all its messages.
    var segments: [(number: Int, messages: [Message])] = []
    /// One record per message, in order (empty when the append is not announced).
    var records: [JournalRecord] = []
    /// Segments that were full before the append moved past them, with their counts.
    var movedPast: [(index: Int, count: Int)] = []

    /// Plans appending `new` to a chat whose last segment is `last` holding `messages`
    /// (`nil`: the chat has none yet), `capacity` messages a segment.
    init(
        _ new: [Message], to chat: ChatID, last: (number: Int, messages: [Message])?, capacity: Int,
        announce: Bool, path: String
    ) throws(FileError) {
        var number = last?.number ?? 0
        var segment = last?.messages ?? []
        var rest = new[...]
        while !rest.isEmpty {
            if segment.count >= capacity {
                guard number < SegmentIndex.maximum else { throw FileError("write", path: path, code: EFBIG) }
                movedPast.append((number, segment.count))
                number += 1
                segment = []
            }
            let room = capacity - segment.count
            if announce {
                for (offset, message) in rest.prefix(room).enumerated() {
                    records.append(
                        JournalRecord(
                            chat: chat, segment: number, position: segment.count + offset, messageID: message.messageID)
                    )
                }
            }
            segment += rest.prefix(room)
            rest = rest.dropFirst(room)
            segments.append((number, segment))
        }
    }
}
