/// One read of the edit line, being accounted for: what the line was given, how the read
/// ended, and where each piece of its text has gone so far.
///
/// The pieces of text accounted for: the line as it ended, and what history recalls
/// replaced of the user's text during the read (the line before the first recall, and any
/// recalled line the user changed before recalling another). Each ends in one place
/// (``Place``); the session's ledger places them, and whatever no rule placed goes on the
/// undo stack.
struct LineRead {
    /// Where a piece of the line's text went.
    enum Place: Equatable {
        /// Stored as a message, or it was blank (a blank line sends nothing).
        case sent
        /// Kept as a target's draft.
        case draft
        /// On the undo stack, with a notice.
        case undoStack
        /// Back in the next edit line, as it was.
        case givenBack
        /// Run as a command (or answered a prompt): used as the user meant it.
        case used
        /// Held by the other piece, which went somewhere itself (the recalled-over text
        /// that the line still holds).
        case heldByLine
        /// Empty: nothing to account for.
        case nothing
    }

    /// What the line started with.
    let given: TextDraft
    /// How the read ended.
    let ending: InputEvent
    /// What recalls replaced of the user's text, oldest first (empty when none did).
    let recalledOver: [TextDraft]
    /// The question the line answered, if any.
    let question: Navigator.Question?
    /// The screen's input target when the read ended.
    let target: InputTarget?
    /// That target's draft text when the read ended.
    let draft: TextDraft?

    /// Where the line went, once placed.
    private(set) var linePlace: Place?
    /// Where the recalled-over text went, once placed (all of it goes one way: each piece
    /// is kept, or set aside, or held by the line).
    private(set) var recalledPlace: Place?
    /// What the next edit line starts with, when the ledger gives something back; `nil`:
    /// the screen's draft.
    var nextLine: TextDraft?
    /// Why text went on the undo stack during this event, in order: one notice says so.
    var setAsideCauses: [DraftEvent.Cause] = []
    /// Draft events of moves made on the way that no report carried yet, for the trace.
    var traced: [Report] = []
    /// What a recall replaced that was kept as the target's draft: one line says where it
    /// is when the next edit line does not show it.
    var keptOverRecall: TextDraft?

    init(
        given: TextDraft, ending: InputEvent, recalledOver: [TextDraft], question: Navigator.Question?,
        target: InputTarget?, draft: TextDraft?
    ) {
        self.given = given
        self.ending = ending
        self.recalledOver = recalledOver.filter { !$0.text.isEmpty }
        self.question = question
        self.target = target
        self.draft = draft
        if text.isEmpty { linePlace = .nothing }
        if self.recalledOver.isEmpty { recalledPlace = .nothing }
    }

    /// The line as the read ended (empty for Ctrl-D and the end of input).
    var line: TextDraft {
        switch ending {
        case .line(let text): return TextDraft(text: text)
        case .leave(_, let draft), .interrupt(let draft): return draft
        case .quitRequest, .endOfInput: return TextDraft(text: "")
        }
    }

    var text: String { line.text }

    /// Whether the target's draft was given to this line whole (the line started with it,
    /// or with it and one insertion: a failed command typed into it, given back) and no
    /// recall took it out of sight: then whatever the line lost of it, the user's editing
    /// keys took.
    var draftWasInLine: Bool { recalledOver.isEmpty && givenHeldDraft }

    /// Whether the line started with the draft (with at most one insertion).
    var givenHeldDraft: Bool {
        guard let draft else { return false }
        return given.text.isWithOneInsertion(of: draft.text)
    }

    /// Whether the draft's text is accounted for without being set aside: it was in the
    /// line, or a recall took the line that held it, and that line is accounted for itself.
    /// (Whether another line happens to hold its characters is never asked: a coincidence
    /// is not a draft kept.)
    var draftAccounted: Bool { draft == nil || givenHeldDraft }

    /// Whether a recalled-over piece is in `holder` as it was: the same text, inside it,
    /// or with one insertion (the user came back to it and typed into it).
    func recalledHeld(_ piece: TextDraft, by holder: String) -> Bool {
        holder.contains(piece.text) || holder.isWithOneInsertion(of: piece.text)
    }

    /// Whether every recalled-over piece is in `holder` as it was.
    func recalledHeld(by holder: String) -> Bool {
        recalledOver.allSatisfy { recalledHeld($0, by: holder) }
    }

    mutating func settleLine(_ place: Place) {
        if linePlace == nil { linePlace = place }
    }

    mutating func settleRecalled(_ place: Place) {
        if recalledPlace == nil { recalledPlace = place }
    }

    /// Whether both pieces have a place.
    var isSettled: Bool { linePlace != nil && recalledPlace != nil }
}

extension String {
    /// Whether this text is `other`, or `other` with one contiguous insertion somewhere:
    /// its start and its end together cover all of `other`.
    func isWithOneInsertion(of other: String) -> Bool {
        let whole = Array(unicodeScalars)
        let part = Array(other.unicodeScalars)
        guard whole.count >= part.count else { return false }
        var prefix = 0
        while prefix < part.count && whole[prefix] == part[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < part.count - prefix && whole[whole.count - 1 - suffix] == part[part.count - 1 - suffix] {
            suffix += 1
        }
        return prefix + suffix == part.count
    }
}
