import Foundation

/// Appending: a send extends the chat's last segment in place; new segments are written
/// whole, atomically.
extension PropertyListHistory {
    /// Appends many messages to a chat at once: the last segment extended in place
    /// (``SegmentTail``), or written anew when it cannot be, then whole new segments. With
    /// `durable` off nothing is synced and segments fill to ``bulkSegmentCapacity``.
    /// Returns what failed once the messages were stored (storing them again would store
    /// them twice). When it throws, the last segment is as it was read, and the new segments
    /// are in place up to the one that failed (an import counts what it stored chat by chat).
    @discardableResult
    public func appendAll(
        _ new: [Message], to chat: ChatID, durable: Bool = true, announce: Bool = true
    ) throws(StoreError) -> [StoreWarning] {
        guard let newest = new.last else { return [] }
        try checkWritable()
        var warnings: [StoreWarning] = []
        timings.appends += 1
        try Self.available { () throws(FileError) in
            try segments.lock.withLock { () throws(FileError) in
                let folder = try timings.measure(\.directories) { () throws(FileError) in
                    try directories.makeDirectory(of: chat, durable: durable)
                }
                let lastNumber = try segments.index.lastSegment(of: chat, in: folder)
                var tail = lastNumber.flatMap { SegmentTail($0, in: folder, timings: &timings) }
                // A last segment that cannot be extended in place is read whole (a damaged one
                // is moved aside and counts as empty) and written anew with the new messages.
                var held: [Message]?
                func readWhole(_ number: Int) throws(FileError) -> [Message] {
                    var ignored: [StoreWarning] = []
                    defer { warnings += ignored }
                    return try timings.measure(\.decode) { () throws(FileError) in
                        try segments.read(chat, in: folder, number, repair: false, warnings: &ignored) ?? []
                    }
                }
                if tail == nil, let lastNumber { held = try readWhole(lastNumber) }
                let last = tail.map { ($0.number, $0.layout.count) } ?? lastNumber.map { ($0, held?.count ?? 0) }
                let plan = try AppendPlan(
                    new, to: chat, last: last,
                    capacity: durable ? segmentCapacity : max(segmentCapacity, bulkSegmentCapacity),
                    announce: announce, path: folder.path)
                // The count cache learns of the full segments this append moved past, once, at
                // the end, as far as they are on disk (a failed write stops it there).
                var onDisk = lastNumber ?? -1
                defer { segments.countFile(in: folder).add(plan.movedPast.filter { $0.index <= onDisk }) }
                var whole: [(number: Int, messages: ArraySlice<Message>, rewrites: Bool)] = []
                for part in plan.parts {
                    if let extended = tail, part.number == extended.number {
                        tail = nil
                        switch try extended.append(Array(part.added), durable: durable, timings: &timings) {
                        case .done(let unconfirmed):
                            if let unconfirmed { warnings.append(.notConfirmed(unconfirmed)) }
                            continue
                        case .tooNarrow:
                            held = try readWhole(part.number)
                        }
                    }
                    whole.append((part.number, part.held > 0 ? (held ?? []) + part.added : part.added, part.held > 0))
                }
                let encoded = timings.measure(\.encode) { SegmentCodec.encode(whole.map(\.messages)) }
                for (segment, data) in zip(whole, encoded) {
                    // A segment written anew over messages stored before is synced before its
                    // rename even in a bulk load: a power cut must not leave the new name
                    // over data that never reached the disk, where the old messages were.
                    if let unconfirmed = try segments.replace(
                        segment.number, in: folder, with: data, durable: durable || segment.rewrites,
                        timings: &timings)
                    {
                        warnings.append(.notConfirmed(unconfirmed))
                    }
                    onDisk = segment.number
                }
                onDisk = plan.parts.last?.number ?? onDisk
                segments.index.noteLastSegment(
                    chat, plan.parts.last?.number ?? 0, in: folder, temporary: directories.temporary, linkFirst: durable
                )
                // The messages are stored: a journal that cannot be written costs the other
                // processes the live display of them; an index line, the chat's place in the
                // list until it works again. Each is said once.
                timings.measure(\.announce) {
                    warnings += noteOnce(&journalFailing, { () throws(FileError) in try journal.append(plan.records) })
                    {
                        .liveDeliveryStopped($0)
                    }
                    warnings += noteOnce(
                        &indexFailing,
                        { () throws(FileError) in
                            try recent.note([RecentChats.Entry(chat: chat, date: newest.sentAt)])
                        }
                    ) { .chatListStale($0) }
                }
            }
        }
        return warnings
    }

    /// Runs `body`; on its first failure in a row, the warning `warn` makes of the failure.
    func noteOnce(
        _ failing: inout Bool, _ body: () throws(FileError) -> Void, warn: (FileError) -> StoreWarning
    ) -> [StoreWarning] {
        do throws(FileError) {
            try body()
            failing = false
            return []
        } catch {
            defer { failing = true }
            return failing ? [] : [warn(error)]
        }
    }
}
