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
/// The file all identities shared before, `line-history.plist`, is never read: it holds the
/// lines of whoever ran there (`--as alice` too), so no identity can tell its own lines
/// from another's in it.
public struct LineHistoryFile {
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

    /// The lines, oldest first; empty when the file is missing. A file that cannot be read,
    /// or that holds no list of lines (nests too deep to be read safely), throws: the
    /// caller says so, and the file is left as it is (a line entered later is added to the
    /// file as it is then, never to this failed read).
    public func load() throws(StoreError) -> [String] {
        do throws(FileError) { return Array(try read().suffix(limit)) } catch { throw .unavailable(error) }
    }

    /// Adds a line at the end of the file as it is now (another session's lines kept),
    /// keeping the last ``limit``; waits for the lock as the data directory's lock waits.
    public func append(_ line: String) throws(StoreError) {
        _ = try append([line], waiting: true)
    }

    /// Adds `lines` at the end of the file as it is now (another session's lines kept),
    /// keeping the last ``limit``. Without `waiting`, the lock is tried once: `false`, and
    /// nothing written, when another process holds it (the caller keeps the lines for the
    /// next chance; a key typed meanwhile is never kept waiting by the edit line's history).
    public func append(_ lines: [String], waiting: Bool) throws(StoreError) -> Bool {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        if let readOnly = lock.readOnly { throw .readOnly(readOnly) }
        do throws(FileError) {
            func write() throws(FileError) {
                // A file that cannot be read, or is no list of lines, is never replaced by these.
                let kept = try read()
                guard let data = try? encoder.encode(Array((kept + lines).suffix(limit))) else {
                    throw FileError("encode", path: path, refusal: .unencodable)
                }
                _ = try directories.root.replace(name, with: data, temporary: directories.temporary)
            }
            guard waiting else { return try lock.withLockIfFree(write) != nil }
            try lock.withLock(write)
            return true
        } catch {
            throw .unavailable(error)
        }
    }

    /// The file's lines; empty when there is none. A line that reads as "no value" is the
    /// text `$null` (``Line``). A read that fails, or a file that is there but holds no
    /// list (no regular file, nested too deep), throws: the lines are written back with one
    /// more, so a failed read must never read as none.
    private func read() throws(FileError) -> [String] {
        guard let data = try directories.root.read(name) else { return [] }
        guard let lines = (try? PropertyListInput.decode([Line].self, from: data))?.compactMap(\.text) else {
            throw FileError("read", path: path, refusal: .doesNotParse)
        }
        return lines
    }

    /// One entry of the file: a string as written (`$null` included, which Foundation's
    /// decoder reads as "no value"); anything else is passed over, not the whole file.
    private struct Line: Decodable {
        var text: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            text = container.decodeNil() ? "$null" : try? container.decode(String.self)
        }
    }
}
