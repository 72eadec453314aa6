/// IRCv3's typing notification (`+typing` on a TAGMSG): what the other side's input line
/// holds, never its text.
public enum TypingState: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Typing now: sent at most every ``TypingNotifier/activeInterval`` seconds while the
    /// user edits; the receiver drops it after ``TypingIndicators/activeExpiry``.
    case active
    /// Text in the input but not typing: the user left the chat with a draft in it; the
    /// receiver drops it after ``TypingIndicators/pausedExpiry``.
    case paused
    /// Not typing: the draft is gone (sent, emptied, discarded, abandoned, quit).
    case done

    /// The tag's key.
    public static let tag = "+typing"
}
