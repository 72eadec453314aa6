/// Where the text of an edit line came from, beyond what the session gave it (SPEC §1a:
/// the line remembers it across reads): what history recalls replaced, whether the line is
/// a recalled one, and which of it was pasted.
///
/// The front ends know it (the line editor watches every key; a piped line spells its
/// pastes out) and hand it to ``Session/handle(_:origin:)`` with each read.
public struct LineOrigin: Equatable, Sendable {
    /// What history recalls (Up, `^R`) replaced of the user's own text during the read,
    /// oldest first: the line before the first recall, then each recalled line the user
    /// changed before recalling another; an empty first line, when the user's own line was
    /// empty (the recalls replaced nothing of theirs). Text the user came back to (Down to
    /// their own line, `^R` cancelled) is in the line, not here.
    public var recalledOver: [TextDraft]
    /// Recalled lines the user changed and then went back from to their own line, oldest
    /// first: their text, which no line holds now, goes on the undo stack.
    public var leftRecalls: [TextDraft]
    /// What the line as the read ended is: the user's own (a recall and a return to the
    /// line leave it theirs), or a line recalled from history.
    public var kind: Kind
    /// The parts of the line, in Unicode scalars from its start, that were pasted into
    /// text already in the line: a paste onto an empty line is like typing it.
    public var pasted: [Range<Int>]
    /// The parts of a line that was given text (its baseline, or a line given back) typed
    /// or pasted since the baseline was given, in Unicode scalars from its start; empty
    /// when the line was given none. The rest of the line is the baseline's text, as the
    /// user edited it (SPEC §1a, "the line's baseline").
    public var inserted: [Range<Int>]

    /// Whose the line is.
    public enum Kind: Equatable, Sendable {
        /// The user's own line: typed, pasted, pre-filled.
        case own
        /// A recalled history line, as history gave it: a copy, not text of the user's.
        case recalled
        /// A recalled line the user changed since (typed into it, deleted from it).
        case recalledAndChanged
    }

    /// Whether the line is a recalled one, changed or not.
    public var isRecalled: Bool { kind != .own }

    /// An origin; `kind` is, unless given, a changed recalled line when a recall replaced
    /// anything (so that all of it is kept), else the user's own.
    public init(
        recalledOver: [TextDraft] = [], leftRecalls: [TextDraft] = [], kind: Kind? = nil, pasted: [Range<Int>] = [],
        inserted: [Range<Int>] = []
    ) {
        self.recalledOver = recalledOver
        self.leftRecalls = leftRecalls
        self.kind = kind ?? (recalledOver.isEmpty ? .own : .recalledAndChanged)
        self.pasted = pasted
        self.inserted = inserted
    }

    /// A line typed, all of it, with nothing recalled.
    public static let typed = LineOrigin()
}
