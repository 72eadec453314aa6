/// One thing the user did at the edit line: how a read of it ended, with the line at that
/// moment.
public enum InputEvent: Equatable, Sendable {
    /// Enter on this line (the whole edit line, pre-filled draft included).
    case line(String)
    /// A leave key with the edit buffer and its cursor at that moment.
    case leave(LeaveKey, TextDraft)
    /// The line was abandoned (Ctrl-C), holding this text at that moment.
    case interrupt(TextDraft)
    /// A request to quit from an empty line (Ctrl-D): with drafts in memory, the first
    /// one only warns, and only a Ctrl-D that is the very next key after the warning
    /// quits. `afterKeys`: whether other keys came before it since the previous event
    /// (typing, Ctrl-U, a cursor key, a paste), which carry on as any other event does.
    case quitRequest(afterKeys: Bool)
    /// The input ended (the end of a pipe): draftline quits.
    case endOfInput
}
