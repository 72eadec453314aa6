/// The data directory's journal, `live/journal`: one line per message appended, in the
/// order of the appends, so that every process on the directory learns what the others
/// sent without reading any chat it was not told of.
///
/// Writers append under the history's lock, after the message is stored: a reader that
/// sees a line finds the message. Past ``rotationSize`` bytes the file is renamed
/// `journal.1` (replacing an older one) and a new one begins; a reader that follows the
/// old file reads it to its end before it moves on. The journal is a notification and is
/// never synced: losing it in a crash loses no message, only the live display of one.
struct Journal {
    /// The directory the journal lives in (watched for changes).
    let directory: String
    /// How large the file grows before it is rotated.
    var rotationSize = 1 << 20

    var path: String { directory + "/journal" }
    var rotatedPath: String { directory + "/journal.1" }

    /// Appends one line per record, in one write.
    func append(_ records: [JournalRecord]) throws(FileError) {
        guard !records.isEmpty else { return }
        try FileSystem.appendToLog(
            path, Array(records.map(\.line).joined().utf8), rotation: (rotationSize, rotatedPath))
    }
}

/// Follows the journal from where it ended when the reader was made.
final class JournalReader {
    let journal: Journal
    private var descriptor: Int32?
    private var offset = 0
    private var partial: [UInt8] = []

    init(journal: Journal) {
        self.journal = journal
        descriptor = FileSystem.openLog(journal.path)
        if let descriptor { offset = FileSystem.size(of: descriptor) }
    }

    deinit { if let descriptor { FileSystem.closeLog(descriptor) } }

    /// The records written since the last call, in order.
    func take() -> [JournalRecord] {
        var bytes: [UInt8] = []
        if descriptor == nil {
            // A journal made since: everything in it is new.
            descriptor = FileSystem.openLog(journal.path)
            offset = 0
        }
        guard let current = descriptor else { return [] }
        if FileSystem.size(of: current) < offset { offset = 0 }  // truncated by hand
        bytes += readToEnd(current)
        if !FileSystem.isSameFile(current, journal.path) {
            // Rotated: what was written before the rename is in the old file.
            bytes += readToEnd(current)
            FileSystem.closeLog(current)
            descriptor = FileSystem.openLog(journal.path)
            offset = 0
            if let next = descriptor { bytes += readToEnd(next) }
        }
        return records(in: bytes)
    }

    private func readToEnd(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = FileSystem.read(fd, from: offset, limit: 1 << 20)
            if chunk.isEmpty { return result }
            offset += chunk.count
            result += chunk
        }
    }

    /// Whole lines become records; a line still being written waits for its end.
    private func records(in bytes: [UInt8]) -> [JournalRecord] {
        partial += bytes
        guard let lastNewline = partial.lastIndex(of: 0x0A) else {
            if partial.count > JournalRecord.maximumLineBytes { partial = [] }
            return []
        }
        let complete = partial[...lastNewline]
        partial = Array(partial[(lastNewline + 1)...])
        return complete.split(separator: 0x0A).compactMap { line in
            guard line.count <= JournalRecord.maximumLineBytes else { return nil }
            return JournalRecord(line: Substring(String(decoding: line, as: UTF8.self)))
        }
    }
}
