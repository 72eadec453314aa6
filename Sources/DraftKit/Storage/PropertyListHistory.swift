import Foundation
import Glibc

/// Chat history in property-list files under a data directory.
///
/// ## Layout
///
/// ```
/// <data>/lock                      lock file: every writer takes flock(LOCK_EX) on it
/// <data>/tmp/                      temporary files, renamed into place when complete
/// <data>/chats/<chatID>/00000000.plist
/// <data>/chats/<chatID>/00000001.plist  ...
/// <data>/chats/<chatID>/last       symbolic link to the last segment: a hint
/// ```
///
/// Each chat is a directory of numbered *segments*. A segment is a binary property list
/// holding an array of at most ``segmentCapacity`` message dictionaries, in order; the
/// last segment is the only one that changes. Any property-list reader (Python's
/// `plistlib` included) reads each file.
///
/// Why: the chat-log design this follows keeps one growing array per chat and rewrites
/// it on every send, so sending and opening cost more the longer the history. Here a
/// send reads and rewrites one small segment, and opening a chat reads only its last one
/// or two segments, whatever the size of the history; start-up reads none of it. The
/// last segment is found through the `last` link, checked with two `stat` calls (it is
/// replaced only when a new segment starts, so a crash can leave it stale); when it is
/// missing or stale, by probing file names, never by listing the directory.
///
/// ## Safety
///
/// A send takes the lock, re-reads the last segment, writes the new segment to `tmp/`,
/// syncs it, renames it into place and syncs the chat directory: only then does it
/// return. A kill at any moment leaves the old segment or the new one. Files are 0600
/// and directories 0700, whatever the umask. A segment that does not parse is moved
/// aside unchanged (`<name>.corrupt-<UTC time>`), an empty one takes its place, and a
/// warning says so.
public final class PropertyListHistory: HistoryStore {
    /// The data directory.
    public let directory: String

    /// The most messages one segment holds.
    public let segmentCapacity: Int

    private let chatsDirectory: String
    private let temporaryDirectory: String
    private let lock: FileLock
    private var warnings: [String] = []
    private var lastSegmentHint: [ChatID: Int] = [:]

    /// Makes chosen writes fail, as a full disk would; for tests only.
    var faults: FileSystem.FaultInjector?

    /// The default capacity of a segment.
    public static let defaultSegmentCapacity = 16

    /// Opens (creating when missing) the history in a data directory.
    ///
    /// Makes the directories with mode 0700, then, under the lock, removes temporary
    /// files left by a process that was killed mid-write. Reads no history.
    public init(directory: String, segmentCapacity: Int = defaultSegmentCapacity) throws(StorageError) {
        self.directory = directory
        self.segmentCapacity = max(1, segmentCapacity)
        chatsDirectory = directory + "/chats"
        temporaryDirectory = directory + "/tmp"
        try FileSystem.makeDirectories(directory)
        try FileSystem.setMode(directory, 0o700)
        for path in [chatsDirectory, temporaryDirectory] where try FileSystem.makeDirectory(path) {
            try FileSystem.syncDirectory(directory)
        }
        lock = try FileLock(path: directory + "/lock")
        try lock.withLock { () throws(StorageError) in
            for name in try FileSystem.names(in: temporaryDirectory) {
                try FileSystem.remove(temporaryDirectory + "/" + name)
            }
        }
    }

    public func append(_ message: Message, to chat: ChatID) throws(StorageError) {
        try appendAll([message], to: chat)
    }

    /// Appends many messages to a chat at once, filling its last segment and then whole
    /// new ones: for importing and for filling a data directory to test with.
    ///
    /// With `durable` off the files are not synced one by one; call `sync()` after.
    public func appendAll(_ new: [Message], to chat: ChatID, durable: Bool = true) throws(StorageError) {
        guard !new.isEmpty else { return }
        try lock.withLock { () throws(StorageError) in
            if try FileSystem.makeDirectory(path(of: chat)) { try FileSystem.syncDirectory(chatsDirectory) }
            var index = 0
            var segment: [Message] = []
            if let last = lastSegment(of: chat) {
                index = last
                segment = try readSegment(chat, last, repair: false) ?? []
            }
            var rest = new[...]
            while !rest.isEmpty {
                if segment.count >= segmentCapacity {
                    index += 1
                    segment = []
                }
                let room = segmentCapacity - segment.count
                segment += rest.prefix(room)
                rest = rest.dropFirst(room)
                try writeSegment(chat, index, segment, durable: durable)
            }
            noteLastSegment(chat, index)
        }
    }

    public func recentMessages(in chat: ChatID, limit: Int) throws(StorageError) -> [Message] {
        guard limit > 0, var index = lastSegment(of: chat) else { return [] }
        var result: [Message] = []
        while result.count < limit && index >= 0 {
            let messages = try readSegment(chat, index, repair: true) ?? []
            result.insert(contentsOf: messages.suffix(limit - result.count), at: 0)
            index -= 1
        }
        return result
    }

