import Foundation
import Glibc

/// Chat history in property-list files under a data directory: the layout and its
/// reasons are in the DocC article "Storage layout".
///
/// Each chat (`chats/<global_key>/`, or `threads/<kind>_<id>/` for a comment thread) is a
/// directory of numbered *segments*: binary property lists, each an array of at most
/// ``segmentCapacity`` message dictionaries, that any property-list reader opens. Only
/// the last segment changes. A send reads and rewrites that one small file; opening a
/// chat reads its last one or two; start-up reads none. The last segment is found
/// through hints checked with two `lstat` calls (``SegmentIndex``), and counts are exact
/// through a cache of full segments (``SegmentCount``).
///
/// A send takes the lock, re-reads the last segment, writes the new one to `tmp/`, syncs
/// it, renames it into place and syncs the directory: only then does it return, and a
/// kill at any moment leaves the old segment or the new one. Files are 0600 and the
/// directories draftline makes 0700, whatever the umask. A segment that does not parse,
/// or is not a regular file, is moved aside unchanged (`<name>.corrupt-<UTC time>`), an
/// empty one takes its place, and a warning says so. An older layout is brought up to
/// date when opened (``LayoutUpgrade``).
public final class PropertyListHistory: HistoryStore {
    /// The data directory.
    public let directory: String

    /// The most messages one segment holds.
    public let segmentCapacity: Int

    public var onWarning: ((StoreWarning) -> Void)?

    /// The layout version this code writes.
    public static var layoutVersion: Int { LayoutUpgrade.version }

    /// The highest segment index read or written: eight digits.
    static var maximumSegmentIndex: Int { SegmentIndex.maximum }

    /// The default capacity of a segment.
    public static let defaultSegmentCapacity = 16

    private let temporaryDirectory: String
    private let lock: FileLock
    private let clock: @Sendable () -> Date
    private let index: SegmentIndex
    /// Where each append is announced to other processes.
    var journal: Journal
    /// Which chats changed last, for the chat list.
    let recent: RecentChats

    /// Makes chosen writes fail, as a full disk would; for tests only.
    var faults: FileSystem.FaultInjector?

    /// Makes every write fail with this `errno` from now on (0 to stop): a full disk
    /// (`ENOSPC`) or a failing device (`EIO`), for tests and demonstrations.
    public func failWrites(with code: Int32) {
        if code == 0 {
            faults = nil
        } else {
            faults = { _, _ in code }
        }
    }

    /// Opens (creating when missing) the history in a data directory.
    ///
    /// Makes the directories with mode 0700, then, under the lock, removes temporary
    /// files left by a process that was killed mid-write and brings an older layout up to
    /// date. Reads no history. `clock` dates the names of files moved aside; `isUser`
    /// tells a user's private chat from a comment thread in a version 1 directory.
    public init(
        directory: String, segmentCapacity: Int = defaultSegmentCapacity,
        clock: @escaping @Sendable () -> Date = { Date() }, isUser: (String) -> Bool = { _ in false }
    ) throws(StoreError) {
        self.directory = directory
        self.segmentCapacity = max(1, segmentCapacity)
        self.clock = clock
        temporaryDirectory = directory + "/tmp"
        index = SegmentIndex(directory: directory)
        journal = Journal(directory: directory + "/live")
        recent = RecentChats(path: directory + "/recent", temporaryDirectory: directory + "/tmp")
        do {
            try FileSystem.makeDirectories(directory)
            for kind in ChatID.Kind.allCases where try FileSystem.makeDirectory(Self.root(of: kind, in: directory)) {
                try FileSystem.syncDirectory(directory)
            }
            if try FileSystem.makeDirectory(temporaryDirectory) { try FileSystem.syncDirectory(directory) }
            if try FileSystem.makeDirectory(journal.directory) { try FileSystem.syncDirectory(directory) }
            lock = try FileLock(path: directory + "/lock")
        } catch {
            throw .unavailable(error.description)
        }
        try available { () throws(FileError) in
            try lock.withLock { () throws(FileError) in
                for name in try FileSystem.names(in: temporaryDirectory) {
                    try FileSystem.remove(temporaryDirectory + "/" + name)
                }
                try LayoutUpgrade(directory: directory, temporaryDirectory: temporaryDirectory).run(isUser: isUser) {
                    [weak self] in self?.onWarning?($0)
                }
                if !recent.exists {
                    // A directory from before the index: one scan of every chat, once.
                    let summaries = (try? chats()) ?? []
                    try recent.rebuild(
                        summaries.sorted { ($0.lastActivity, $0.chatID) < ($1.lastActivity, $1.chatID) }.map {
                            RecentChats.Entry(chat: $0.chatID, date: $0.lastActivity)
                        })
                }
            }
        }
    }

