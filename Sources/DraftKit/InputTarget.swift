/// Something a user can type into: a private chat or a comment thread.
///
/// Each target has its own draft, under the key the original input view builds for it.
public enum InputTarget: Hashable, Sendable {
    /// The private chat with a user.
    case privateChat(GlobalKey)
    /// A comment on a tweet, topic or task, optionally as a reply to a user.
    case comment(CommentKind, id: UInt64, replyTo: GlobalKey?)

    /// The draft key, exactly as the original builds it.
    ///
    /// `privateMessage_<global_key>` for a private chat; `tweet_<id>_<global_key>`,
    /// `topic_<id>_<global_key>` or `task_<id>_<global_key>` for a comment, with an empty
    /// `<global_key>` when the comment replies to nobody (`tweet_123_`).
    public var draftKey: DraftKey {
        switch self {
        case .privateChat(let user):
            return DraftKey(rawValue: "privateMessage_\(user.rawValue)", target: self)
        case .comment(let kind, let id, let replyTo):
            return DraftKey(rawValue: "\(kind.rawValue)_\(id)_\(replyTo?.rawValue ?? "")", target: self)
        }
    }

    /// The ID under which this target's messages are kept in history, for `identity`, who
    /// writes in it.
    ///
    /// A private chat is the conversation of `identity` and the user
    /// (``ChatID/between(_:_:)``: the user's key when `identity` is `me`); a comment
    /// thread is `<kind>_<id>` whoever writes (all replies in one thread share it), in a
    /// namespace of its own.
    public func chatID(as identity: GlobalKey) -> ChatID {
        switch self {
        case .privateChat(let user): return ChatID.between(identity, user)
        case .comment(let kind, let id, _): return ChatID.thread(kind, id)
        }
    }

    /// The user on the other side: the chat's user, or the user a comment replies to.
    public var otherUser: GlobalKey? {
        switch self {
        case .privateChat(let user): return user
        case .comment(_, _, let replyTo): return replyTo
        }
    }
}

/// What a comment is about.
public enum CommentKind: String, CaseIterable, Sendable {
    case tweet, topic, task
}
