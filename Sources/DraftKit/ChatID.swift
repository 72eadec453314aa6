/// The ID a chat's messages are kept under in history.
///
/// A chat ID has a kind and a name. Private chats and comment threads live in separate
/// namespaces, so the private chat with a user whose global_key is `tweet_1` and the
/// comment thread `/comment tweet 1` never share a history, whatever the names.
///
/// What a name may be is decided in one place, ``IdentifierGrammar``: a private chat is
/// named by the user's key, or, for two people neither of whom is `me`, by both keys in
/// order joined by `+` (`alice+bob`: ``between(_:_:)`` gives each conversation exactly one
/// name); a thread by `<kind>_<id>`. Such a name never escapes the directory it names, and
/// every private chat's name gives back its two people.
public struct ChatID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Which namespace a chat ID belongs to.
    public enum Kind: String, Hashable, Comparable, Sendable, CaseIterable {
        /// A private chat with one user; the name is the user's global_key.
        case privateChat
        /// A comment thread; the name is `<kind>_<id>`, as in `tweet_123`.
        case thread

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The one letter the journal and the chat list's index write for a kind.
        var code: Character { self == .privateChat ? "c" : "t" }

        /// The kind a one-letter code names.
        init?(code: Substring) {
            switch code {
            case "c": self = .privateChat
            case "t": self = .thread
            default: return nil
            }
        }
    }

    /// The namespace.
    public let kind: Kind
    /// The name, as stored in each message's `chatID` field.
    public let rawValue: String

    /// Makes an ID from text read from disk or typed, or returns `nil` when it is not a
    /// safe name.
    public init?(_ text: String, kind: Kind = .privateChat) {
        guard IdentifierGrammar.isChat(text[...], kind: kind) else { return nil }
        self.kind = kind
        rawValue = text
    }

    /// A name built from parts that are valid by construction (keys, a thread's kind and
    /// number): it follows the grammar, so no check is needed.
    private init(built text: String, kind: Kind) {
        self.kind = kind
        rawValue = text
    }

    /// The thread of a comment target: `<kind>_<id>`.
    static func thread(_ kind: CommentKind, _ id: UInt64) -> ChatID {
        ChatID(built: "\(kind.rawValue)_\(id)", kind: .thread)
    }

    /// The private chat of two people: one name whoever asks.
    ///
    /// A conversation with `me`, the default identity, is named by the other key alone
    /// (`bob`), as every private chat was before two people could share a data directory,
    /// so existing histories are the same conversations. Any other pair is named
    /// `<first>+<second>` in key order (`alice+bob`); `+` is outside the key grammar, so no
    /// pair's name is a user's, and a key containing `.`, `_` or `-` cannot make two pairs
    /// share one.
    public static func between(_ one: GlobalKey, _ other: GlobalKey) -> ChatID {
        if one == .me { return ChatID(built: other.rawValue, kind: .privateChat) }
        if other == .me { return ChatID(built: one.rawValue, kind: .privateChat) }
        let (first, second) = one <= other ? (one, other) : (other, one)
        return ChatID(built: "\(first)+\(second)", kind: .privateChat)
    }

    /// The two people of a private chat (`me` and the user, or both of a pair); `nil` for a
    /// comment thread.
    public var people: (GlobalKey, GlobalKey)? {
        guard kind == .privateChat else { return nil }
        if let (first, second) = IdentifierGrammar.pair(rawValue[...]), let one = GlobalKey(first),
            let other = GlobalKey(second)
        {
            return (one, other)
        }
        return GlobalKey(rawValue[...]).map { (.me, $0) }
    }

    /// Whether `user` is one of the two people of this private chat.
    public func includes(_ user: GlobalKey) -> Bool {
        guard let people else { return false }
        return people.0 == user || people.1 == user
    }

    /// The other person in this private chat, for `user` (`user` again in a chat with
    /// oneself); `nil` for a thread or a chat `user` is not in.
    public func otherPerson(for user: GlobalKey) -> GlobalKey? {
        guard let (first, second) = people else { return nil }
        if first == user { return second }
        if second == user { return first }
        return nil
    }

    /// Whether a name has the shape of a comment thread's: `tweet_123`, `topic_7`, `task_42`.
    public static func looksLikeThread(_ name: String) -> Bool { IdentifierGrammar.isThread(name[...]) }

    public var description: String { rawValue }

    public static func < (lhs: ChatID, rhs: ChatID) -> Bool { (lhs.kind, lhs.rawValue) < (rhs.kind, rhs.rawValue) }
}