    public func append(_ message: Message, to chat: ChatID) throws(StoreError) {
        try appendAll([message], to: chat)
    }

    /// Appends many messages to a chat at once, filling its last segment and then whole
    /// new ones: for importing and for filling a data directory to test with.
    ///
    /// With `durable` off the files are not synced one by one; with `announce` off the
    /// journal is not told (a bulk load that no running process needs to see arrive).
    public func appendAll(
        _ new: [Message], to chat: ChatID, durable: Bool = true, announce: Bool = true
    ) throws(StoreError) {
        guard !new.isEmpty else { return }
        try available { () throws(FileError) in
            try lock.withLock { () throws(FileError) in
                if try FileSystem.makeDirectory(path(of: chat)), durable {
                    try FileSystem.syncDirectory(Self.root(of: chat.kind, in: directory))
                }
                var index = 0
                var segment: [Message] = []
                // The highest segment known to be whole on disk.
                var onDisk = -1
                if let last = lastSegment(of: chat) {
                    index = last
                    onDisk = last
                    segment = try readSegment(chat, last, repair: false) ?? []
                }
                // The segments this append writes, in order: the last one filled up, then
                // new ones.
                var rest = new[...]
                var records: [JournalRecord] = []
                var plan: [(index: Int, messages: [Message])] = []
                var movedPast: [(index: Int, count: Int)] = []
                while !rest.isEmpty {
                    if segment.count >= segmentCapacity {
                        guard index < Self.maximumSegmentIndex else {
                            throw FileError("write", path: path(of: chat), code: EFBIG)
                        }
                        movedPast.append((index, segment.count))
                        index += 1
                        segment = []
                    }
                    let room = segmentCapacity - segment.count
                    if announce {
                        for (offset, message) in rest.prefix(room).enumerated() {
                            records.append(
                                JournalRecord(
                                    chat: chat, segment: index, position: segment.count + offset,
                                    messageID: message.messageID))
                        }
                    }
                    segment += rest.prefix(room)
                    rest = rest.dropFirst(room)
                    plan.append((index, segment))
                }
                let encoded = try Self.encode(plan.map(\.messages), path: path(of: chat))
                // The count cache learns of the full segments this append moved past, once, at
                // the end, as far as they are on disk (a failed write stops it there).
                defer {
                    SegmentCount(path: path(of: chat) + "/count", temporaryDirectory: temporaryDirectory)
                        .add(movedPast.filter { $0.index <= onDisk })
                }
                for (item, data) in zip(plan, encoded) {
                    try FileSystem.replace(
                        segmentPath(chat, item.index), with: data, temporaryDirectory: temporaryDirectory,
                        durable: durable, faults: faults)
                    onDisk = item.index
                }
                noteLastSegment(chat, index)
                // The messages are stored: a journal that cannot be written only costs
                // the other processes the live display of them; an index line, the chat's
                // place in the list until the next rebuild.
                try? journal.append(records)
                try? recent.note([RecentChats.Entry(chat: chat, date: new.last!.sentAt)])
            }
        }
    }

    /// A feed of what any process appends from now on, read from the journal; woken by
    /// `inotify` on the journal's directory when `notifications` is on and the kernel
    /// allows it, else to be asked every ``HistoryFeedPolling/interval``.
    public func follow(notifications: Bool = true) -> any HistoryFeed {
        PropertyListFeed(history: self, notifications: notifications)
    }

    /// The message a journal record points at, when it is still there (a segment repaired
    /// since, or a chat directory that is not a directory, gives `nil`).
    func message(at record: JournalRecord, cache: inout (path: String, messages: [Message])?) -> Message? {
        guard (try? checkChatDirectory(record.chat)) != nil else { return nil }
        let path = segmentPath(record.chat, record.segment)
        let messages: [Message]
        if let cache, cache.path == path, record.position < cache.messages.count {
            messages = cache.messages
        } else {
            guard let read = (try? Self.decode(path)) ?? nil else { return nil }
            messages = read
            cache = (path, read)
        }
        guard record.position < messages.count else { return nil }
        let message = messages[record.position]
        guard record.messageID == "-" || message.messageID == record.messageID else { return nil }
        return message
    }

    public func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> [Message] {
        try checkChatDirectory(chat)
        guard limit > 0, var index = lastSegment(of: chat) else { return [] }
        var result: [Message] = []
        try readable(chat) { () throws(FileError) in
            while result.count < limit && index >= 0 {
                let messages = try readSegment(chat, index, repair: true) ?? []
                result.insert(contentsOf: messages.suffix(limit - result.count), at: 0)
                index -= 1
            }
        }
        return result
    }

