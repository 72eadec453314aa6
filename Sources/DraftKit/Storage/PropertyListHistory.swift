import Foundation
import Glibc

/// Chat history in property-list files under a data directory: the layout and its reasons
/// are in the DocC article "Storage layout". Each chat is a directory of numbered
/// segments; only the last changes, found by hints (``SegmentIndex``), extended in place by
/// a send (``SegmentTail``) and set aside when damaged (``SegmentStore``).
public final class PropertyListHistory: BulkHistoryStore {
    /// The data directory's path.
    public let directory: String

    /// The most messages one segment holds.
    public let segmentCapacity: Int

    /// What opening the directory noticed (a directory of an older layout left where it was).
    public private(set) var openingWarnings: [StoreWarning]

    /// The default capacity of a segment.
    public static let defaultSegmentCapacity = 16

    /// The most messages a segment started by a bulk load (an import) holds: a file system
    /// spends more on making a file than on writing its bytes.
    public var bulkSegmentCapacity = 256

    let directories: HistoryDirectories
    let segments: SegmentStore
    /// Where each append is announced to other processes.
    var journal: Journal
    /// Which chats changed last, for the chat list.
    let recent: RecentChats
    /// Whether the journal, and the index, failed on the last append (each is said once).
    var journalFailing = false
    var indexFailing = false
    /// Where the time of appends went, since the history was opened or the figures reset.
    public var timings = AppendTimings()
    /// The most bytes of the journal any feed of this history has held at once (for the
    /// fuzzers and tests).
    public internal(set) var journalBytesHeld = 0

    /// Why the data directory cannot be written here: every write is refused with it.
    public var readOnly: FileError? { segments.lock.readOnly }

