import Foundation
import Glibc

/// The segments of every chat: reading them, setting aside the damaged ones (moved to
/// `<name>.corrupt-<UTC time>`, with a warning), writing them under the lock.
final class SegmentStore {
    let directories: HistoryDirectories
    let lock: FileLock
    let index = SegmentIndex()
    /// Dates the names of files moved aside.
    let clock: @Sendable () -> Date

    init(directories: HistoryDirectories, lock: FileLock, clock: @escaping @Sendable () -> Date) {
        self.directories = directories
        self.lock = lock
        self.clock = clock
    }

    /// A chat's path relative to the data directory, for messages.
    static func relativePath(of chat: ChatID) -> String {
        HistoryDirectories.name(of: chat.kind) + "/" + chat.rawValue
    }

    /// Reads one segment (its `last` messages); `nil` when it does not exist. A damaged one
    /// is moved aside under the lock, and what was whole before a torn append takes its
    /// place (else, with `repair`, an empty one, so the numbering keeps no gap). A read that
    /// fails throws: a file is damaged only when its bytes were read and do not parse.
    /// Where the directory cannot be written nothing is repaired, and a warning says so.
    func read(
        _ chat: ChatID, in directory: Directory, _ number: Int, repair: Bool, last: Int = .max,
        warnings: inout [StoreWarning]
    ) throws(FileError) -> [Message]? {
        let name = SegmentIndex.name(number)
        if let data = try Self.bytes(name, in: directory), let messages = SegmentCodec.decode(data, last: last) {
            return messages
        }
        guard try directory.exists(name) else { return nil }
        return try lock.withLock { () throws(FileError) -> [Message]? in
            // Another process may have repaired or replaced it meanwhile (or finished an append).
            guard try directory.exists(name) else { return [] }
            let data = try Self.bytes(name, in: directory)
            if let data, let messages = SegmentCodec.decode(data) { return messages }
            // A torn append (a kill during the write, a power cut before its sync): what
            // was whole before it is kept; the file as found is moved aside, never lost.
            let torn = data.flatMap { SegmentLayout.recovered(from: [UInt8]($0)) }
            if let readOnly = lock.readOnly {
                warnings.append(.notRepaired(chat, file: Self.relativePath(of: chat) + "/" + name, readOnly))
                return torn?.messages ?? []
            }
            // The cache may cover what is moved aside: counted again from nothing (removed
            // first, so a failure leaves the damaged file to be found again; one that is no
            // file is no cache, and is never read).
            _ = try FileError.nilUnlessTransient { () throws(FileError) in try directory.remove(SegmentCount.name) }
            warnings.append(try quarantine(name, of: chat, in: directory))
            if let replacement = torn?.bytes ?? (repair ? SegmentEncoder.segment([]) : nil) {
                var ignored = AppendTimings()
                if let unconfirmed = try replace(
                    number, in: directory, with: replacement, durable: true, timings: &ignored)
                {
                    warnings.append(.notConfirmed(unconfirmed))
                }
            }
            return torn?.messages ?? []
        }
    }

    /// A segment's bytes; `nil` when it is missing or no regular file of a readable size.
    static func bytes(_ name: String, in directory: Directory) throws(FileError) -> Data? {
        try FileError.nilUnlessTransient { () throws(FileError) in try directory.read(name) }
    }

    /// How many empty segments one read removes at most: 4,000 removed at once made the
    /// first open behind them take 313 ms, 256 take 69 ms.
    static let removalsPerRead = 256

    /// Removes the empty segments a walk back passed over, so the next walk does not pass
    /// them again; only when the lock is free at once and the directory can be written, and
    /// a failure only costs the next walk the probes. One is removed only when the number
    /// before it is no segment: a hint is right when its segment exists and the next does
    /// not, so a removal must never leave a segment followed by a missing number (a hint
    /// there would send an append into an earlier segment).
    func removeEmpty(passedBy earlier: inout SegmentIndex.Earlier) {
        guard lock.readOnly == nil, let last = earlier.last, !earlier.passed.isEmpty else { return }
        let directory = earlier.directory
        var removed = Set<Int>()
        _ = try? lock.withLockIfFree { () throws(FileError) in
            guard try directory.exists(SegmentIndex.name(last)) else { return }
            for number in earlier.passed.reversed() where number < last {
                guard removed.count < Self.removalsPerRead else { break }
                if number > 0, !removed.contains(number - 1), try directory.exists(SegmentIndex.name(number - 1)) {
                    continue
                }
                let name = SegmentIndex.name(number)
                guard let data = try Self.bytes(name, in: directory), SegmentCodec.decode(data)?.isEmpty == true
                else { continue }
                try directory.remove(name)
                removed.insert(number)
            }
        }
        if !removed.isEmpty { earlier.forget(removed) }
    }

    /// Moves a damaged file aside under a dated name; the warning that says so.
    private func quarantine(_ name: String, of chat: ChatID, in directory: Directory) throws(FileError) -> StoreWarning
    {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        let stamp = formatter.string(from: clock()).replacingOccurrences(of: ":", with: "")
        var aside = "\(name).corrupt-\(stamp)"
        var attempt = 1
        while try directory.exists(aside) {
            attempt += 1
            aside = "\(name).corrupt-\(stamp)-\(attempt)"
        }
        try directory.rename(name, to: aside)
        return .movedAside(chat, file: Self.relativePath(of: chat) + "/" + aside)
    }

    /// Replaces one segment with encoded bytes; the failed directory sync when it is in place.
    func replace(
        _ number: Int, in directory: Directory, with data: some ContiguousBytes, durable: Bool,
        timings: inout AppendTimings
    ) throws(FileError) -> FileError? {
        try directory.replace(
            SegmentIndex.name(number), with: data, temporary: directories.temporary, durable: durable,
            timings: &timings)
    }

    /// The count file of a chat.
    func countFile(in directory: Directory) -> SegmentCount {
        SegmentCount(directory: directory, temporary: directories.temporary)
    }
}
