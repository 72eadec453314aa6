import Foundation

/// A contacts file (``ContactIndex``) read by walking its object table, as the chat logs
/// are (``BinaryChatLog``): several times faster than Foundation's decoder, and read as it
/// reads them.
extension BinaryChatLog {
    /// The entries of a binary contacts file: an array of dictionaries whose keys and values
    /// are all strings (ASCII or UTF-16, as ``string(_:)`` reads them), each entry's
    /// `global_key` and `name`. `nil` where Foundation's decoder must decide: the top object
    /// not an array, an element not such a dictionary, a key held twice or spelled `$null`,
    /// more than 64 keys in one dictionary, a reference out of the table. When the strings
    /// made would weigh more than `limit` bytes (a file that names one long string many
    /// times), ``ContactsProblem/expands(limit:)``. An ASCII `global_key` of `$null` is no
    /// key, as Foundation's decoder reads it; a `name` of `$null` is that text
    /// (``Swift/KeyedDecodingContainer/text(forKey:)``).
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
