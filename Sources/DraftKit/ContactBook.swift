import Foundation

/// The users draftline knows: built-in demo contacts, plus any listed in the data
/// directory's `contacts.plist` (an array of dictionaries with `global_key` and `name`).
public struct ContactBook: Sendable {
    /// Every contact, by key.
    public private(set) var contacts: [GlobalKey: Contact]
    /// How many entries of `contacts.plist` were skipped for want of a valid key.
    public private(set) var skipped = 0
    /// Why `contacts.plist` could not be used at all, when it exists but is unusable.
    public private(set) var problem: String?

    /// The demo contacts every draftline has, so `/open` has people to talk to on first run.
    public static let demo: [Contact] = [
        ("alice", "Alice Chen"), ("bob", "Bob Okafor"), ("carol", "Carol Müller"),
        ("dmitri", "Dmitri Volkov"), ("mei", "李美 (Mei Li)"),
    ].map { Contact(key: try! GlobalKey(validating: $0.0), name: $0.1) }

    public init(_ contacts: [Contact] = ContactBook.demo) {
        self.contacts = Dictionary(contacts.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The demo contacts plus those in `<directory>/contacts.plist`, if it exists. Entries
    /// with an invalid key are skipped and counted in ``skipped``.
    public static func load(directory: String) -> ContactBook {
        do {
            return load(from: try Directory.open(directory, create: false))
        } catch {
            var book = ContactBook()
            book.problem = "contacts.plist cannot be read (\(error.reason)): only the demo contacts are here"
            return book
        }
    }

    /// The demo contacts plus those in `contacts.plist` of a data directory already open.
    static func load(from directory: Directory) -> ContactBook {
        var book = ContactBook()
        let data: Data
        do {
            guard let read = try directory.read("contacts.plist", limit: 1024 * 1024) else { return book }
            data = read
        } catch {
            book.problem = "contacts.plist cannot be read (\(error.reason)): only the demo contacts are here"
            return book
        }
        guard let list = try? PropertyListInput.propertyList(from: data) as? [Any] else {
            book.problem =
                "contacts.plist is not a property list holding an array: only the demo contacts are here"
            return book
        }
        for item in list {
            guard let entry = item as? [String: Any] else {
                book.skipped += 1
                continue
            }
            guard let text = entry["global_key"] as? String, let key = try? GlobalKey(validating: text) else {
                book.skipped += 1
                continue
            }
            book.contacts[key] = Contact(key: key, name: entry["name"] as? String ?? text)
        }
        return book
    }

    /// Writes `<directory>/contacts.plist` with these contacts, in the format ``load(directory:)``
    /// reads.
    public static func write(_ contacts: [Contact], directory: String) throws(StoreError) {
        let list = contacts.map { ["global_key": $0.key.rawValue, "name": $0.name] }
        guard let data = try? PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0) else {
            throw .unavailable("cannot encode the contacts")
        }
        do {
            let directories = try HistoryDirectories(path: directory)
            try directories.root.replace("contacts.plist", with: data, temporary: directories.temporary)
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Adds a contact, unless one with its key is already here.
    public mutating func add(_ contact: Contact) {
        if contacts[contact.key] == nil { contacts[contact.key] = contact }
    }

    /// The contact with this key, if any.
    public subscript(key: GlobalKey) -> Contact? { contacts[key] }

    /// Every key, sorted.
    public var keys: [GlobalKey] { contacts.keys.sorted() }
}
