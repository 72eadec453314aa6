import Foundation

/// Brings a data directory written by an older draftline up to the current layout.
///
/// Version 1 (no `format` file) kept comment threads in `chats/` beside private chats,
/// so the thread `tweet 1` and a user called `tweet_1` shared a history. Version 2 keeps
/// threads in `threads/`. The upgrade moves each `chats/<kind>_<id>` there (unless
/// `isUser` says the name is a user's: then it stays a private chat), syncs both
/// directories, and only then writes `format`; a crash part way leaves a directory the
/// next start finishes. Runs under the data directory's lock.
struct LayoutUpgrade {
    let directories: HistoryDirectories

    /// The layout version this code writes.
    static let version = 2

    /// Upgrades the directory when it is older; returns what could not be moved.
    func run(isUser: (String) -> Bool) throws(FileError) -> [StoreWarning] {
        let root = directories.root
        let recorded = (try? root.read("format", limit: 64)).flatMap {
            Int(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let recorded, recorded >= Self.version { return [] }
        var warnings: [StoreWarning] = []
        var moved = false
        for name in try directories.chats.names() where ChatID.looksLikeThread(name) && !isUser(name) {
            guard !directories.threads.exists(name) else {
                warnings.append(.notMigrated("chats/\(name)", "threads/\(name) exists already"))
                continue
            }
            try directories.chats.rename(name, to: name, in: directories.threads)
            moved = true
        }
        if moved {
            try directories.chats.sync()
            try directories.threads.sync()
        }
        try root.replace("format", with: Data("\(Self.version)\n".utf8), temporary: directories.temporary)
        return warnings
    }
}
