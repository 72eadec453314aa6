import Foundation

/// Run numbers: what keeps message IDs apart when the clock is pinned (`SOURCE_DATE_EPOCH`).
/// Each process that sends claims one from `<data>/runs` under the lock: a script on a
/// fresh directory gets 1, so its IDs are the same every run (``Outbox/MessageNumbering``).
extension PropertyListHistory {
    /// The file that holds the last run number claimed.
    static let runsFile = "runs"

    /// Claims the next run number (1 on a directory that has none). A file that holds
    /// anything but a decimal number below the largest is an error: counted as 0 it gave
    /// runs again that were claimed before, and their IDs.
    public func claimRun() throws(StoreError) -> Int {
        try checkWritable()
        var claimed = 0
        try Self.available { () throws(FileError) in
            try segments.lock.withLock { () throws(FileError) in
                var last = 0
                if let data = try directories.root.read(Self.runsFile, limit: 64) {
                    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    guard text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text), number < Int.max
                    else {
                        throw FileError(
                            "read", path: directories.root.path(of: Self.runsFile), refusal: .doesNotParse)
                    }
                    last = number
                }
                claimed = last + 1
                // In place, not confirmed on disk: the number is claimed (a power cut now could
                // give it again after the restart, as it could before any sync).
                _ = try directories.root.replace(
                    Self.runsFile, with: Data("\(claimed)\n".utf8), temporary: directories.temporary)
            }
        }
        return claimed
    }
}
