import Foundation

/// The edit line's own history (up arrow, `^R`) of one identity, kept across runs as a
/// property list.
///
/// `<data>/line-history.<global_key>.plist` is a binary property list holding an array of
/// the last ``limit`` lines that identity entered with Enter, oldest first: one identity's
/// lines are never shown to another. Drafts never reach it: a line left with a key
/// function is not entered. Each line entered is appended as bash's `histappend` does:
/// under the data directory's lock the file is read again, the line added at its end,
/// the oldest dropped past ``limit``, and the file replaced atomically (mode 0600), so two
/// sessions of one identity merge their lines rather than overwrite each other's.
///
/// The file all identities shared before, `line-history.plist`, is read by the default
/// identity `me` (whose lines it held until identities came) until `me` has a file of its
/// own, and never written again; other identities never read it.
public struct LineHistoryFile {
    /// The file all identities shared before each had its own.
    static let sharedName = "line-history.plist"
    /// Whose lines these are.
    public let identity: GlobalKey
    /// The most lines kept.
    public let limit: Int
    private let directories: HistoryDirectories
    private let lock: FileLock

    /// The file's name in the data directory.
    var name: String { "line-history.\(identity.rawValue).plist" }

    /// The file's path.
    public var path: String { directories.root.path(of: name) }

    init(identity: GlobalKey, directories: HistoryDirectories, lock: FileLock, limit: Int = 500) {
        self.identity = identity
        self.directories = directories
        self.lock = lock
        self.limit = limit
    }

    /// The lines, oldest first; empty when the file is missing or unreadable (or nests too
    /// deep to be read safely).
    public func load() -> [String] {
        Array(read().suffix(limit))
    }

    /// Adds a line at the end of the file as it is now (another session's lines kept),
    /// keeping the last ``limit``.
    public func append(_ line: String) throws(StoreError) {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        do {
            try lock.withLock { () throws(FileError) in
                guard let data = try? encoder.encode(Array((read() + [line]).suffix(limit))) else {
                    throw FileError("encode", path: path, code: 0, detail: "the line history cannot be encoded")
                }
                try directories.root.replace(name, with: data, temporary: directories.temporary)
            }
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// The file's lines (for `me` without a file of its own, the shared file's).
    private func read() -> [String] {
        let own = try? directories.root.read(name)
        let data = own ?? (identity == .me ? try? directories.root.read(Self.sharedName) : nil)
        guard let data, let lines = try? PropertyListInput.decode([String].self, from: data) else { return [] }
        return lines
    }
}