    public func messageCount(in chat: ChatID) throws(StorageError) -> Int {
        guard let last = lastSegment(of: chat) else { return 0 }
        let tail = try readSegment(chat, last, repair: true) ?? []
        return last * segmentCapacity + tail.count
    }

    /// Lists `chats/` and reads each chat's last segment: a cost in the number of chats,
    /// paid only when the chat list is asked for.
    public func chats() throws(StorageError) -> [ChatSummary] {
        var result: [ChatSummary] = []
        for name in try FileSystem.names(in: chatsDirectory) {
            guard let chat = ChatID(name), let last = lastSegment(of: chat) else { continue }
            let path = segmentPath(chat, last)
            var lastMessage = try readSegment(chat, last, repair: true)?.last
            if lastMessage == nil, last > 0 { lastMessage = try readSegment(chat, last - 1, repair: true)?.last }
            let modified = FileSystem.modificationTime(path) ?? 0
            result.append(
                ChatSummary(chatID: chat, lastMessage: lastMessage, lastActivity: Date(timeIntervalSince1970: modified))
            )
        }
        return result
    }

    public func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    // MARK: - Segments

    func path(of chat: ChatID) -> String { chatsDirectory + "/" + chat.rawValue }

    func segmentPath(_ chat: ChatID, _ index: Int) -> String {
        let digits = String(index)
        return path(of: chat) + "/" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".plist"
    }

    /// The index of a chat's last segment, or `nil` when it has none.
    ///
    /// Segments are numbered from 0 without gaps, so a hint is right when its segment
    /// exists and the next does not. The hints tried: the index this object remembers,
    /// then the `last` link; else a doubling search and a binary search over `stat` calls.
    func lastSegment(of chat: ChatID) -> Int? {
        func exists(_ index: Int) -> Bool { FileSystem.exists(segmentPath(chat, index)) }
        if let hint = lastSegmentHint[chat], exists(hint), !exists(hint + 1) { return hint }
        if let link = FileSystem.linkTarget(path(of: chat) + "/last"), link.hasSuffix(".plist"),
            let hint = Int(link.dropLast(6)), exists(hint), !exists(hint + 1)
        {
            lastSegmentHint[chat] = hint
            return hint
        }
        guard exists(0) else { return nil }
        var low = 0
        var high = 1
        while exists(high) {
            low = high
            high *= 2
        }
        while high - low > 1 {
            let middle = (low + high) / 2
            if exists(middle) { low = middle } else { high = middle }
        }
        lastSegmentHint[chat] = low
        return low
    }

    /// Remembers a chat's last segment, and moves its `last` link when a new segment
    /// started. A link that cannot be made only costs the next reader a probe.
    private func noteLastSegment(_ chat: ChatID, _ index: Int) {
        let link = path(of: chat) + "/last"
        let target = String(segmentPath(chat, index).split(separator: "/").last!)
        if FileSystem.linkTarget(link) != target {
            try? FileSystem.replaceLink(link, to: target, temporaryDirectory: temporaryDirectory)
        }
        lastSegmentHint[chat] = index
    }

    /// Reads one segment; `nil` when it does not exist. A segment that does not parse is
    /// moved aside unchanged and, when `repair` is set, replaced by an empty one (under the
    /// lock, so that the numbering keeps no gap).
    private func readSegment(_ chat: ChatID, _ index: Int, repair: Bool) throws(StorageError) -> [Message]? {
        let path = segmentPath(chat, index)
        guard let data = try FileSystem.read(path) else { return nil }
        if let messages = try? PropertyListDecoder().decode([Message].self, from: data) { return messages }
        if repair {
            try lock.withLock { () throws(StorageError) in
                // Another process may have repaired or replaced it meanwhile.
                guard let again = try FileSystem.read(path),
                    (try? PropertyListDecoder().decode([Message].self, from: again)) == nil
                else { return }
                try quarantine(path)
                try writeSegment(chat, index, [])
            }
        } else {
            try quarantine(path)
        }
        return []
    }

    private func quarantine(_ path: String) throws(StorageError) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "")
        var aside = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while FileSystem.exists(aside) {
            attempt += 1
            aside = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        try FileSystem.rename(path, to: aside)
        let name = aside.split(separator: "/").suffix(3).joined(separator: "/")
        warnings.append("damaged history file moved aside as \(name); the rest of the history is intact")
    }

    private func writeSegment(
        _ chat: ChatID, _ index: Int, _ messages: [Message], durable: Bool = true
    ) throws(StorageError) {
        let path = segmentPath(chat, index)
        let data: Data
        do {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            data = try encoder.encode(messages)
        } catch {
            throw StorageError("encode", path: path, code: 0, detail: "\(error)")
        }
        try FileSystem.replace(
            path, with: data, temporaryDirectory: temporaryDirectory, durable: durable, faults: faults)
    }
}
