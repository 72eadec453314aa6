/// The data directory's journal, `live/journal`: one line per message appended, written
/// under the lock after the message is stored, never synced (a notification, not data).
/// Past ``rotationSize`` bytes it is renamed `journal.1` and a new one begins.
struct Journal {
    /// The directory the journal lives in (watched for changes).
    let directory: Directory
    /// How large the file grows before it is rotated.
    var rotationSize = 1 << 20

    /// The journal file.
    var file: LogFile { LogFile(directory: directory, name: "journal") }

    /// Appends one line per record, in one write.
    func append(_ records: [JournalRecord]) throws(FileError) {
        guard !records.isEmpty else { return }
        try file.append(Array(records.map(\.line).joined().utf8), rotation: (rotationSize, "journal.1"))
    }
}

/// Follows the journal from where it ended when the reader was made, a bounded slice at a
/// time (memory holds one slice and one unfinished line); past ``backlogLimit`` bytes
/// waiting, it skips to the end and says how much. A read that fails never makes old lines
/// new: it is tried again at the next slice, from the same place.
final class JournalReader {
    let journal: Journal
    private var current: FileDescriptor?
    private var offset = 0
    /// Whether the next journal opened is read from its end (where the journal ended when
    /// the reader was made is not known) rather than from its start (one made since).
    private var startAtEnd = false
    /// Bytes of the line still being written.
    private var partial: [UInt8] = []
    /// Whether the line being read is too long to be a record, and is dropped to its end.
    private var discarding = false
    /// Whole lines read but not yet turned into records.
    private var lines: ArraySlice<ArraySlice<UInt8>> = []
    /// The most bytes of the journal this reader has held at once (for fuzzers and tests).
    private(set) var mostBytesHeld = 0

    /// The most bytes one slice reads.
    var sliceBytes = 16 * 1024
    /// The most records one slice returns.
    var sliceRecords = 64
    /// How far behind the end the reader may fall before it skips to the end.
    var backlogLimit = 4 << 20

    init(journal: Journal) {
        self.journal = journal
        do throws(FileError) {
            guard let opened = try journal.file.openForReading() else { return }
            do throws(FileError) {
                offset = try opened.status().size
                current = opened
            } catch {
                opened.close()
                throw error
            }
        } catch {
            startAtEnd = true
        }
    }

    deinit { current?.close() }

    /// One slice of what was written since the last call.
    struct Slice {
        /// The records read, in order.
        var records: [JournalRecord] = []
        /// Bytes skipped because the reader was too far behind; 0 when none were.
        var skipped = 0
        /// Whether more is waiting to be read.
        var hasMore = false
        /// The read of the open journal that failed this slice (tried again at the next).
        var failure: FileError?
    }

    /// The next records written since the last call, in order: a bounded slice.
    func take() -> Slice {
        var slice = Slice()
        if current == nil {
            // A journal made since: everything in it is new; one that was there when the
            // reader was made but could not be opened then: only what comes after its end.
            // A journal that cannot be opened now is opened at a later slice: what it
            // announced is then read (the commands' own lines say what failed meanwhile).
            guard let opened = (try? journal.file.openForReading()) ?? nil else { return slice }
            if startAtEnd {
                guard let size = try? opened.status().size else {
                    opened.close()
                    return slice
                }
                offset = size
            } else {
                offset = 0
            }
            current = opened
            startAtEnd = false
        }
        if let size = try? current?.status().size, size < offset {
            // Truncated by hand: what is there now is new.
            offset = 0
            partial = []
            lines = []
        }
        slice.skipped = skipIfFarBehind()
        // At most one chunk read a slice (and one move to a rotated journal's successor):
        // lines that are not records cost a slice too.
        var reads = 0
        while slice.records.count < sliceRecords {
            if let line = lines.popFirst() {
                if line.count <= JournalRecord.maximumLineBytes,
                    let record = JournalRecord(line: Substring(String(decoding: line, as: UTF8.self)))
                {
                    slice.records.append(record)
                }
                continue
            }
            guard reads < 2, readChunk(failing: &slice.failure) else { break }
            reads += 1
        }
        slice.hasMore = !lines.isEmpty || backlog() > 0
        return slice
    }

    /// Reads the next chunk into ``lines``, moving to a rotated journal's successor once the
    /// old one is read; `false` when there is nothing more now (or the read failed: `failure`).
    private func readChunk(failing failure: inout FileError?) -> Bool {
        guard let file = current else { return false }
        let chunk: [UInt8]
        do throws(FileError) { chunk = try file.read(at: offset, upTo: sliceBytes) } catch {
            failure = error
            return false
        }
        if chunk.isEmpty {
            // Still the journal, or no telling (a look that failed): nothing more now.
            guard (try? journal.file.isCurrent(file)) == false else { return false }
            // Rotated (or replaced): what was written before the rename was in the old file,
            // now read to its end; the new one is read from its start (when it cannot be
            // opened now, from its start when it can).
            file.close()
            current = (try? journal.file.openForReading()) ?? nil
            offset = 0
            partial = []
            discarding = false
            return current != nil
        }
        offset += chunk.count
        var bytes = chunk[...]
        if discarding {
            // The rest of a line too long to be a record.
            guard let newline = bytes.firstIndex(of: 0x0A) else { return true }
            bytes = bytes[(newline + 1)...]
            discarding = false
        }
        guard let lastNewline = bytes.lastIndex(of: 0x0A) else {
            keepPartial(partial + bytes)
            mostBytesHeld = max(mostBytesHeld, partial.count)
            return true
        }
        let complete = partial + bytes[...lastNewline]
        keepPartial(Array(bytes[(lastNewline + 1)...]))
        lines = ArraySlice(complete.split(separator: 0x0A))
        mostBytesHeld = max(mostBytesHeld, complete.count + partial.count)
        return true
    }

    /// Keeps the start of a line still being written, unless it is too long to be a record.
    private func keepPartial(_ bytes: [UInt8]) {
        if bytes.count > JournalRecord.maximumLineBytes {
            partial = []
            discarding = true
        } else {
            partial = bytes
        }
    }

    /// Bytes written and not yet read, in this file and in the one that replaced it.
    private func backlog() -> Int {
        guard let file = current, let size = try? file.status().size else { return 0 }
        var waiting = max(0, size - offset)
        if (try? journal.file.isCurrent(file)) == false,
            let next = (try? journal.file.directory.status(of: journal.file.name)) ?? nil
        {
            waiting += next.size
        }
        return waiting
    }

    /// Past ``backlogLimit`` waiting, moves to the journal's end; the bytes skipped.
    private func skipIfFarBehind() -> Int {
        let waiting = backlog()
        guard waiting > backlogLimit, let file = current else { return 0 }
        // The end to skip to: the journal's now (the successor's, after a rotation). When it
        // cannot be told, nothing is skipped this time.
        var target = file
        if (try? journal.file.isCurrent(file)) == false, let next = (try? journal.file.openForReading()) ?? nil {
            target = next
        }
        guard let end = try? target.status().size else {
            if target != file { target.close() }
            return 0
        }
        if target != file {
            file.close()
            current = target
        }
        offset = end
        partial = []
        lines = []
        // Mid-line, the rest of that line is not a record.
        discarding = offset > 0 && (try? current?.read(at: offset - 1, upTo: 1)) != [0x0A]
        return waiting
    }
}
