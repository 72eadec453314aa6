/// Strings read from a property list as they are written.
extension KeyedDecodingContainer {
    /// The string under `key` as written; `nil` when the key is missing or holds no string.
    /// Foundation reads the string `$null` as "no value"; a property list has no null, so
    /// that is the text `$null`, as `plistlib` and the own readers read it.
    func text(forKey key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if contains(key), (try? decodeNil(forKey: key)) == true { return "$null" }
        return nil
    }
}
