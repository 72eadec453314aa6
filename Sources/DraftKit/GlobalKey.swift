/// A user's `global_key`: the name draft keys, chat IDs and file names are built from.
///
/// Valid keys are 1–64 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a
/// letter or a digit. A `GlobalKey` can only be made from a valid key, so no draft key is
/// ever built from a missing or malformed user (the original's `privateMessage_(null)`),
/// and a key can name a directory without escaping it (`.` and `..` cannot be keys).
public struct GlobalKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key as the user typed it.
    public let rawValue: String

    /// The default identity: who draftline speaks for without `--as`, and who wrote every
    /// message stored before senders were recorded.
    public static let me = GlobalKey(known: "me")

    /// A key this file spells out, valid by sight; nothing read or typed comes here.
    private init(known text: StaticString) { rawValue = "\(text)" }

    /// A key checked already: `nil` when `text` is not one.
    init?(_ text: Substring) {
        guard IdentifierGrammar.isKey(text) else { return nil }
        rawValue = String(text)
    }

    /// The most characters a key may have.
    public static let maximumLength = IdentifierGrammar.maximumKeyLength

    /// Makes a key from text, or throws ``DraftlineError/invalidGlobalKey(_:)``.
    public init(validating text: String) throws(DraftlineError) {
        guard Self.isValid(text) else { throw .invalidGlobalKey(text) }
        rawValue = text
    }

    /// Whether `text` follows the `global_key` grammar.
    public static func isValid(_ text: String) -> Bool {
        IdentifierGrammar.isKey(text[...])
    }

    public var description: String { rawValue }

    public static func < (lhs: GlobalKey, rhs: GlobalKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
