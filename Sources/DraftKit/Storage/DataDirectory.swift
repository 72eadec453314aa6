import Foundation

/// A data directory and everything draftline keeps in it, opened through one type.
///
/// ```
/// <data>/chats/, threads/, format, lock, tmp/   chat history (PropertyListHistory)
/// <data>/contacts.plist                          extra contacts (ContactBook)
/// <data>/line-history.plist                      the edit line's history (LineHistoryFile)
/// ```
///
/// The directory and its sub-directories are opened once, as descriptors; every file is
/// reached relative to them. Drafts are never here: they live in memory only.
public final class DataDirectory {
    /// The directory's path.
    public let path: String
    /// The chat history.
    public let history: PropertyListHistory
    /// The edit line's own history (up arrow, `^R`).
    public let lineHistory: LineHistoryFile

    /// Opens a data directory, creating it (mode 0700) when missing; reads no history.
    public init(
        path: String, segmentCapacity: Int = PropertyListHistory.defaultSegmentCapacity,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(StoreError) {
        self.path = path
        // Only an older layout needs the contacts at start-up, to tell a user called
        // `tweet_1` from the thread `tweet 1`.
        var contacts: ContactBook?
        history = try PropertyListHistory(
            directory: path, segmentCapacity: segmentCapacity, clock: clock,
            isUser: { name in
                if contacts == nil { contacts = ContactBook.load(directory: path) }
                return (try? GlobalKey(validating: name)).flatMap { contacts?[$0] } != nil
            })
        lineHistory = LineHistoryFile(directories: history.directories)
    }

    /// The demo contacts plus those in `contacts.plist`.
    public func loadContacts() -> ContactBook {
        ContactBook.load(from: history.directories.root, temporary: history.directories.temporary)
    }
}
