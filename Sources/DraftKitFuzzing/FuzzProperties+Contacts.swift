// The differential property of the contacts file: draftline's own readers against
// Foundation's decoder on the same bytes (`make fuzz`: Fuzz/contacts-agree.swift; a seeded
// pass in the test suite).
import DraftKit
import Foundation

extension FuzzProperties {
    /// Wherever an own reader takes a contacts file, Foundation's decoder takes it too and
    /// reads every entry the same: the same count, each `global_key` and `name` byte for
    /// byte, `$null` read as Foundation reads it. The input is a file as it is (when it
    /// starts as a property list does) or a contacts file built from the bytes
    /// (``contactsDocument(_:)``).
    public static func contactsAgree(_ bytes: [UInt8]) -> String? {
        let data = contactsDocument(bytes)
        guard let own = PropertyListReaders.ownContacts(data) else { return nil }
        guard let foundation = PropertyListReaders.foundationContacts(data) else {
            return "an own reader took a contacts file Foundation's decoder refuses"
        }
        guard own.count == foundation.count else { return "\(own.count) entries against \(foundation.count)" }
        func same(_ a: String?, _ b: String?) -> Bool {
            a.map { Array($0.utf8) } == b.map { Array($0.utf8) }
        }
        for (index, (mine, theirs)) in zip(own, foundation).enumerated()
        where !same(mine.key, theirs.key) || !same(mine.name, theirs.name) {
            return "entry \(index): \(mine) against \(theirs)"
        }
        return nil
    }

    /// The bytes as a file when they start as a property list does (`bplist`, `<`, a
    /// byte-order mark, a space); else a contacts file built from them
    /// (``contactsTree(_:)``), binary or XML by the first byte.
    public static func contactsDocument(_ bytes: [UInt8]) -> Data {
        guard let first = bytes.first,
            ![UInt8(ascii: "b"), UInt8(ascii: "<"), 0xEF, 0xFE, 0xFF, 0x20, 0x0A].contains(first)
        else { return Data(bytes) }
        var source = ByteSource(bytes: Array(bytes.dropFirst()), plain: first & 2 == 0)
        let tree = contactsTree(&source)
        return first & 1 == 0 ? tree.binary : tree.xmlDocument
    }

    static let contactKeys = ["global_key", "name", "email", "$null", "$nullx", "global_key ", "Name", ""]
    static let contactTexts = [
        "alice", "bob", "zoe-2", "$null", "$nullify", "", "Alice Chen", "a\tb", "a\nb", "a\r\nb", "a\\b", "&",
        "<", "]]>", "caf\u{E9}", "cafe\u{301}", "\u{212B}", "李美", "😀", "\u{0}", "\u{1B}[2J", "A", "alice bob",
        String(repeating: "x", count: 70),
    ]

    /// A contacts file's shape, every part chosen by the bytes: an array of entries, most
    /// of them dictionaries of strings (ASCII or UTF-16) under the fields and other keys, some
    /// with repeats, `$null`, values of other types, elements that are no dictionary.
    static func contactsTree(_ source: inout ByteSource) -> PropertyListTree {
        var entries: [PropertyListTree] = []
        for _ in 0..<(source.next() % 6) {
            var pairs: [(PropertyListTree, PropertyListTree)] = []
            var used: Set<String> = []
            for _ in 0..<(source.next() % 4) {
                let key = source.pick(contactKeys)
                let text = source.pick(contactTexts)
                if source.plain {
                    guard used.insert(key).inserted else { continue }
                    pairs.append((.string(key), source.next() % 4 == 0 ? .wide(text) : .string(text)))
                    continue
                }
                let value: PropertyListTree
                switch source.next() % 8 {
                case 0: value = .xml(source.pick(rawXML))
                case 1: value = .integer(Int64(source.next()) - 128)
                case 2: value = .boolean(source.next() % 2 == 0)
                case 3: value = .wide(text)
                default: value = .string(text)
                }
                pairs.append((source.next() % 5 == 0 ? .wide(key) : .string(key), value))
            }
            if !source.plain && source.next() % 8 == 0 {
                entries.append(source.pick([.string("alice"), .array([]), .integer(1), .xml("<!-- c -->")]))
            } else {
                entries.append(.dictionary(pairs))
            }
        }
        return .array(entries)
    }
}
