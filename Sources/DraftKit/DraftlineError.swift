/// Everything that can go wrong for a user, as data: each case carries what the line that
/// tells of it needs, and the presenter words it (`Presenter+Errors.swift`).
public enum DraftlineError: Error, Equatable, Sendable {
    /// A line started with `/` but names no command: the word as typed, and whether `//`
    /// would send it here (in a chat's line; not at home, on a profile or at `^X /`).
    case unknownCommand(String, slashSends: Bool = true)
    /// A command lacks an argument; the usage line says what it takes.
    case missingArgument(usage: String)
    /// A command got a word it does not take (one too many, or out of place).
    case unexpectedArgument(String, usage: String)
    /// A word that is not what its argument accepts.
    case invalidArgument(String, expected: ArgumentKind)
    /// Text that does not follow the `global_key` grammar.
    case invalidGlobalKey(String)
    /// A valid `global_key` that names nobody this draftline knows.
    case unknownUser(GlobalKey)
    /// `/open` with the user's own key: a chat has two people.
    case chatWithYourself(GlobalKey)
    /// A message or a chat command was given where no chat is open.
    case noChatOpen
    /// `/back` on the home screen.
    case nothingToGoBackTo
    /// A message typed where no chat is open: the start of its text.
    case notSentNoChat(String)
    /// The message could not be stored, and its text went on the undo stack: why, and
    /// the start of the text.
    case notSentSetAside(StoreError, text: String)
    /// The message could not be stored; its text is kept as the draft.
    case notSent(StoreError)
    /// A send the server refused after the user moved on: its text is the draft again and
    /// back in the edit line, which was empty (SPEC §6, the law over the network).
    case notSentBackInLine(StoreError, TextDraft)
    /// A demo peer's answer could not be stored: who answered, and why. Nothing of the
    /// user's changed.
    case peerReplyNotStored(GlobalKey, StoreError)
    /// The history on disk could not be read.
    case historyUnreadable(StoreError)
    /// `/attach` named nothing that exists: the path as given.
    case fileMissing(String)
    /// `/attach` named something that is not a regular, readable, small enough file.
    case fileUnusable(String, Attachment.Problem)
    /// `/detach n` with no attachment `n` (`nil`: `/detach` with nothing attached), and
    /// how many there are.
    case noSuchAttachment(Int?, count: Int)
    /// An `/expect` that did not hold, and what was found instead.
    case expectationFailed(Expectation, found: Expectation.Found)
    /// `/discard` with no draft here.
    case noDraftHere
    /// `/undo` with nothing lost to bring back.
    case nothingToUndo
    /// `/tour` (or `--tour`) without a terminal: the tour types into the edit line.
    case tourNeedsTerminal
    /// `/wait` ran out of time: how many messages arrived, of how many, in how long.
    case waitTimedOut(arrived: Int, wanted: Int, seconds: Double)
    /// `/wait` was stopped (Ctrl-C) before its messages arrived.
    case waitInterrupted(arrived: Int, wanted: Int)
    /// `/wait total` ended (out of time, or stopped when `seconds` is `nil`) with the open
    /// chat holding `held` messages of the `wanted`.
    case totalNotReached(held: Int, wanted: Int, seconds: Double?)
    /// A line longer than ``Session/maximumLineBytes``; its size in bytes, and whether the
    /// edit line's text went on the undo stack (a piped line over it is never typed).
    case lineTooLong(Int, setAside: Bool)
    /// A paste longer than ``Session/maximumLineBytes``; its size in bytes. Nothing of it
    /// was inserted.
    case pasteTooLong(Int)
}
