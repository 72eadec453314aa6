import Foundation

/// Brings a version 1 data directory (no `format`; threads in `chats/`, so the thread
/// `tweet 1` and a user `tweet_1` shared a history) up to version 2: each `chats/<kind>_<id>`
/// not a user's moves to `threads/`, both are synced, then `format` is written, so a crash
/// part way is finished by the next start. A read that fails stops it before anything moves.
struct LayoutUpgrade {
    let directories: HistoryDirectories

    /// The layout version this code writes.
    static let version = 2

    /// Whether the directory is older than this code: `format` is missing (version 1),
    /// holds no number or is no regular file (then the upgrade writes it anew), or records
    /// an older version. A read that fails throws.
    func isNeeded() throws(FileError) -> Bool {
        let data = try FileError.nilUnlessTransient { () throws(FileError) in
            try directories.root.read("format", limit: 64)
        }
        let text = data.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let recorded = text.flatMap({ Int($0) }) else { return true }
        return recorded < Self.version
    }

    /// Upgrades the directory when it is older; returns what could not be moved.
    func run(isUser: (String) throws(FileError) -> Bool) throws(FileError) -> [StoreWarning] {
        guard try isNeeded() else { return [] }
        var warnings: [StoreWarning] = []
        // Every name is decided before anything moves: contacts that cannot be read stop
        // the upgrade with nothing changed, never with half the threads moved.
        var threads: [String] = []
        for name in try directories.chats.names() where ChatID.looksLikeThread(name) {
            if try !isUser(name) { threads.append(name) }
        }
        var moved = false
        for name in threads {
            guard try !directories.threads.exists(name) else {
                warnings.append(.notMigrated("chats/\(name)", existing: "threads/\(name)"))
                continue
            }
            try directories.chats.rename(name, to: name, in: directories.threads)
            moved = true
        }
        if moved {
            try directories.chats.sync()
            try directories.threads.sync()
        }
        // A format written but not confirmed on disk costs at most this upgrade again, which
        // finds nothing left to move.
        _ = try directories.root.replace(
            "format", with: Data("\(Self.version)\n".utf8), temporary: directories.temporary)
        return warnings
    }
}
