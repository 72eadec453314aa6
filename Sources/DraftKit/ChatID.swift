/// The ID a chat's messages are kept under in history; also its directory name.
///
/// A chat ID is 1–80 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a
/// letter or a digit, so it never escapes the history directory.
public struct ChatID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The ID as stored in each message's `chatID`.
    public let rawValue: String

    /// Makes an ID from text read from disk or typed, or returns `nil` when it is not a
    /// safe chat ID.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        rawValue = text
    }

    init(unchecked text: String) {
        assert(Self.isValid(text))
        rawValue = text
    }

    static func isValid(_ text: String) -> Bool {
        IdentifierGrammar.matches(text, maximumLength: 80)
    }

    public var description: String { rawValue }

    public static func < (lhs: ChatID, rhs: ChatID) -> Bool { lhs.rawValue < rhs.rawValue }
}
