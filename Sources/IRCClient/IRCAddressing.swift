import DraftKit
import IRCProtocol

/// Where draftline's input targets are on IRC, and back: pure functions.
///
/// A private chat with `bob` is the PRIVMSG conversation with the nick `bob`; the comment
/// thread `tweet_<id>` (`topic_`, `task_`) is the channel `#tweet_<id>`; a reply to `@bob`
/// in a thread is sent as `bob: text`. A nick is a user's global_key when, lower-cased, it
/// is one; a global_key is a nick when IRC allows it (no `.`, not starting with a digit).
public enum IRCAddressing {
    /// The nick for a global_key, or `nil` when IRC has no such nick (`a.b`, `1abc`, too
    /// long for `maximumLength`).
    public static func nick(for key: GlobalKey, maximumLength: Int = 30) -> String? {
        IRCNames.isValidNick(key.rawValue, maximumLength: maximumLength) ? key.rawValue : nil
    }

    /// The global_key a nick stands for (`Bob` is `bob`), or `nil` when it stands for none
    /// (`[away]`).
    public static func key(forNick nick: String) -> GlobalKey? {
        try? GlobalKey(validating: IRCNames.folded(nick, mapping: .ascii))
    }

    /// Where a message to `target` goes, and what goes before its text.
    public static func destination(of target: InputTarget) -> (name: String, prefix: String) {
        switch target {
        case .privateChat(let user): return (user.rawValue, "")
        case .comment(let kind, let id, let replyTo):
            return ("#\(kind.rawValue)_\(id)", replyTo.map { "\($0.rawValue): " } ?? "")
        }
    }

    /// The channel of a comment thread, `nil` for a private chat.
    public static func channel(of target: InputTarget) -> String? {
        guard case .comment = target else { return nil }
        return destination(of: target).name
    }

    /// The comment thread a channel is (`#tweet_123`), with no reply; `nil` for any other
    /// channel.
    public static func thread(forChannel channel: String) -> InputTarget? {
        let name = IRCNames.folded(String(channel.dropFirst()), mapping: .ascii)
        guard channel.hasPrefix("#"), let underscore = name.firstIndex(of: "_"),
            let kind = CommentKind(rawValue: String(name[..<underscore])), ChatID.looksLikeThread(name),
            let id = UInt64(name[name.index(after: underscore)...])
        else { return nil }
        return .comment(kind, id: id, replyTo: nil)
    }

    /// Where a received message belongs and its text without a reply's `bob: `: a private
    /// message is the chat with its sender; a channel's is its thread, a reply to `bob`
    /// when the text starts with `bob: ` and `isAddressable(bob)` (bob is in the channel,
    /// or is this client). `nil` when no draftline chat holds it.
    public static func place(
        _ conversation: Conversation, sender: String, text: String, isAddressable: (String) -> Bool
    ) -> (target: InputTarget, text: String)? {
        switch conversation {
        case .nick:
            guard let key = key(forNick: sender) else { return nil }
            return (.privateChat(key), text)
        case .channel(let channel):
            guard case .comment(let kind, let id, _)? = thread(forChannel: channel) else { return nil }
            if let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")),
                text.utf8[text.utf8.index(after: colon)...].first == 0x20
            {
                let nick = String(Substring(text.utf8[..<colon]))
                if IRCNames.isValidNick(nick, maximumLength: 64), isAddressable(nick), let key = key(forNick: nick) {
                    let rest = String(Substring(text.utf8[text.utf8.index(colon, offsetBy: 2)...]))
                    return (.comment(kind, id: id, replyTo: key), rest)
                }
            }
            return (.comment(kind, id: id, replyTo: nil), text)
        }
    }
}
