/// The one grammar of names draftline builds paths from: global_keys, and the names of
/// chats (a user's key, a pair of keys, or a comment thread).
///
/// A key is 1–64 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a letter or
/// a digit: a safe file name, never empty, `.` or `..`, and never holding a `/`. A chat's
/// name is a key (the chat of `me` with that user), two keys in order joined by `+`
/// (neither of them `me`), or, for a comment thread, `<tweet|topic|task>_<id>` with a
/// decimal id that fits 64 bits (what `/comment` takes). Nothing else is a chat, wherever the name
/// comes from (a directory, the journal, an import).
enum IdentifierGrammar {
    /// The most characters a key may have.
    static let maximumKeyLength = 64
    /// The most characters a thread's name may have.
    static let maximumThreadLength = 80

    /// Whether `text` is a global_key.
    static func isKey(_ text: Substring) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maximumKeyLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// The two keys of a pair's name (`alice+bob`), when it is one: two keys, in order,
    /// neither of them `me`.
    static func pair(_ text: Substring) -> (Substring, Substring)? {
        let keys = text.split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard keys.count == 2, isKey(keys[0]), isKey(keys[1]), keys[0] <= keys[1], keys[0] != "me", keys[1] != "me"
        else { return nil }
        return (keys[0], keys[1])
    }

    /// Whether `text` is a comment thread's name: `tweet_123`, `topic_7`, `task_0`.
    static func isThread(_ text: Substring) -> Bool {
        guard text.utf8.count <= maximumThreadLength, let underscore = text.firstIndex(of: "_"),
            CommentKind(rawValue: String(text[..<underscore])) != nil
        else { return false }
        let digits = text[text.index(after: underscore)...].utf8
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else { return false }
        // A number `/comment` takes: at most 64 bits, so no thread is out of its reach.
        return digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && UInt64(String(text[text.index(after: underscore)...])) != nil
    }

    /// Whether `text` names a chat of this kind.
    static func isChat(_ text: Substring, kind: ChatID.Kind) -> Bool {
        switch kind {
        case .privateChat: return isKey(text) || pair(text) != nil
        case .thread: return isThread(text)
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