    /// Whether a temporary file's writer (the process ID its name starts with) still runs:
    /// not every write holds the lock (the edit line's history does not).
    static func isBeingWritten(_ name: String) -> Bool {
        guard let pid = name.split(separator: "-", maxSplits: 1).first.flatMap({ pid_t($0) }), pid > 0,
            pid != getpid()
        else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Opens (creating when missing) the history in a data directory: under the lock, removes
    /// temporary files of killed writers, upgrades an older layout and builds a missing chat
    /// list index. `clock` dates the names of files moved aside; `isUser` tells a user's
    /// private chat from a comment thread in a version 1 directory (throwing: nothing moves).
    /// A read-only directory opens for reading, unless it needs an upgrade.
    public init(
        directory: String, segmentCapacity: Int = defaultSegmentCapacity,
        clock: @escaping @Sendable () -> Date = { Date() }, onLockWait: ((LockWait) -> Void)? = nil,
        isUser: (String) throws(FileError) -> Bool = { _ in false }
    ) throws(StoreError) {
        self.directory = directory
        self.segmentCapacity = max(1, segmentCapacity)
        do throws(FileError) {
            directories = try HistoryDirectories(path: directory)
            let lock = try FileLock("lock", in: directories.root)
            lock.onWait = onLockWait
            segments = SegmentStore(directories: directories, lock: lock, clock: clock)
        } catch {
            throw .unavailable(error)
        }
        journal = Journal(directory: directories.live)
        recent = RecentChats(directory: directories.root, temporary: directories.temporary)
        openingWarnings = []
        let upgrade = LayoutUpgrade(directories: directories)
        if let readOnly = segments.lock.readOnly {
            if try Self.available({ () throws(FileError) in try upgrade.isNeeded() }) { throw .readOnly(readOnly) }
            return
        }
        try Self.available { () throws(FileError) in
            try segments.lock.withLock { () throws(FileError) in
                for name in try directories.temporary.names() where !Self.isBeingWritten(name) {
                    try directories.temporary.remove(name)
                }
                openingWarnings = try upgrade.run(isUser: isUser)
                if try !recent.exists() { openingWarnings += try buildChatList() }
            }
        }
    }

    /// Builds the chat list's index from every chat, repairing nothing; writes nothing when a
    /// chat could not be read: an index of part of the chats would hide the others.
    private func buildChatList() throws(FileError) -> [StoreWarning] {
        var summaries: [ChatSummary] = []
        for kind in ChatID.Kind.allCases {
            for name in try directories.root(of: kind).names() {
                guard let chat = ChatID(name, kind: kind) else { continue }
                let reading = summary(of: chat, repair: false)
                for case .chatUnreadable(_, let failure) in reading.warnings { return [.chatListNotBuilt(failure)] }
                if let found = reading.value { summaries.append(found) }
            }
        }
        try recent.rebuild(
            summaries.sorted { ($0.lastActivity, $0.chatID) < ($1.lastActivity, $1.chatID) }.map {
                RecentChats.Entry(chat: $0.chatID, date: $0.lastActivity)
            })
        return []
    }

    @discardableResult
    public func append(_ message: Message, to chat: ChatID) throws(StoreError) -> [StoreWarning] {
        try appendAll([message], to: chat)
    }

    /// A feed of what any process appends from now on, read from the journal; with
    /// `notifications`, woken by `inotify` where the kernel allows it.
    public func follow(notifications: Bool = true) -> any HistoryFeed {
        PropertyListFeed(history: self, notifications: notifications)
    }

    /// Every chat with a directory, private chats first, each kind in name order.
    public func chatIDs() throws(StoreError) -> [ChatID] {
        var result: [ChatID] = []
        for kind in ChatID.Kind.allCases {
            let names = try Self.available { () throws(FileError) in try directories.root(of: kind).names() }
            result += names.sorted().compactMap { ChatID($0, kind: kind) }
        }
        return result
    }

    /// Commits what was appended without syncing (`syncfs` of the data directory's file system).
    public func commit() throws(StoreError) {
        try Self.available { () throws(FileError) in
            try timings.measure(\.sync) { () throws(FileError) in try directories.root.syncFileSystem() }
        }
    }

    /// The longest wait for the data directory's lock, in seconds (`nil`: as long as it
    /// takes); a session waits one second, so no send leaves the keyboard waiting longer.
    public var lockLimit: Double? {
        get { segments.lock.limit }
        set { segments.lock.limit = newValue }
    }

    /// Told of every wait for the lock past a second, who holds it (once a wait).
    public var onLockWait: ((LockWait) -> Void)? {
        get { segments.lock.onWait }
        set { segments.lock.onWait = newValue }
    }

    /// Runs `body` holding the data directory's lock (reentrant).
    public func exclusively<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        var outcome: Result<T, StoreError>?
        try Self.available { () throws(FileError) in
            try segments.lock.withLock { () throws(FileError) in
                do throws(StoreError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
            }
        }
        return try outcome!.get()
    }

    // MARK: - Errors

    /// A chat's directory, when it exists; a link or a file there is the chat's error.
    func chatDirectory(_ chat: ChatID) throws(StoreError) -> Directory? {
        do throws(FileError) {
            return try directories.directory(of: chat)
        } catch {
            throw .chat(chat, error)
        }
    }

    /// Runs `body`; a call that fails in it is the store's error.
    static func available<T>(_ body: () throws(FileError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .unavailable(error) }
    }

    /// Runs `body` on one chat's files; a call that fails in it is that chat's error.
    static func readable<T>(_ chat: ChatID, _ body: () throws(FileError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .chat(chat, error) }
    }

    /// Refuses a write when the data directory cannot be written here.
    func checkWritable() throws(StoreError) {
        if let readOnly { throw .readOnly(readOnly) }
    }

    // MARK: - Layout

    /// The index of a chat's last segment, when it has any (for tests).
    func lastSegment(of chat: ChatID) throws(StoreError) -> Int? {
        guard let folder = try chatDirectory(chat) else { return nil }
        return try Self.readable(chat) { () throws(FileError) in try segments.index.lastSegment(of: chat, in: folder) }
    }
}
