import Foundation

/// The users draftline knows: built-in demo contacts, plus any listed in the data
/// directory's `contacts.plist` (an array of dictionaries with `global_key` and `name`).
public struct ContactBook: Sendable {
    /// Every contact, by key.
    public private(set) var contacts: [GlobalKey: Contact]
    /// How many entries of `contacts.plist` were skipped for want of a valid key.
    public private(set) var skipped = 0

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
        var book = ContactBook()
        guard let data = try? FileSystem.read(directory + "/contacts.plist"),
            let list = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]]
        else { return book }
        for entry in list {
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
    public static func write(_ contacts: [Contact], directory: String) throws(StorageError) {
        let list = contacts.map { ["global_key": $0.key.rawValue, "name": $0.name] }
        let path = directory + "/contacts.plist"
        guard let data = try? PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0) else {
            throw StorageError("encode", path: path, code: 0, detail: "cannot encode the contacts")
        }
        try FileSystem.replace(path, with: data, temporaryDirectory: directory + "/tmp")
    }

    /// The contact with this key, if any.
    public subscript(key: GlobalKey) -> Contact? { contacts[key] }

    /// Every key, sorted.
    public var keys: [GlobalKey] { contacts.keys.sorted() }
}