    /// Every chat with a directory, private chats first, each kind in name order; nothing
    /// in them is read.
    public func chatIDs() throws(StoreError) -> [ChatID] {
        var result: [ChatID] = []
        for kind in ChatID.Kind.allCases {
            let names = try available { () throws(FileError) in
                try FileSystem.names(in: Self.root(of: kind, in: directory))
            }
            result += names.sorted().compactMap { ChatID($0, kind: kind) }
        }
        return result
    }

    /// Every message of a chat, oldest first: each segment read once, in order.
    public func allMessages(in chat: ChatID) throws(StoreError) -> [Message] {
        try checkChatDirectory(chat)
        guard let last = lastSegment(of: chat) else { return [] }
        var result: [Message] = []
        try readable(chat) { () throws(FileError) in
            for index in 0...last { result += try readSegment(chat, index, repair: true) ?? [] }
        }
        return result
    }

    /// Flushes what was written without syncing (`sync`).
    public func syncFileSystem() { FileSystem.syncAll() }

    public func messageCount(in chat: ChatID) throws(StoreError) -> Int {
        try checkChatDirectory(chat)
        guard let last = lastSegment(of: chat) else { return 0 }
        return try readable(chat) { () throws(FileError) in
            try lock.withLock { () throws(FileError) in
                let file = SegmentCount(path: path(of: chat) + "/count", temporaryDirectory: temporaryDirectory)
                var cache = file.read()
                if cache.segments > last { cache = (0, 0) }
                let known = cache.segments
                // Segments the cache does not cover are counted as they are now (a damaged one
                // is repaired first, and counts as empty).
                while cache.segments < last {
                    cache.messages += try readSegment(chat, cache.segments, repair: true)?.count ?? 0
                    cache.segments += 1
                }
                if cache.segments > known { file.write(cache) }
                return cache.messages + (try readSegment(chat, last, repair: true)?.count ?? 0)
            }
        }
    }

    /// Lists both chat directories and reads each chat's last segment: a cost in the
    /// number of chats, paid for `/chats all` (and once to build the index). A chat that
    /// cannot be read is listed without its last message, with a warning.
    public func chats() throws(StoreError) -> [ChatSummary] {
        try chatIDs().compactMap(summary(of:))
    }

    /// The chats the index `recent` names last, newest first, each read for its last
    /// message only: as many segments as chats shown. A chat whose directory is gone
    /// since is left out; one that cannot be read is listed with a warning. Without a
    /// usable index, every chat is read and sorted.
    public func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> [ChatSummary] {
        guard let entries = recent.newest(limit, where: { include($0) && FileSystem.exists(path(of: $0)) })
        else {
            let all = try chats().filter { include($0.chatID) }
            return Array(all.sorted { ($1.lastActivity, $0.chatID) < ($0.lastActivity, $1.chatID) }.prefix(limit))
        }
        return entries.compactMap { entry in
            guard var summary = summary(of: entry.chat) else { return nil }
            summary.changed = entry.date
            return summary
        }
    }

    /// A chat's last message; `nil` when it has none. A chat that cannot be read gives a
    /// summary without one, and a warning.
    private func summary(of chat: ChatID) -> ChatSummary? {
        do throws(FileError) {
            try FileSystem.checkPrivateDirectory(path(of: chat), followLink: false)
            guard let last = lastSegment(of: chat) else { return nil }
            // Only the last message is wanted: the others are passed over, not decoded (the
            // chat list's cost is in what it shows).
            if let data = try? FileSystem.read(segmentPath(chat, last)),
                let decoded = try? PropertyListDecoder().decode(LastMessage.self, from: data),
                let message = decoded.message
            {
                return ChatSummary(chatID: chat, lastMessage: message)
            }
            var lastMessage = try readSegment(chat, last, repair: true)?.last
            if lastMessage == nil, last > 0 {
                lastMessage = try readSegment(chat, last - 1, repair: true)?.last
            }
            return ChatSummary(chatID: chat, lastMessage: lastMessage)
        } catch {
            onWarning?(.chatUnreadable(chat, error.reason))
            return ChatSummary(chatID: chat, lastMessage: nil)
        }
    }

    // MARK: - Errors

    /// A chat's directory, when it exists, must be a directory of this user's, not a link
    /// or a file: else the chat is damaged (and nothing in it is read or written).
    private func checkChatDirectory(_ chat: ChatID) throws(StoreError) {
        guard FileSystem.exists(path(of: chat)) else { return }
        do throws(FileError) {
            try FileSystem.checkPrivateDirectory(path(of: chat), followLink: false)
        } catch {
            throw .damagedChat(chat, error.reason)
        }
    }

    private func available<T>(_ body: () throws(FileError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .unavailable(error.description) }
    }

