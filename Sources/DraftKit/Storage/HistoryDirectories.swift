/// The directories of a data directory that history keeps, each opened once, as
/// descriptors: every file after that is reached relative to them.
final class HistoryDirectories {
    /// The data directory.
    let root: Directory
    /// Private chats, one directory each.
    let chats: Directory
    /// Comment threads, one directory each.
    let threads: Directory
    /// Files being written, renamed into place when complete.
    let temporary: Directory
    /// The journal.
    let live: Directory

    /// Opens the data directory at `path`, making it and each sub-directory (0700) when
    /// missing; the data directory is synced when one was made.
    init(path: String) throws(FileError) {
        let root = try Directory.open(path, create: true)
        var made = false
        func make(_ name: String) throws(FileError) -> Directory {
            let (directory, new) = try root.makeSubdirectory(name)
            made = made || new
            return directory
        }
        self.root = root
        chats = try make("chats")
        threads = try make("threads")
        temporary = try make("tmp")
        live = try make("live")
        if made { try root.sync() }
    }

    /// Where chats of a kind live.
    func root(of kind: ChatID.Kind) -> Directory {
        switch kind {
        case .privateChat: return chats
        case .thread: return threads
        }
    }

    /// The name of a kind's directory in the data directory.
    static func name(of kind: ChatID.Kind) -> String {
        switch kind {
        case .privateChat: return "chats"
        case .thread: return "threads"
        }
    }

    /// A chat's directory, when it exists; a link, a file or a shared directory is an error.
    func directory(of chat: ChatID) throws(FileError) -> Directory? {
        try root(of: chat.kind).subdirectory(chat.rawValue)
    }

    /// A chat's directory, made when it is missing; with `durable`, its new entry synced.
    func makeDirectory(of chat: ChatID, durable: Bool) throws(FileError) -> Directory {
        let parent = root(of: chat.kind)
        let (directory, made) = try parent.makeSubdirectory(chat.rawValue)
        if made && durable { try parent.sync() }
        return directory
    }
}
