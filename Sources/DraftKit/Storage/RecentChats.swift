import Foundation

/// The file `recent`, the chat list's index: one line per append, `<c|t> TAB <chat> TAB
/// <sentAt in ms>`, read backwards until the chats shown are found; compacted to one line a
/// chat when grown fourfold (and past 256 KiB). A cache: never synced, rebuilt when missing.
final class RecentChats {
    /// The file, in the data directory.
    let log: LogFile
    /// Where rewrites are made before they are renamed into place.
    let temporary: Directory
    /// The size below which the file is never compacted.
    var compactionFloor = 256 * 1024
    /// The file's size at its last compaction, once read from `recent.size`.
    private var compactedSize: Int?
    /// How many bytes the last ``newest(_:where:)`` looked at.
    private(set) var bytesScanned = 0

    init(directory: Directory, temporary: Directory) {
        log = LogFile(directory: directory, name: "recent")
        self.temporary = temporary
    }

    /// The longest line an entry can be: a longer one is not carried from block to block.
    static let maximumLineBytes = 256

    /// One chat's last change.
    struct Entry: Equatable {
        var chat: ChatID
        var milliseconds: Int64

        var line: String { "\(chat.kind.code)\t\(chat.rawValue)\t\(milliseconds)\n" }

        init(chat: ChatID, milliseconds: Int64) {
            self.chat = chat
            self.milliseconds = milliseconds
        }

        init(chat: ChatID, date: Date) {
            let seconds = date.timeIntervalSince1970
            let clamped = seconds.isFinite ? min(max(seconds, -9e12), 9e12) : 0
            self.init(chat: chat, milliseconds: Int64((clamped * 1000).rounded(.down)))
        }

        init?(line: Substring) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let milliseconds = Int64(fields[2]), let kind = ChatID.Kind(code: fields[0]),
                let chat = ChatID(String(fields[1]), kind: kind)
            else { return nil }
            self.init(chat: chat, milliseconds: milliseconds)
        }

        var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    }

    /// Whether the file is there (a failed look is an error).
    func exists() throws(FileError) -> Bool { try log.directory.exists(log.name) }

    /// Notes that these chats just changed (the caller holds the lock).
    func note(_ entries: [Entry]) throws(FileError) {
        guard !entries.isEmpty else { return }
        let size = try log.append(Array(entries.map(\.line).joined().utf8))
        guard size >= compactionFloor else { return }
        if compactedSize == nil {
            let text = (try? log.directory.read(sizeName, limit: 32)).map { String(decoding: $0, as: UTF8.self) }
            compactedSize = text.flatMap { Int($0) } ?? 0
        }
        if size >= 4 * (compactedSize ?? 0) { try compact() }
    }

    /// Rewrites the file with each chat's newest line only, in the same order.
    private func compact() throws(FileError) {
        var seen: Set<ChatID> = []
        var kept: [Entry] = []
        for entry in try all().reversed() where seen.insert(entry.chat).inserted { kept.append(entry) }
        try rebuild(kept.reversed())
    }

    /// Replaces the file with these entries, oldest first (the caller holds the lock).
    func rebuild(_ entries: [Entry]) throws(FileError) {
        let data = Data(entries.map(\.line).joined().utf8)
        _ = try log.directory.replace(log.name, with: data, temporary: temporary, durable: false)
        _ = try log.directory.replace(
            sizeName, with: Data(String(data.count).utf8), temporary: temporary, durable: false)
        compactedSize = data.count
    }

    /// Where the size of the file at its last compaction is kept, in decimal.
    private var sizeName: String { log.name + ".size" }

    /// Every entry, oldest first (lines that are not entries are skipped).
    func all() throws(FileError) -> [Entry] {
        guard let data = try log.directory.read(log.name, limit: 1 << 30) else { return [] }
        return data.split(separator: 0x0A).compactMap { line in
            line.count <= Self.maximumLineBytes ? Entry(line: Substring(String(decoding: line, as: UTF8.self))) : nil
        }
    }

    /// The chats that changed last, newest first, each once, up to `limit` of those `include`
    /// accepts, read backwards a block at a time; `nil` without a file. Each byte is scanned
    /// once: a line longer than any entry (a torn tail) is dropped, never carried.
    func newest(_ limit: Int, where include: (ChatID) throws(FileError) -> Bool) throws(FileError) -> [Entry]? {
        bytesScanned = 0
        guard let file = try log.openForReading() else { return nil }
        defer { file.close() }
        var end = try file.status().size
        // The start of a line cut by a block's first byte, read with the block before it;
        // and whether the line that block ends with is too long to be an entry.
        var carry: [UInt8] = []
        var tailTooLong = false
        var seen: Set<ChatID> = []
        var found: [Entry] = []
        let block = 16 * 1024
        while end > 0 && found.count < limit {
            let start = max(0, end - block)
            var bytes = try file.read(at: start, upTo: end - start)
            end = start
            if tailTooLong {
                guard let last = bytes.lastIndex(of: 0x0A) else { continue }
                bytes.removeSubrange((last + 1)...)
                tailTooLong = false
            }
            bytes += carry
            bytesScanned += bytes.count
            carry = []
            if start > 0 {
                let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
                if newline <= Self.maximumLineBytes {
                    carry = Array(bytes[..<newline])
                } else {
                    tailTooLong = true
                }
                guard newline < bytes.endIndex else { continue }
                bytes.removeSubrange(...newline)
            }
            for line in bytes.split(separator: 0x0A).reversed() where line.count <= Self.maximumLineBytes {
                guard let entry = Entry(line: Substring(String(decoding: line, as: UTF8.self))),
                    try include(entry.chat), seen.insert(entry.chat).inserted
                else { continue }
                found.append(entry)
                if found.count == limit { break }
            }
        }
        return found
    }
}
