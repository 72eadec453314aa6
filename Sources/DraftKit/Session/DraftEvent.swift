/// Something that happened to a draft, for the trace: what, to which key, why, and the
/// draft (as it now is, or, for a removal, as it was). Text that leaves the edit line
/// without being sent or kept as a draft goes on the undo stack, and its event says so.
///
/// Every lookup, save and send the original input view makes has an event, even when it
/// changes nothing (``Kind/unchanged``), so a trace can be laid beside the original's log.
public struct DraftEvent: Equatable, Sendable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// Stored or replaced.
        case saved
        /// Removed: by a send, or by leaving with an empty line.
        case removed
        /// Brought back into the edit line or the store.
        case restored
        /// Removed by a blank line, which sends nothing.
        case cleared
        /// Put on the undo stack (or, quitting or the stack full, forgotten).
        case discarded
        /// Looked at and left as it was: entering a target with no draft, leaving with an
        /// empty line where there was none, a send with no draft to take.
        case unchanged
    }

    /// Why it happened.
    public enum Cause: Equatable, Sendable {
        /// A leave key with text in the line.
        case left(LeaveKey)
        /// A leave key with an empty line.
        case leftEmpty(LeaveKey)
        /// A command typed on the target's screen (`/open`, `/profile`, `/back`,
        /// `/comment`) took the user elsewhere: the draft stays as it is, since a command
        /// never changes it, and the original's save on leaving is made all the same.
        case leftByCommand
        /// `/attach` added this file name.
        case attached(String)
        /// `/detach`.
        case detached
        /// Entering the target: the draft is in the edit line again.
        case entering(InputTarget)
        /// A send, which removes the draft first, as the original does.
        case sending
        /// A blank line, which sends nothing.
        case blankLine
        /// A send that failed: what was not stored is the draft again.
        case sendFailed
        /// A send that failed where no edit line can take the text back (a pipe): it went
        /// on the undo stack.
        case sendFailedAside
        /// A line was sent, or kept, that does not hold this draft's text: the draft went
        /// on the undo stack.
        case replacedBySend
        /// A history recall replaced the line; what it held went on the undo stack.
        case replacedByRecall
        /// A recalled line the user edited, then went back from to their own line (Down):
        /// libedit forgets such edits; they went on the undo stack.
        case recallEdited
        /// A recalled command ran; the line it replaced is the draft.
        case keptOverRecall
        /// The line was abandoned (Ctrl-C): it went on the undo stack.
        case interrupted
        /// A command typed into the draft ran, and the draft is now what the user made of it
        /// around the command (SPEC §1a, "the line's baseline": their edits are kept).
        case editedAroundCommand
        /// Enter on a line over the limit (64 KiB): refused, it went on the undo stack
        /// whole (the error line says so), to shorten after `/undo`.
        case lineTooLong
        /// Text typed where nothing can keep it (home, a profile, the command prompt) that
        /// could not go back into an edit line.
        case nowhereToKeep
        /// `/discard`.
        case discardCommand
        /// `/undo`.
        case undo
        /// Quitting forgets every draft.
        case quitting
        /// The undo stack holds ``Drafts/undoDepth`` entries: a new one forgot the oldest.
        case undoStackFull
    }

    public var kind: Kind
    /// The draft's key; `nil` for a line typed where no draft is kept.
    public var key: DraftKey?
    public var cause: Cause
    /// The draft after the event, or for `removed`, `cleared` and `discarded`, before it.
    public var draft: DraftContents

    public init(_ kind: Kind, _ key: DraftKey?, _ cause: Cause, _ draft: DraftContents) {
        self.kind = kind
        self.key = key
        self.cause = cause
        self.draft = draft
    }
}
