/// One entry of `contacts.plist` as read: the strings its dictionary holds under
/// `global_key` and `name`, where it holds them.
///
/// An entry whose key is missing, not a string, `$null` or not a valid global key is
/// skipped (``ContactBook/skipped``); one without a name is named by its key. Every reader
/// of the file (``BinaryChatLog``, ``XMLChatLog``, Foundation's decoder) gives these.
public struct ContactEntry: Equatable, Sendable {
    /// What `global_key` holds as a string; `nil` for no string (Foundation's decoder reads
    /// `$null` as no value).
    public var key: String?
    /// What `name` holds as a string, `$null` included; `nil` for no string.
    public var name: String?

    public init(key: String? = nil, name: String? = nil) {
        self.key = key
        self.name = name
    }
}

extension ContactEntry: Decodable {
    private enum Keys: String, CodingKey {
        case key = "global_key"
        case name
    }

    /// Anything else (another type, a missing field) reads as nothing.
    public init(from decoder: any Decoder) throws {
        let container = try? decoder.container(keyedBy: Keys.self)
        key = try? container?.decode(String.self, forKey: .key)
        name = container?.text(forKey: .name)
    }
}
