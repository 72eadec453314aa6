import Foundation

/// The file `recent`: which chats changed last, so that the chat list reads only the
/// chats it shows, however many there are.
///
/// One line per append, `<c|t> TAB <chat> TAB <sentAt in ms>`, written under the
/// history's lock after the message is stored. The newest line of a chat says when it
/// last changed; a reader walks the file backwards from its end and stops as soon as it
/// has as many chats as it shows. When the file has grown to four times what it held at
/// its last compaction (and at least 256 KiB), an append rewrites it with one line per
/// chat, in the same order. The file is a cache: it is never synced, and a missing one
/// is rebuilt from the chats' own files when the history is opened.
final class RecentChats {
    let path: String
    let temporaryDirectory: String
    /// The size below which the file is never compacted.
    var compactionFloor = 256 * 1024
    /// The file's size at its last compaction, once read from `recent.size` (another
    /// process's compaction since only moves the next one a little).
    private var compactedSize: Int?

    init(path: String, temporaryDirectory: String) {
        self.path = path
        self.temporaryDirectory = temporaryDirectory
    }

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

    var exists: Bool { FileSystem.exists(path) }

    /// Notes that these chats just changed (the caller holds the lock).
    func note(_ entries: [Entry]) throws(FileError) {
        guard !entries.isEmpty else { return }
        let size = try FileSystem.appendToLog(path, Array(entries.map(\.line).joined().utf8))
        guard size >= compactionFloor else { return }
        if compactedSize == nil { compactedSize = Self.readSize(sizePath) }
        if size >= 4 * (compactedSize ?? 0) { try compact() }
    }

    /// Replaces the file with these entries, oldest first (the caller holds the lock).
    func rebuild(_ entries: [Entry]) throws(FileError) {
        try write(entries)
    }

    /// Rewrites the file with each chat's newest line only, in the same order.
    private func compact() throws(FileError) {
        var seen: Set<ChatID> = []
        var kept: [Entry] = []
        for entry in try all().reversed() where seen.insert(entry.chat).inserted { kept.append(entry) }
        try write(kept.reversed())
    }

    private func write(_ entries: [Entry]) throws(FileError) {
        let data = Data(entries.map(\.line).joined().utf8)
        try FileSystem.replace(path, with: data, temporaryDirectory: temporaryDirectory, durable: false)
        try FileSystem.replace(
            sizePath, with: Data(String(data.count).utf8), temporaryDirectory: temporaryDirectory, durable: false)
        compactedSize = data.count
    }

    /// Where the size of the file at its last compaction is kept, in decimal.
    private var sizePath: String { path + ".size" }

    private static func readSize(_ path: String) -> Int {
        guard let data = try? FileSystem.read(path, limit: 32) else { return 0 }
        return Int(String(decoding: data, as: UTF8.self)) ?? 0
    }

    /// Every line, oldest first.
    func all() throws(FileError) -> [Entry] {
        guard let data = try FileSystem.read(path, limit: 1 << 30) else { return [] }
        return data.split(separator: 0x0A).compactMap { Entry(line: Substring(String(decoding: $0, as: UTF8.self))) }
    }

    /// The chats that changed last, newest first, each once, as many as `limit` of those
    /// `include` accepts: the file is read backwards, a block at a time, until they are
    /// found. `nil` when there is no file to read.
    func newest(_ limit: Int, where include: (ChatID) -> Bool) -> [Entry]? {
        guard let fd = FileSystem.openLog(path) else { return nil }
        defer { FileSystem.closeLog(fd) }
        var end = FileSystem.size(of: fd)
        var carry: [UInt8] = []
        var seen: Set<ChatID> = []
        var found: [Entry] = []
        let block = 16 * 1024
        while end > 0 && found.count < limit {
            let start = max(0, end - block)
            var bytes = FileSystem.read(fd, from: start, limit: end - start) + carry
            end = start
            carry = []
            // The first line of a block may be cut: it waits for the block before it.
            if start > 0 {
                guard let newline = bytes.firstIndex(of: 0x0A) else {
                    carry = bytes
                    continue
                }
                carry = Array(bytes[..<newline])
                bytes = Array(bytes[(newline + 1)...])
            }
            for line in bytes.split(separator: 0x0A).reversed() {
                guard let entry = Entry(line: Substring(String(decoding: line, as: UTF8.self))),
                    include(entry.chat), seen.insert(entry.chat).inserted
                else { continue }
                found.append(entry)
                if found.count == limit { break }
            }
        }
        return found
    }
}
