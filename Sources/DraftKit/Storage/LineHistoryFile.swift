import Foundation

/// The edit line's own history (up arrow, `^R`) of one identity: the last ``limit`` lines
/// entered with Enter, in `line-history.<global_key>.plist`. Each line is appended as bash's
/// `histappend` does (the file read again under the lock), so two sessions merge their
/// lines. The shared `line-history.plist` of before is never read: no identity can tell
/// its own lines in it.
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

    /// The lines, oldest first; empty when the file is missing. One that cannot be read, or
    /// holds no list of lines, throws and is left as it is.
    public func load() throws(StoreError) -> [String] {
        do throws(FileError) { return Array(try read().suffix(limit)) } catch { throw .unavailable(error) }
    }

    /// Adds a line at the end of the file as it is now, waiting for the lock.
    public func append(_ line: String) throws(StoreError) {
        _ = try append([line], waiting: true)
    }

    /// Adds `lines` at the end of the file as it is now, keeping the last ``limit``. Without
    /// `waiting`, `false` and nothing written when another process holds the lock: a key
    /// typed meanwhile is never kept waiting by the edit line's history.
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

    /// The file's lines; empty when there is none. A failed read throws: the lines are
    /// written back with one more, so it must never read as none.
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