    private func readable<T>(_ chat: ChatID, _ body: () throws(FileError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .damagedChat(chat, error.description) }
    }

    // MARK: - Layout

    static func root(of kind: ChatID.Kind, in directory: String) -> String {
        SegmentIndex.root(of: kind, in: directory)
    }

    func path(of chat: ChatID) -> String { index.path(of: chat) }

    func segmentPath(_ chat: ChatID, _ number: Int) -> String { index.segmentPath(chat, number) }

    func lastSegment(of chat: ChatID) -> Int? { index.lastSegment(of: chat) }

    private func noteLastSegment(_ chat: ChatID, _ number: Int) {
        index.noteLastSegment(chat, number, temporaryDirectory: temporaryDirectory)
    }

    // MARK: - Segments

    /// Reads one segment; `nil` when it does not exist. A segment that does not parse, or
    /// is not a regular file, or is over the size limit, is moved aside unchanged and,
    /// when `repair` is set, replaced by an empty one (under the lock, so that the
    /// numbering keeps no gap).
    private func readSegment(_ chat: ChatID, _ index: Int, repair: Bool) throws(FileError) -> [Message]? {
        let path = segmentPath(chat, index)
        if let messages = try Self.decode(path) { return messages }
        guard FileSystem.exists(path) else { return nil }
        try lock.withLock { () throws(FileError) in
            // Another process may have repaired or replaced it meanwhile.
            guard FileSystem.exists(path), try Self.decode(path) == nil else { return }
            try quarantine(path, of: chat)
            // The cache may cover what was moved aside: count again from nothing.
            try? FileSystem.remove(self.path(of: chat) + "/count")
            if repair { try writeSegment(chat, index, []) }
        }
        return []
    }

    /// A segment's messages; `nil` when it is missing or damaged. Errors that say nothing
    /// about the file itself (a permission, a device error) are thrown.
    private static func decode(_ path: String) throws(FileError) -> [Message]? {
        let data: Data
        do {
            guard let read = try FileSystem.read(path) else { return nil }
            data = read
        } catch {
            if error.code == 0 || error.code == EFBIG || error.code == EISDIR || error.code == ELOOP { return nil }
            throw error
        }
        return try? PropertyListDecoder().decode([Message].self, from: data)
    }

    private func quarantine(_ path: String, of chat: ChatID) throws(FileError) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: clock()).replacingOccurrences(of: ":", with: "")
        var aside = "\(path).corrupt-\(stamp)"
        var attempt = 1
        while FileSystem.exists(aside) {
            attempt += 1
            aside = "\(path).corrupt-\(stamp)-\(attempt)"
        }
        try FileSystem.rename(path, to: aside)
        onWarning?(.movedAside(chat, file: aside.split(separator: "/").suffix(3).joined(separator: "/")))
    }

    private func writeSegment(
        _ chat: ChatID, _ index: Int, _ messages: [Message], durable: Bool = true
    ) throws(FileError) {
        let path = segmentPath(chat, index)
        try FileSystem.replace(
            path, with: try Self.encode([messages], path: path)[0], temporaryDirectory: temporaryDirectory,
            durable: durable, faults: faults)
    }

    /// Segments as binary property lists. Many at once (a bulk append) are encoded on
    /// every core: the encoding, not the writing, is most of a bulk append's time.
    private static func encode(_ segments: [[Message]], path: String) throws(FileError) -> [Data] {
        @Sendable func one(_ messages: [Message]) -> Result<Data, FileError> {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            do { return .success(try encoder.encode(messages)) } catch {
                return .failure(FileError("encode", path: path, code: 0, detail: "\(error)"))
            }
        }
        func unwrapped(_ results: [Result<Data, FileError>]) throws(FileError) -> [Data] {
            var data: [Data] = []
            for result in results {
                switch result {
                case .success(let bytes): data.append(bytes)
                case .failure(let error): throw error
                }
            }
            return data
        }
        guard segments.count >= 2 else { return try unwrapped(segments.map(one)) }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        var results = [Result<Data, FileError>?](repeating: nil, count: segments.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let slots = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for item in stride(from: worker, to: segments.count, by: workers) { slots[item] = one(segments[item]) }
            }
        }
        return try unwrapped(results.map { $0! })
    }
}

extension FileError {
    /// The reason alone, without the call and the path.
    var reason: String { code != 0 ? String(cString: strerror(code)) : detail }
}

/// A segment read for its last message only: the ones before it are stepped over without
/// decoding a field.
private struct LastMessage: Decodable {
    var message: Message?

    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let count = container.count ?? 0
        while container.currentIndex < count - 1 { _ = try container.decode(Skipped.self) }
        message = container.isAtEnd ? nil : try container.decode(Message.self)
    }
}
