import Foundation

/// A contacts file (``ContactIndex``) read by walking its object table, as Foundation reads it.
extension BinaryChatLog {
    /// The entries of a binary contacts file (an array of dictionaries of strings); `nil`
    /// where Foundation's decoder must decide, ``ContactsProblem/expands(limit:)`` past
    /// `limit` bytes of strings. An ASCII `global_key` of `$null` is no key, as Foundation
    /// reads it; a `name` of `$null` is that text.
    static func contacts(_ data: some ContiguousBytes, limit: Int) -> Result<[ContactEntry], ContactsProblem>? {
        data.withUnsafeBytes { raw -> Result<[ContactEntry], ContactsProblem>? in
            guard let table = BinaryChatLog(table: raw), let elements = table.array(table.topObject) else { return nil }
            var entries: [ContactEntry] = []
            entries.reserveCapacity(elements.count)
            var made = 0
            var keys: [String] = []
            for element in elements {
                guard let pairs = table.dictionary(element), pairs.count <= 64 else { return nil }
                var entry = ContactEntry()
                keys.removeAll(keepingCapacity: true)
                for (keyObject, valueObject) in pairs {
                    guard let key = table.string(keyObject), !isNullMarker(key), !keys.contains(key),
                        let value = table.string(valueObject)
                    else { return nil }
                    keys.append(key)
                    made += key.utf8.count + value.utf8.count
                    guard made <= limit else { return .failure(.expands(limit: limit)) }
                    if key == "global_key" {
                        // Only an ASCII object is Foundation's "no value"; UTF-16 is the text.
                        entry.key = isNullMarker(value) && table.header(valueObject)?.kind == 0x5 ? nil : value
                    } else if key == "name" {
                        entry.name = value
                    }
                }
                entries.append(entry)
            }
            return .success(entries)
        }
    }
}
