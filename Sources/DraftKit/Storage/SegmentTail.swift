import Foundation
import Glibc

/// A chat's last segment opened for a send: read once, its layout known, its descriptor
/// open for appending (`O_APPEND`), under the data directory's lock.
///
/// An append writes the new messages' objects and a new table and trailer at the end, in
/// one `write`, and syncs the file's data (``FileDescriptor/syncData()``): the file is
/// never renamed, so its directory needs no sync. A write or sync that fails cuts the file
/// back to its old size, leaving it as it was.
final class SegmentTail {
    /// The segment's number.
    let number: Int
    /// Where its objects are.
    let layout: SegmentLayout
    private let file: FileDescriptor

    /// Opens segment `number` in `directory` and reads its layout; `nil` when it is missing,
    /// is no regular file of this user's, has other names (hard links), or is not a binary property list with an array at
    /// the top (an older or damaged segment, written anew by the caller).
    init?(_ number: Int, in directory: Directory, timings: inout AppendTimings) {
        let name = SegmentIndex.name(number)
        var bytes: [UInt8] = []
        var opened: FileDescriptor?
        timings.measure(\.read) {
            opened = try? directory.open(name, access: .readAppend, owned: true)
            if let opened, let data = try? opened.readAll(limit: Directory.defaultReadLimit) {
                bytes = [UInt8](data)
            }
        }
        guard let opened else { return nil }
        // A file with other names (a hard link made from outside) is not written through:
        // written anew, it is replaced by a file of its own, and the other name keeps
        // what it had.
        guard (try? opened.status().links) == 1 else {
            opened.close()
            return nil
        }
        guard let layout = timings.measure(\.decode, { SegmentLayout(bytes) }) else {
            opened.close()
            return nil
        }
        self.number = number
        self.layout = layout
        file = opened
    }

    deinit { file.close() }

    /// Appends `messages` and, when `durable`, syncs; `false` when the segment's references
    /// are too narrow for them (nothing was written: the caller writes it anew).
    func append(
        _ messages: [Message], durable: Bool, faults: Directory.FaultInjector?, timings: inout AppendTimings
    ) throws(FileError) -> Bool {
        guard let bytes = timings.measure(\.encode, { SegmentEncoder.append(messages, to: layout) }) else {
            return false
        }
        do throws(FileError) {
            try timings.measure(\.write) { () throws(FileError) in
                try Self.check(faults, "write", file.path)
                try file.writeAll(bytes)
            }
            if durable {
                try timings.measure(\.sync) { () throws(FileError) in
                    try Self.check(faults, "fsync", file.path)
                    try file.syncData()
                }
            }
        } catch {
            // Whatever part was written is cut off: the segment is as it was.
            try? file.truncate(to: layout.size)
            throw error
        }
        return true
    }

    private static func check(
        _ faults: Directory.FaultInjector?, _ operation: String, _ path: String
    )
        throws(FileError)
    {
        if let code = faults?(operation, path), code != 0 { throw FileError(operation, path: path, code: code) }
    }
}
