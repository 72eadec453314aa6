import Foundation
import Glibc

/// Chat history in property-list files under a data directory: the layout and its
/// reasons are in the DocC article "Storage layout".
///
/// Each chat (`chats/<global_key>/`, or `threads/<kind>_<id>/` for a comment thread) is a
/// directory of numbered *segments*: binary property lists, each an array of at most
/// ``segmentCapacity`` message dictionaries, that any property-list reader opens. Only
/// the last segment changes. A send extends that one small file at its end; opening a
/// chat reads its last one or two; start-up reads none. The last segment is found
/// through hints checked with two `fstatat` calls (``SegmentIndex``), and counts are exact
/// through a cache of full segments (``SegmentCount``).
///
/// A send takes the lock, reads the last segment's layout (its trailer, not its
/// messages), appends the new message's objects with a new table and trailer in one write
/// and syncs the file's data (``SegmentTail``, ``SegmentEncoder``): only then does it
/// return. A kill or a power cut at any moment leaves the old end whole; a torn append is
/// cut off when the segment is next read, the file as found moved aside. A segment that
/// starts with a send is written to `tmp/`, synced, renamed into place and its directory
/// synced. Files are 0600 and the
/// directories draftline makes 0700, whatever the umask. Every file is reached through
/// directories opened once (``HistoryDirectories``). Damaged segments are set aside
/// (``SegmentStore``); an older layout is brought up to date when opened
/// (``LayoutUpgrade``).
public final class PropertyListHistory: BulkHistoryStore {
    /// The data directory's path.
    public let directory: String

    /// The most messages one segment holds.
    public let segmentCapacity: Int

    /// What opening the directory noticed (a directory of an older layout left where it
    /// was), for the caller to show: set when it opens, and only then.
    public private(set) var openingWarnings: [StoreWarning]

    /// The default capacity of a segment.
    public static let defaultSegmentCapacity = 16

    /// The most messages a segment started by a bulk load holds (an append that is not
    /// `durable`: an import): 256, so importing many small chats writes one file for each,
    /// not one for every ``segmentCapacity`` messages; a file system spends more on making
    /// a file than on writing its bytes. Opening such a chat reads up to 256 messages
    /// (about 100 KB), not 16. Sends after it start segments of ``segmentCapacity``.
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
    /// The most bytes of the journal any feed of this history (``follow(notifications:)``)
    /// has held at once: one slice and the start of one line, whatever the journal holds (a
    /// figure for the fuzzers and tests).
    public internal(set) var journalBytesHeld = 0

    /// Why the data directory cannot be written here (read-only), when it cannot: reads
    /// work, and every write is refused with ``StoreError/readOnly(_:)``.
    public var readOnly: FileError? { segments.lock.readOnly }

    /// Whether a temporary file's writer is still running: its name starts with the
    /// process ID of the process that made it (``Directory/temporaryName(_:)``), and not
    /// every write holds the lock (the edit line's history does not), so a process starting
    /// must not take a file from under another one's rename. Wraps `kill(pid, 0)`.
    static func isBeingWritten(_ name: String) -> Bool {
        guard let pid = name.split(separator: "-", maxSplits: 1).first.flatMap({ pid_t($0) }), pid > 0,
            pid != getpid()
        else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Opens (creating when missing) the history in a data directory.
    ///
    /// Opens the directories (made with mode 0700), then, under the lock, removes
    /// temporary files left by a process that was killed mid-write (not those of a process
    /// still running) and brings an older
    /// layout up to date. Reads no history (a directory from before the chat list's index
    /// gets one built, once). `clock` dates the names of files moved aside; `isUser` tells
    /// a user's private chat from a comment thread in a version 1 directory (and throws
    /// when it cannot tell: then nothing is moved).
    ///
    /// A data directory that cannot be written here (a read-only file system) opens for
    /// reading: nothing is removed, upgraded or built, and ``readOnly`` says why; one that
    /// needs an upgrade cannot be opened so.
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
        var warnings: [StoreWarning] = []
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
                warnings = try upgrade.run(isUser: isUser)
                if try !recent.exists() { warnings += try buildChatList() }
            }
        }
        openingWarnings = warnings
    }

    /// Builds the chat list's index of a directory from before it: one scan of every chat,
    /// once. It repairs nothing (damage is set aside, with a warning, when it is read), and
    /// writes nothing when a chat could not be read: an index built from part of the chats
    /// would hide the others until they change. The warning then says so.
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

    /// A feed of what any process appends from now on, read from the journal; woken by
    /// `inotify` on the journal's directory when `notifications` is on and the kernel
    /// allows it, else to be asked every ``HistoryFeedPolling/interval``.
    public func follow(notifications: Bool = true) -> any HistoryFeed {
        PropertyListFeed(history: self, notifications: notifications)
    }

    /// Every chat with a directory, private chats first, each kind in name order; nothing
    /// in them is read. Names that are not chat IDs are passed over.
    public func chatIDs() throws(StoreError) -> [ChatID] {
        var result: [ChatID] = []
        for kind in ChatID.Kind.allCases {
            let names = try Self.available { () throws(FileError) in try directories.root(of: kind).names() }
            result += names.sorted().compactMap { ChatID($0, kind: kind) }
        }
        return result
    }

    /// Commits what was appended without syncing: `syncfs` on the data directory's file
    /// system, not every disk of the machine.
    public func commit() throws(StoreError) {
        try Self.available { () throws(FileError) in
            try timings.measure(\.sync) { () throws(FileError) in try directories.root.syncFileSystem() }
        }
    }

    /// The longest wait for the data directory's lock, in seconds (`nil`: as long as it
    /// takes): past it the operation fails with an error that names who holds the lock,
    /// and nothing was changed. 30 s unless set; a session waits one second, so that no
    /// send leaves the keyboard waiting longer without a word.
    public var lockLimit: Double? {
        get { segments.lock.limit }
        set { segments.lock.limit = newValue }
    }

    /// Told of every wait for the lock past a second, who holds it (once a wait).
    public var onLockWait: ((LockWait) -> Void)? {
        get { segments.lock.onWait }
        set { segments.lock.onWait = newValue }
    }

    /// Runs `body` holding the data directory's lock (``FileLock``, reentrant): no other
    /// process appends meanwhile.
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

    /// A chat's directory, when it exists: it must be a directory of this user's, not a
    /// link or a file, else the chat is damaged (and nothing in it is read or written).
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

    /// A chat's directory's path, for messages and tests.
    func path(of chat: ChatID) -> String { directory + "/" + SegmentStore.relativePath(of: chat) }

    /// The index of a chat's last segment, when it has any (for tests).
    func lastSegment(of chat: ChatID) throws(StoreError) -> Int? {
        guard let folder = try chatDirectory(chat) else { return nil }
        return try Self.readable(chat) { () throws(FileError) in try segments.index.lastSegment(of: chat, in: folder) }
    }
}
