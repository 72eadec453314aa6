import Foundation
import Glibc

/// The segments of every chat: reading them, setting aside the damaged ones, writing
/// them, under the data directory's lock where they change.
///
/// Each chat is a directory of numbered segments (``SegmentIndex``), opened relative to
/// ``HistoryDirectories`` for one operation at a time. A segment that does not parse, is
/// not a regular file or is over the size limit is moved aside unchanged
/// (`<name>.corrupt-<UTC time>`), with a warning, and an empty one takes its place when the
/// numbering must keep no gap.
final class SegmentStore {
    let directories: HistoryDirectories
    let lock: FileLock
    let index = SegmentIndex()
    /// Dates the names of files moved aside.
    let clock: @Sendable () -> Date
    /// Makes chosen writes fail, as a full disk would; for tests only.
    var faults: Directory.FaultInjector?

    init(directories: HistoryDirectories, lock: FileLock, clock: @escaping @Sendable () -> Date) {
        self.directories = directories
        self.lock = lock
        self.clock = clock
    }

    /// A chat's path relative to the data directory, for messages.
    static func relativePath(of chat: ChatID) -> String {
        HistoryDirectories.name(of: chat.kind) + "/" + chat.rawValue
    }

    /// The index of a chat's last segment (``SegmentIndex/lastSegment(of:in:)``).
    func lastSegment(of chat: ChatID, in directory: Directory) -> Int? {
        index.lastSegment(of: chat, in: directory)
    }

    /// Reads one segment (its `last` messages only, where its object table is read); `nil`
    /// when it does not exist. A damaged one is moved aside (a
    /// warning is added) under the lock; when its end is a torn append, what was whole
    /// before it takes its place, else, when `repair` is set, an empty one does, so the
    /// numbering keeps no gap.
    func read(
        _ chat: ChatID, in directory: Directory, _ number: Int, repair: Bool, last: Int = .max,
        warnings: inout [StoreWarning]
    ) throws(FileError) -> [Message]? {
        let name = SegmentIndex.name(number)
        if let data = try Self.bytes(name, in: directory), let messages = SegmentCodec.decode(data, last: last) {
            return messages
        }
        guard directory.exists(name) else { return nil }
        return try lock.withLock { () throws(FileError) -> [Message]? in
            // Another process may have repaired or replaced it meanwhile (or finished an append).
            guard directory.exists(name) else { return [] }
            if let messages = try Self.decode(name, in: directory) { return messages }
            // A torn append (a kill during the write, a power cut before its sync): what
            // was whole before it is kept; the file as found is moved aside, never lost.
            let torn = (try? Self.bytes(name, in: directory)).flatMap { $0 }.flatMap {
                SegmentLayout.recovered(from: [UInt8]($0))
            }
            warnings.append(try quarantine(name, of: chat, in: directory))
            // The cache may cover what was moved aside: count again from nothing.
            try? directory.remove(SegmentCount.name)
            if let torn {
                try replace(number, in: directory, with: Data(torn.bytes), durable: true)
                return torn.messages
            }
            if repair { try write([], to: directory, number) }
            return []
        }
    }

    /// A segment's messages; `nil` when it is missing or damaged. Errors that say nothing
    /// about the file itself (a permission, a device error) are thrown.
    static func decode(_ name: String, in directory: Directory) throws(FileError) -> [Message]? {
        guard let data = try bytes(name, in: directory) else { return nil }
        return SegmentCodec.decode(data)
    }

    /// A segment's bytes; `nil` when it is missing, or is no regular file of a readable
    /// size (damage, to be moved aside). Other errors are thrown.
    static func bytes(_ name: String, in directory: Directory) throws(FileError) -> Data? {
        do {
            return try directory.read(name)
        } catch {
            if error.code == 0 || error.code == EFBIG || error.code == EISDIR || error.code == ELOOP { return nil }
            throw error
        }
    }

    /// Moves a damaged file aside under a dated name; the warning that says so.
    private func quarantine(_ name: String, of chat: ChatID, in directory: Directory) throws(FileError) -> StoreWarning
    {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: clock()).replacingOccurrences(of: ":", with: "")
        var aside = "\(name).corrupt-\(stamp)"
        var attempt = 1
        while directory.exists(aside) {
            attempt += 1
            aside = "\(name).corrupt-\(stamp)-\(attempt)"
        }
        try directory.rename(name, to: aside)
        return .movedAside(chat, file: Self.relativePath(of: chat) + "/" + aside)
    }

    /// Writes one segment (``Directory/replace(_:with:temporary:durable:faults:)``).
    func write(_ messages: [Message], to directory: Directory, _ number: Int, durable: Bool = true) throws(FileError) {
        try replace(number, in: directory, with: SegmentEncoder.segment(messages[...]), durable: durable)
    }

    /// Replaces one segment with encoded bytes, adding the time of each step to `timings`.
    func replace(
        _ number: Int, in directory: Directory, with data: some ContiguousBytes, durable: Bool,
        timings: inout AppendTimings
    ) throws(FileError) {
        try directory.replace(
            SegmentIndex.name(number), with: data, temporary: directories.temporary, durable: durable, faults: faults,
            timings: &timings)
    }

    /// Replaces one segment with encoded bytes.
    func replace(
        _ number: Int, in directory: Directory, with data: some ContiguousBytes, durable: Bool
    )
        throws(FileError)
    {
        var ignored = AppendTimings()
        try replace(number, in: directory, with: data, durable: durable, timings: &ignored)
    }

    /// Remembers a chat's last segment (``SegmentIndex/noteLastSegment(_:_:in:temporary:)``).
    func noteLastSegment(_ chat: ChatID, _ number: Int, in directory: Directory, linkFirst: Bool = true) {
        index.noteLastSegment(chat, number, in: directory, temporary: directories.temporary, linkFirst: linkFirst)
    }

    /// The count file of a chat.
    func countFile(in directory: Directory) -> SegmentCount {
        SegmentCount(directory: directory, temporary: directories.temporary)
    }
}
