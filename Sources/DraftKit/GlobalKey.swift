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

    /// What breaks the grammar in a text that is no key (for a message that says so).
    public enum Problem: Equatable, Sendable {
        case empty
        /// More than ``maximumLength`` characters: how many.
        case tooLong(Int)
        /// The first character is not a letter `a-z` or a digit.
        case firstCharacter(Character)
        /// A character that no key holds (the first such).
        case character(Character)
        /// Capital letters, in a text that is a key in lower case (`Carol`).
        case capitals
    }

    /// What breaks the grammar in `text`; `nil` when it is a key.
    public static func problem(with text: String) -> Problem? {
        guard let first = text.first else { return .empty }
        if text.count > maximumLength { return .tooLong(text.count) }
        if text != text.lowercased() && isValid(text.lowercased()) { return .capitals }
        func allowed(_ character: Character, first: Bool) -> Bool {
            guard character.isASCII, let byte = character.asciiValue else { return false }
            let alphanumeric = (97...122).contains(byte) || (48...57).contains(byte)
            return alphanumeric || (!first && (byte == 46 || byte == 95 || byte == 45))
        }
        if !allowed(first, first: true) { return .firstCharacter(first) }
        if let bad = text.first(where: { !allowed($0, first: false) }) { return .character(bad) }
        return isValid(text) ? nil : .tooLong(text.utf8.count)
    }

    public static func < (lhs: GlobalKey, rhs: GlobalKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
