import Foundation

/// The edit line's own history (up arrow, `^R`), kept across runs as a property list.
///
/// `<data>/line-history.plist` is a binary property list holding an array of the last
/// ``limit`` lines entered with Enter, oldest first. Drafts never reach it: a line left
/// with a key function is not entered. Written like every history file: atomically,
/// mode 0600.
public struct LineHistoryFile: Sendable {
    /// The file's path.
    public let path: String
    /// The most lines kept.
    public let limit: Int
    private let temporaryDirectory: String

    public init(directory: String, limit: Int = 500) {
        path = directory + "/line-history.plist"
        temporaryDirectory = directory + "/tmp"
        self.limit = limit
    }

    /// The lines, oldest first; empty when the file is missing or unreadable.
    public func load() -> [String] {
        guard let data = try? FileSystem.read(path),
            let lines = try? PropertyListDecoder().decode([String].self, from: data)
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
            try FileSystem.replace(path, with: data, temporaryDirectory: temporaryDirectory)
        } catch {
            throw .unavailable(error.description)
        }
    }
}
