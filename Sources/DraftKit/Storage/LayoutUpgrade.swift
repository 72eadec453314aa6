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
    let directory: String
    let temporaryDirectory: String

    /// The layout version this code writes.
    static let version = 2

    func run(isUser: (String) -> Bool, warn: (StoreWarning) -> Void) throws(FileError) {
        let formatPath = directory + "/format"
        let recorded = (try? FileSystem.read(formatPath, limit: 64)).flatMap {
            Int(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if let recorded, recorded >= Self.version { return }
        let chats = PropertyListHistory.root(of: .privateChat, in: directory)
        let threads = PropertyListHistory.root(of: .thread, in: directory)
        var moved = false
        for name in try FileSystem.names(in: chats) where ChatID.looksLikeThread(name) && !isUser(name) {
            guard !FileSystem.exists(threads + "/" + name) else {
                warn(.notMigrated("chats/\(name)", "threads/\(name) exists already"))
                continue
            }
            try FileSystem.rename(chats + "/" + name, to: threads + "/" + name)
            moved = true
        }
        if moved {
            try FileSystem.syncDirectory(chats)
            try FileSystem.syncDirectory(threads)
        }
        try FileSystem.replace(formatPath, with: Data("\(Self.version)\n".utf8), temporaryDirectory: temporaryDirectory)
    }
}
