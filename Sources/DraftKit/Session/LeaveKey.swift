/// A way to leave the current input target with the edit buffer saved as its draft: the
/// terminal's equivalent of tapping the avatar or the back button while text is in the
/// input box.
///
/// The keys that do it, and their names in `~/.editrc`, belong to the front end; the
/// core knows only where each one goes.
public enum LeaveKey: String, CaseIterable, Sendable {
    /// Leave to the chat user's profile.
    case profile
    /// Go back to the previous screen.
    case back
    /// Open another chat (asks for its name).
    case open
    /// Run a command on its own prompt; the draft is back afterwards.
    case command
}
