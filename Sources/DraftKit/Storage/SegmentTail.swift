import Foundation
import Glibc

/// A chat's last segment opened for a send (`O_APPEND`), its layout read, under the lock:
/// an append is one `write` and an `fdatasync`, never a rename, so its directory needs no
/// sync. A segment that cannot be opened or read gives no tail: the caller reads it whole
/// (where a failure is an error) and writes it anew.
final class SegmentTail {
    /// The segment's number.
    let number: Int
    /// Where its objects are.
    let layout: SegmentLayout
    private let file: FileDescriptor

    /// Opens segment `number` and reads its layout; `nil` when it is missing, no regular file
    /// of this user's, has other names, or is no binary property list with an array at the top.
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
        guard (try? opened.status().links) == 1, let layout = timings.measure(\.decode, { SegmentLayout(bytes) })
        else {
            opened.close()
            return nil
        }
        self.number = number
        self.layout = layout
        file = opened
    }

    deinit { file.close() }

    /// What an append did.
    enum Appended {
        /// The messages are at the end; the failed sync, when the file could not be cut back.
        case done(unconfirmed: FileError?)
        /// The segment's references are too narrow for them: nothing was written.
        case tooNarrow
    }

    /// Appends `messages` and, when `durable`, syncs them. A write or a sync that fails is
    /// taken back (the file cut to its old size) and thrown; a sync that fails and cannot be
    /// taken back is returned (a write that cannot leaves a torn end, cut off at the next read).
    func append(
        _ messages: [Message], durable: Bool, timings: inout AppendTimings
    ) throws(FileError) -> Appended {
        guard let bytes = timings.measure(\.encode, { SegmentEncoder.append(messages, to: layout) }) else {
            return .tooNarrow
        }
        do throws(FileError) {
            try timings.measure(\.write) { () throws(FileError) in try file.writeAll(bytes) }
        } catch {
            // Whatever part was written is cut off: the segment is as it was (or, when that
            // fails too, its end is torn and cut off when it is next read).
            try? file.truncate(to: layout.size)
            throw error
        }
        guard durable else { return .done(unconfirmed: nil) }
        do throws(FileError) {
            try timings.measure(\.sync) { () throws(FileError) in try file.syncData() }
        } catch {
            let failedSync = error
            guard (try? file.truncate(to: layout.size)) != nil else { return .done(unconfirmed: failedSync) }
            throw failedSync
        }
        return .done(unconfirmed: nil)
    }
}
