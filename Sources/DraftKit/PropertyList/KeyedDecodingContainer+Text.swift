/// Strings read from a property list as they are written.
extension KeyedDecodingContainer {
    /// The string under `key` as written, `$null` included; `nil` when the key is missing
    /// or holds no string.
    ///
    /// Foundation's `PropertyListDecoder` reads the string `$null` (an ASCII one in a
    /// binary file, `<string>$null</string>` in XML) as "no value", the way it encodes a nil;
    /// a property list has no null of its own, so that "no value" is the text `$null`, as
    /// `plistlib` and draftline's own readers read it.
    func text(forKey key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if contains(key), (try? decodeNil(forKey: key)) == true { return "$null" }
        return nil
    }
}
