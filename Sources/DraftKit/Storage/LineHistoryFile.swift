import Foundation

/// The edit line's own history (up arrow, `^R`), kept across runs as a property list.
///
/// `<data>/line-history.plist` is a binary property list holding an array of the last
/// ``limit`` lines entered with Enter, oldest first. Drafts never reach it: a line left
/// with a key function is not entered. Written like every history file: atomically,
/// mode 0600, relative to the data directory opened once.
public struct LineHistoryFile {
    /// The file's name in the data directory.
    static let name = "line-history.plist"
    /// The most lines kept.
    public let limit: Int
    private let directories: HistoryDirectories

    /// The file's path.
    public var path: String { directories.root.path(of: Self.name) }

    init(directories: HistoryDirectories, limit: Int = 500) {
        self.directories = directories
        self.limit = limit
    }

    /// The lines, oldest first; empty when the file is missing or unreadable (or nests too
    /// deep to be read safely).
    public func load() -> [String] {
        guard let data = try? directories.root.read(Self.name),
            let lines = try? PropertyListInput.decode([String].self, from: data)
        else { return [] }
        return Array(lines.suffix(limit))
    }

    /// Replaces the file with the last ``limit`` of these lines.
    public func save(_ lines: [String]) throws(StoreError) {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        guard let data = try? encoder.encode(Array(lines.suffix(limit))) else {
            throw .unavailable("cannot encode the line history")
        }
        do {
            try directories.root.replace(Self.name, with: data, temporary: directories.temporary)
        } catch {
            throw .unavailable(error.description)
        }
    }
}
