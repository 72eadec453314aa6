import Foundation

/// The users draftline knows: built-in demo contacts, plus any listed in the data
/// directory's `contacts.plist` (an array of dictionaries with `global_key` and `name`).
///
/// `contacts.plist` is looked up by key through its index (``ContactIndex``), never
/// decoded whole on start: a name costs a few reads whatever the number of contacts.
/// Only ``keys`` and ``contacts`` read every entry, when asked.
public struct ContactBook: Sendable {
    /// The demo contacts and those added since.
    private var known: [GlobalKey: Contact]
    /// `contacts.plist`, when there is one; its entries come before the demo contacts.
    private let index: ContactIndex?
    /// How many entries of `contacts.plist` were skipped for want of a valid key.
    public private(set) var skipped = 0
    /// Why `contacts.plist` could not be used at all, when it exists but is unusable.
    public private(set) var problem: ContactsProblem?
    /// Why `contacts.index` could not be written, when it was built and could not be: the
    /// contacts are all here, and the next start reads `contacts.plist` again.
    public private(set) var indexProblem: ContactsProblem?
    /// The call that failed, when `contacts.plist` could not be read for a reason that may
    /// pass (rather than did not parse, or is not a file): who is a contact is then not
    /// known, and nothing may be decided from it.
    public private(set) var readFailure: FileError?

    /// The demo contacts every draftline has, so `/open` has people to talk to on first run.
    public static let demo: [Contact] = [
        ("alice", "Alice Chen"), ("bob", "Bob Okafor"), ("carol", "Carol Müller"),
        ("dmitri", "Dmitri Volkov"), ("mei", "李美 (Mei Li)"),
    ].map { Contact(key: try! GlobalKey(validating: $0.0), name: $0.1) }

    public init(_ contacts: [Contact] = ContactBook.demo) {
        known = Dictionary(contacts.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        index = nil
    }

    private init(index: ContactIndex?, problem: ContactsProblem?, readFailure: FileError? = nil) {
        known = Dictionary(Self.demo.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        self.index = index
        self.problem = problem
        self.readFailure = readFailure
        skipped = index?.skipped ?? 0
        indexProblem = index?.notWritten
    }

    /// The demo contacts plus those in `<directory>/contacts.plist`, if it exists. Entries
    /// with an invalid key are skipped and counted in ``skipped``.
    public static func load(directory: String) -> ContactBook {
        do throws(FileError) {
            let root = try Directory.open(directory, create: false)
            let temporary = Result { () throws(FileError) -> Directory in
                guard let found = try root.subdirectory("tmp") else {
                    throw FileError("open", path: root.path(of: "tmp"), code: ENOENT)
                }
                return found
            }
            return load(from: root, temporary: temporary)
        } catch {
            return ContactBook(index: nil, problem: .unreadable(error), readFailure: error)
        }
    }

    /// The demo contacts plus those in `contacts.plist` of a data directory already open,
    /// its index built into `temporary` when it has to be.
    static func load(from root: Directory, temporary: Result<Directory, FileError>) -> ContactBook {
        do throws(ContactsProblem) {
            return ContactBook(index: try ContactIndex.open(in: root, temporary: temporary), problem: nil)
        } catch {
            guard case .unreadable(let failure) = error, failure.isTransient else {
                return ContactBook(index: nil, problem: error)
            }
            return ContactBook(index: nil, problem: error, readFailure: failure)
        }
    }

    /// Writes `<directory>/contacts.plist` with these contacts, in the format ``load(directory:)``
    /// reads.
    public static func write(_ contacts: [Contact], directory: String) throws(StoreError) {
        let list = contacts.map { ["global_key": $0.key.rawValue, "name": $0.name] }
        guard let data = try? PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0) else {
            throw .unavailable(
                FileError("encode", path: directory + "/" + ContactIndex.sourceName, refusal: .unencodable))
        }
        do throws(FileError) {
            let directories = try HistoryDirectories(path: directory)
            _ = try directories.root.replace(ContactIndex.sourceName, with: data, temporary: directories.temporary)
        } catch {
            throw .unavailable(error)
        }
    }

    /// Adds a contact, unless one with its key is already here.
    public mutating func add(_ contact: Contact) {
        if self[contact.key] == nil { known[contact.key] = contact }
    }

    /// The contact with this key, if any: `contacts.plist`'s first, then the others. A
    /// failed read of `contacts.index` is an error naming it: whether someone is a contact
    /// is never decided from a read that failed.
    public func contact(_ key: GlobalKey) throws(FileError) -> Contact? {
        try index?.contact(key) ?? known[key]
    }

    /// The contact with this key, for a name shown: `nil` also when `contacts.index` could
    /// not be read, so nothing is decided from it (``contact(_:)`` does that).
    public subscript(key: GlobalKey) -> Contact? { ((try? contact(key)) ?? nil) ?? known[key] }

    /// Every contact, by key: every entry of `contacts.plist` read.
    public func contacts() throws(FileError) -> [GlobalKey: Contact] {
        var all = known
        for contact in try index?.all() ?? [] { all[contact.key] = contact }
        return all
    }

    /// Every key, sorted: every entry of `contacts.plist` read.
    public func keys() throws(FileError) -> [GlobalKey] { try contacts().keys.sorted() }

    /// How many contacts there are: the index's count, and those here that it does not
    /// hold (a few lookups).
    public func count() throws(FileError) -> Int {
        var others = 0
        for key in known.keys where try index?.contact(key) == nil { others += 1 }
        return (index?.count ?? 0) + others
    }

    /// The keys that start with `prefix`, sorted, at most `limit` of them: only the part of
    /// `contacts.plist`'s index that holds them is read (``ContactIndex/keys(startingWith:limit:)``).
    public func keys(startingWith prefix: String, limit: Int) throws(FileError) -> [GlobalKey] {
        let indexed = try index?.keys(startingWith: prefix, limit: limit) ?? []
        let others = known.keys.filter { $0.rawValue.hasPrefix(prefix) }
        return Array(Set(indexed + others).sorted().prefix(limit))
    }
}
