/// ``PropertyListHistory``'s feed: the journal, followed a bounded slice at a time, and
/// the messages its records point at, read from their segments.
final class PropertyListFeed: HistoryFeed {
    private let history: PropertyListHistory
    private let reader: JournalReader
    private let watch: DirectoryWatch?
    private var segments = RecordLookup()
    /// Whether a skip was said already: a flood is one warning, not one a slice.
    private var warnedOfSkip = false
    /// Whether the journal's failed read was said: once, until a read works again.
    private var warnedOfFailure = false
    /// The places and IDs of the messages announced lately, so that a repeated record
    /// announces nothing more.
    private var announced: Set<ExactText> = []

    init(history: PropertyListHistory, notifications: Bool) {
        self.history = history
        // The watch first: a line written between the two is then both counted by the
        // reader's start and announced by the watch, never missed.
        watch = notifications ? DirectoryWatch(directory: history.directories.live) : nil
        reader = JournalReader(journal: history.journal)
    }

    var descriptor: Int32 { watch?.descriptor ?? -1 }

    func take() -> FeedSlice {
        // Events are dropped before reading: a line written after this is announced again.
        watch?.drain()
        let read = reader.take()
        var slice = FeedSlice(hasMore: read.hasMore)
        for record in read.records {
            do throws(FileError) {
                guard let message = try segments.message(at: record, in: history) else { continue }
                // A record repeated (the same message where it was) announces it once.
                let place = "\(record.chat.kind.code)/\(record.chat.rawValue)/\(record.segment)/\(record.position)"
                if announced.count >= RecordLookup.remembered * 16 { announced.removeAll(keepingCapacity: true) }
                guard announced.insert(ExactText(place + "/" + message.messageID)).inserted else { continue }
                slice.arrivals.append(Arrival(chat: record.chat, message: message))
            } catch {
                // Stored, and shown when the chat is opened; said, never passed over in silence.
                slice.warnings.append(.arrivalUnreadable(record.chat, error))
            }
        }
        if let failure = read.failure {
            if !warnedOfFailure { slice.warnings.append(.journalUnreadable(failure)) }
            warnedOfFailure = true
        } else {
            warnedOfFailure = false
        }
        if read.skipped > 0 && !warnedOfSkip {
            warnedOfSkip = true
            slice.warnings.append(.journalSkipped(bytes: read.skipped))
        }
        history.journalBytesHeld = max(history.journalBytesHeld, reader.mostBytesHeld)
        return slice
    }
}

/// The messages journal records point at, each read where it lies in its segment (a record
/// costs its one message, however big the segment), the segment read whole only when its
/// bytes are not whole; a record past the end, or repeated, costs an `fstatat` while the
/// segment stays the same file.
struct RecordLookup {
    /// A segment file as it was when read (an inode can be used again: size and times count)
    /// and how many messages it held.
    private struct Seen {
        var status: FileStatus
        var count: Int
    }

    /// The counts of the segments read lately, by chat and number.
    private var seen: [String: Seen] = [:]
    /// The messages of the last segment read whole.
    private var last: (key: String, messages: [Message])?

    /// How many segments' counts are remembered.
    static let remembered = 256

    /// The message a record points at, when it is still there. A call that fails throws.
    mutating func message(at record: JournalRecord, in history: PropertyListHistory) throws(FileError) -> Message? {
        guard
            let folder = try FileError.nilUnlessTransient({ () throws(FileError) in
                try history.directories.directory(of: record.chat)
            })
        else { return nil }
        let name = SegmentIndex.name(record.segment)
        guard let status = try folder.status(of: name), status.isRegularFile else { return nil }
        let key = "\(record.chat.kind.code)/\(record.chat.rawValue)/\(record.segment)"
        let known = seen[key]?.status == status
        if known, let count = seen[key]?.count, record.position >= count { return nil }
        let message: Message
        if known, let last, last.key == key, record.position < last.messages.count {
            message = last.messages[record.position]
        } else {
            if seen.count >= Self.remembered { seen.removeAll(keepingCapacity: true) }
            switch try Self.one(name, in: folder, at: record.position) {
            case .missing:
                return nil
            case .read(let read, let count, let found):
                // The one message read, the others not: a record costs what its message costs.
                seen[key] = Seen(status: read, count: count)
                guard let found else { return nil }
                message = found
            case .notWhole:
                guard let data = try SegmentStore.bytes(name, in: folder) else { return nil }
                // Bytes that are no segment may be another process's append half written (a
                // reader sees a write a page at a time): what was whole before it holds the
                // record's message, its line being written after its append.
                // Bytes that neither parse nor recover are said, naming the file: never a
                // silent drop (opening the chat repairs it).
                guard let read = SegmentCodec.decode(data) ?? SegmentLayout.recovered(from: [UInt8](data))?.messages
                else { throw FileError("read", path: folder.path(of: name), refusal: .doesNotParse) }
                last = (key, read)
                seen[key] = Seen(status: status, count: read.count)
                guard record.position < read.count else { return nil }
                message = read[record.position]
            }
        }
        guard record.messageID == "-" || message.messageID.utf8.elementsEqual(record.messageID.utf8) else { return nil }
        return message
    }

    /// What reading one message of a segment by its offset table's entry found.
    private enum OneRead {
        /// No such segment, or no regular file of a size a whole read takes.
        case missing
        /// The file's status, how many messages it holds, and the one asked (`nil` past the end).
        case read(FileStatus, count: Int, Message?)
        /// Bytes not a whole segment (an append half written) or Foundation's to read.
        case notWhole
    }

    /// The message at `position` of segment `name`, read where it lies (``BinaryChatLog/message(size:at:reading:)``).
    private static func one(_ name: String, in folder: Directory, at position: Int) throws(FileError) -> OneRead {
        guard
            let file = try FileError.nilUnlessTransient({ () throws(FileError) in
                try folder.open(name, access: .read)
            })
        else { return .missing }
        return try file.closeAfter { file throws(FileError) -> OneRead in
            let status = try file.status()
            guard status.size <= Directory.defaultReadLimit else { return .missing }
            guard
                let one = try BinaryChatLog.message(
                    size: status.size, at: position,
                    reading: { offset, count throws(FileError) in try file.read(at: offset, upTo: count) })
            else { return .notWhole }
            return .read(status, count: one.count, one.message)
        }
    }
}
