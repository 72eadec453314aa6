/// The ID a chat's messages are kept under in history.
///
/// A chat ID has a kind and a name. Private chats and comment threads live in separate
/// namespaces, so the private chat with a user whose global_key is `tweet_1` and the
/// comment thread `/comment tweet 1` never share a history, whatever the names.
///
/// A name is 1–80 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a letter
/// or a digit, so it never escapes the directory it names.
public struct ChatID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Which namespace a chat ID belongs to.
    public enum Kind: String, Hashable, Comparable, Sendable, CaseIterable {
        /// A private chat with one user; the name is the user's global_key.
        case privateChat
        /// A comment thread; the name is `<kind>_<id>`, as in `tweet_123`.
        case thread

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The namespace.
    public let kind: Kind
    /// The name, as stored in each message's `chatID` field.
    public let rawValue: String

    /// Makes an ID from text read from disk or typed, or returns `nil` when it is not a
    /// safe name.
    public init?(_ text: String, kind: Kind = .privateChat) {
        guard Self.isValid(text) else { return nil }
        self.kind = kind
        rawValue = text
    }

    init(unchecked text: String, kind: Kind) {
        assert(Self.isValid(text))
        self.kind = kind
        rawValue = text
    }

    static func isValid(_ text: String) -> Bool {
        IdentifierGrammar.matches(text, maximumLength: 80)
    }

    /// Whether a name has the shape of a comment thread's: `tweet_123`, `topic_7`, `task_42`.
    public static func looksLikeThread(_ name: String) -> Bool {
        guard let underscore = name.firstIndex(of: "_"), CommentKind(rawValue: String(name[..<underscore])) != nil
        else { return false }
        let digits = name[name.index(after: underscore)...].utf8
        return !digits.isEmpty && digits.first != UInt8(ascii: "0")
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    public var description: String { rawValue }

    public static func < (lhs: ChatID, rhs: ChatID) -> Bool { (lhs.kind, lhs.rawValue) < (rhs.kind, rhs.rawValue) }
}
