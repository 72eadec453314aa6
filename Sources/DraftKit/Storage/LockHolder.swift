import Foundation
import Glibc

/// A process that holds a lock draftline waits for, as the kernel lists it (`/proc/locks`):
/// its ID and its command line, so a wait can say who it waits for.
public struct LockHolder: Equatable, Sendable {
    /// The process ID the kernel names (for `flock`, the process that took the lock).
    public var pid: Int32
    /// Its command line (`/proc/<pid>/cmdline`, arguments joined by spaces), or its name;
    /// empty when the process is gone or not ours to see.
    public var command: String

    /// The processes holding `flock` locks on the file `status` describes: every line of
    /// `/proc/locks` (read with a cap) that names its device and inode, waiters left out.
    static func holders(of status: FileStatus) -> [LockHolder] {
        guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let device = status.device
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF
        let minor = device & 0xFF | (device >> 12) & ~0xFF
        let file = String(format: "%02llx:%02llx:%llu", major, minor, status.inode)
        var found: [LockHolder] = []
        for line in text.split(separator: "\n").prefix(100_000) where !line.contains("->") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]),
                !found.contains(where: { $0.pid == pid })
            else { continue }
            found.append(LockHolder(pid: pid, command: command(of: pid)))
        }
        return found
    }

    /// A process's command line, its arguments joined by spaces (at most 200 bytes).
    static func command(of pid: Int32) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else {
            return ""
        }
        let words = data.prefix(200).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return words.joined(separator: " ")
    }
}

/// Why a lock was not taken: it stayed held past the wait's limit.
public struct LockWait: Equatable, Sendable {
    /// The lock file.
    public var path: String
    /// Who held it when the wait ended (empty when the kernel does not say).
    public var holders: [LockHolder]
    /// How long draftline waited, in seconds.
    public var waited: Double
}
