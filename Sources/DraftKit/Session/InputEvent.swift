/// One thing the user did at the edit line.
public enum InputEvent: Equatable, Sendable {
    /// Enter on this line (the whole edit line, pre-filled draft included).
    case line(String)
    /// A leave key with the edit buffer and its cursor at that moment.
    case leave(LeaveKey, TextDraft)
    /// Ctrl-C: the line being typed is abandoned.
    case interrupt
    /// End of input: Ctrl-D on an empty line, or the end of a pipe.
    case endOfInput
}
