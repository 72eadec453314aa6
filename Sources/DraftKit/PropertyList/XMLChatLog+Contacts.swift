import Foundation

/// A contacts file (``ContactIndex``) read in one pass over its bytes, as Foundation reads it.
extension XMLChatLog {
    /// The entries of an XML contacts file (an array of dictionaries of strings); `nil` where
    /// Foundation's decoder must decide. A `global_key` of `$null` is no key, as Foundation
    /// reads it; a `name` of `$null` is that text.
    static func contacts(_ data: some ContiguousBytes) -> [ContactEntry]? {
        data.withUnsafeBytes { raw -> [ContactEntry]? in
            var scanner = Scanner(bytes: raw)
            return scanner.contacts()
        }
    }
}

extension XMLChatLog.Scanner {
    /// The whole file: prolog, `<plist>`, the array of contacts, the end.
    mutating func contacts() -> [ContactEntry]? {
        guard prolog() else { return nil }
        var entries: [ContactEntry] = []
        if !take("<array/>") {
            guard take("<array>") else { return nil }
            while true {
                skipSpace()
                if take("</array>") { break }
                if take("<dict/>") {
                    entries.append(ContactEntry())
                    continue
                }
                guard take("<dict>"), let entry = contact() else { return nil }
                entries.append(entry)
            }
        }
        skipSpace()
        guard take("</plist>") else { return nil }
        skipSpace()
        return at == bytes.count ? entries : nil
    }

    /// One contact, after `<dict>`, up to `</dict>`.
    mutating func contact() -> ContactEntry? {
        var entry = ContactEntry()
        var keys: [String] = []
        while true {
            skipSpace()
            if take("</dict>") { return entry }
            guard keys.count < 64, take("<key>"), let key = text(), take("</key>"), !Self.isNull(key),
                !keys.contains(key)
            else { return nil }
            keys.append(key)
            skipSpace()
            // `string()` takes `$null` only as the whole text (Foundation's "no value").
            guard let value = string() else { return nil }
            if key == "global_key" {
                entry.key = value == "$null" ? nil : value
            } else if key == "name" {
                entry.name = value
            }
        }
    }
}
