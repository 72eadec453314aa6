import Foundation

/// A data directory and everything draftline keeps in it (the DocC article "Storage
/// layout"), opened through one type. Drafts are never here: they live in memory only.
public final class DataDirectory {
    /// The directory's path.
    public let path: String
    /// The chat history.
    public let history: PropertyListHistory

    /// Opens a data directory, creating it when missing; reads no history. `onLockWait`
    /// hears of every wait for its lock past a second, opening included.
    public init(
        path: String, segmentCapacity: Int = PropertyListHistory.defaultSegmentCapacity,
        clock: @escaping @Sendable () -> Date = { Date() }, onLockWait: ((LockWait) -> Void)? = nil
    ) throws(StoreError) {
        self.path = path
        // Only an older layout needs the contacts at start-up, to tell a user called
        // `tweet_1` from the thread `tweet 1`; contacts that cannot be read stop the upgrade.
        var contacts: ContactBook?
        history = try PropertyListHistory(
            directory: path, segmentCapacity: segmentCapacity, clock: clock, onLockWait: onLockWait,
            isUser: { (name: String) throws(FileError) -> Bool in
                let book = contacts ?? ContactBook.load(directory: path)
                contacts = book
                if let failure = book.readFailure { throw failure }
                guard let key = try? GlobalKey(validating: name) else { return false }
                return try book.contact(key) != nil
            })
    }

    /// The edit line's own history (up arrow, `^R`) of one identity.
    public func lineHistory(for identity: GlobalKey) -> LineHistoryFile {
        LineHistoryFile(identity: identity, directories: history.directories, lock: history.segments.lock)
    }

    /// The demo contacts plus those in `contacts.plist`.
    public func loadContacts() -> ContactBook {
        ContactBook.load(from: history.directories.root, temporary: .success(history.directories.temporary))
    }
}
