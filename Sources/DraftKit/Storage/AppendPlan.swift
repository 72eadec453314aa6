import Glibc

/// What one append writes: the last segment filled up, then new ones; the journal's records;
/// the full segments it moves past, for the count cache.
struct AppendPlan {
    /// One segment the append adds to.
    struct Part {
        var number: Int
        var held: Int
        var added: ArraySlice<Message>
    }

    /// The segments to add to, in order.
    var parts: [Part] = []
    /// One record per message, in order (empty when the append is not announced).
    var records: [JournalRecord] = []
    /// Segments that were full before the append moved past them, with their counts.
    var movedPast: [(index: Int, count: Int)] = []

    /// Plans appending `new` after `last` (`nil`: the chat has none yet).
    init(
        _ new: [Message], to chat: ChatID, last: (number: Int, count: Int)?, capacity: Int, announce: Bool,
        path: String
    ) throws(FileError) {
        var number = last?.number ?? 0
        var held = last?.count ?? 0
        var rest = new[...]
        while !rest.isEmpty {
            if held >= capacity {
                guard number < SegmentIndex.maximum else { throw FileError("write", path: path, code: EFBIG) }
                movedPast.append((number, held))
                number += 1
                held = 0
            }
            let added = rest.prefix(capacity - held)
            if announce {
                for (offset, message) in added.enumerated() {
                    records.append(
                        JournalRecord(
                            chat: chat, segment: number, position: held + offset, messageID: message.messageID)
                    )
                }
            }
            parts.append(Part(number: number, held: held, added: added))
            held += added.count
            rest = rest.dropFirst(added.count)
        }
    }
}
