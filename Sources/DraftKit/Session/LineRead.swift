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
        /// A recalled line as history gave it, abandoned: history still holds it.
        case inHistory
        /// Empty: nothing to account for.
        case nothing
    }

    /// What the line started with.
    let given: TextDraft
    /// What typing into the line is judged against (``Session/baseline``), when anything.
    let baseline: TextDraft?
    /// The text the line held for the user where no draft keeps it (``Session/heldLine``).
    let held: TextDraft?
    /// How the read ended.
    let ending: InputEvent
    /// What recalls replaced of the user's text, oldest first (empty when none did).
    let recalledOver: [TextDraft]
    /// Whose the line is: the user's own, or a recalled one (``LineOrigin/Kind``).
    let kind: LineOrigin.Kind
    /// Whether the line is one recalled from history, not the user's own.
    var isRecalled: Bool { kind != .own }
    /// Whether the user's own line was empty when the first recall replaced it: nothing of
    /// theirs was displaced, so a recall over it keeps no draft.
    let ownLineWasEmpty: Bool
    /// The line's pasted parts (``LineOrigin/pasted``).
    let pasted: [Range<Int>]
    /// The runs typed or pasted since the line's baseline was given (``LineOrigin/inserted``).
    let inserted: [Range<Int>]
    /// The question the line answered, if any.
    let question: Navigator.Question?
    /// The screen's input target when the read ended.
    let target: InputTarget?
    /// That target's draft text when the read ended.
    let draft: TextDraft?
    /// Whether the line started empty, no recall in it, after a Ctrl-D warning on a read
    /// that left the target's draft emptied in the line: the user deleted the draft with
    /// editing keys then, as if in this read, and nothing since stood between.
    var emptiedBefore = false
    /// Whether the line started without the draft after any read that left it emptied in
    /// the line (a Ctrl-D warning, a command that failed or ran there): the draft is still
    /// out of the line because the user deleted it, for the quit's count and for a command
    /// typed there (``Session/emptiedDraft(_:)``). Text sent from such a line puts the draft
    /// on the undo stack, unless the line is the warning's (``emptiedBefore``).
    var emptiedEarlier = false

    /// Where the line went, once placed.
    private(set) var linePlace: Place?
    /// Where the recalled-over text went, once placed (all of it goes one way: each piece
    /// is kept, or set aside, or held by the line).
    private(set) var recalledPlace: Place?
    /// What the next edit line starts with, when the ledger gives something back; `nil`:
    /// the screen's draft.
    var nextLine: TextDraft?
    /// What the line holds for the user after this event where no draft keeps it (the
    /// baseline there, ``Session/baseline``).
    var hold: Hold = .none

    /// Text the edit line holds for the user where no draft keeps it.
    enum Hold: Equatable {
        /// None: the line's text went somewhere (or the screen has a draft to judge by).
        case none
        /// As before this event: the line came back to be fixed (a failed command, a
        /// refused Enter) or the command typed into it ran.
        case unchanged
        /// This text, given back to keep (nowhere here can keep it, or `/undo` brought it).
        case text(TextDraft)
    }
    /// Why text went on the undo stack during this event, in order: one notice says so.
    var setAsideCauses: [DraftEvent.Cause] = []
    /// The names of the files that went on the undo stack with them (Ctrl-C).
    var setAsideFiles: [String] = []
    /// Draft events of moves made on the way that no report carried yet, for the trace.
    var traced: [Report] = []
    /// What a recall replaced that was kept as the target's draft: one line says where it
    /// is when the next edit line does not show it.
    var keptOverRecall: TextDraft?

    init(
        given: TextDraft, baseline: TextDraft?, held: TextDraft?, ending: InputEvent, origin: LineOrigin,
        question: Navigator.Question?, target: InputTarget?, draft: TextDraft?
    ) {
        self.given = given
        self.baseline = baseline
        self.held = held
        self.ending = ending
        ownLineWasEmpty = origin.recalledOver.first?.text.isEmpty ?? false
        self.recalledOver = origin.recalledOver.filter { !$0.text.isEmpty }
        kind = origin.kind
        pasted = origin.pasted
        inserted = origin.inserted
        self.question = question
        self.target = target
        self.draft = draft
        if text.isEmpty { linePlace = .nothing }
        if self.recalledOver.isEmpty { recalledPlace = .nothing }
    }

    /// Where text set aside from this read comes from: the target's draft, or the line
    /// where no chat is open (``Drafts/Lost/Origin``).
    var setAsideOrigin: Drafts.Lost.Origin { target.map { .draft($0.draftKey) } ?? .line }

    /// The same, where a prompt that was asking keeps nothing of the chat's: the line.
    var setAsideOriginOutsidePrompt: Drafts.Lost.Origin { question == nil ? setAsideOrigin : .line }

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
    var draftWasInLine: Bool { recalledOver.isEmpty && (givenHeldDraft || emptiedBefore || emptiedEarlier) }

    /// The runs typed into the baseline that the line was given with (a line given back:
    /// ``Session/lineInserted``).
    var givenInserted: [Range<Int>] = []

    /// Whether the line was given a command line that had failed (``Session/lineIsFailedCommand``).
    var givenFailedCommand = false

    /// Whether the read before this one ended with the quit warning (``Session/isQuitPending``).
    var quitWasPending = false

    /// Whether the line was given a failed command line that held the draft
    /// (``Session/lineHeldDraft``): the user's editing keys made it what it is.
    var givenFailedLineHeldDraft = false

    /// Whether the line starts with the `//` that sends a literal `/`: not when its first
    /// `/` is a failed `/` alone, given back, and the user typed after it (`/` failed, then
    /// `/drafts` typed: the line is `//drafts`, a command attempt that fails again, never a
    /// message); a `/` the user typed at the line's start is the escape, and so is one
    /// added to a failed attempt with a name (`/usr/local` failed, then `//usr/local`).
    var startsWithEscapedSlash: Bool {
        guard text.hasPrefix("//") else { return false }
        guard givenFailedCommand, given.text.hasPrefix("/") else { return true }
        let name = given.text.unicodeScalars.dropFirst()
        if Self.escapes(text.unicodeScalars.dropFirst(2)[...], ArraySlice(name)) { return true }
        return inserted.contains { $0.contains(0) } && !givenInserted.contains { $0.contains(0) }
    }

    /// Whether a `/` added to a failed attempt is the `//` escape its error offers: the
    /// attempt had a name (`/usr/local` failed; not a `/` alone, or that attempt again,
    /// `//drafts`) and `after`, what follows the `//` now, still starts with it. A name
    /// deleted and another typed (`/x` failed, then `//drafts`) is an attempt again.
    static func escapes<Text: Collection<Unicode.Scalar>>(_ after: Text, _ name: ArraySlice<Unicode.Scalar>) -> Bool {
        let name = name.drop { $0 == " " || $0 == "\t" }
        guard let first = name.first, first != "/" else { return false }
        return after.starts(with: name)
    }

    /// Whether the line started with the draft: with at most one insertion, or with the
    /// runs typed around it since it was restored (a failed command typed into the draft
    /// as the user edited it, given back), nothing of it deleted; or with a failed line
    /// that held it, given back, whatever the user's editing keys deleted of it since.
    var givenHeldDraft: Bool {
        guard let draft else { return false }
        if givenFailedLineHeldDraft { return true }
        if OneInsertion(of: draft.text, in: given.text) != nil { return true }
        guard !givenInserted.isEmpty, given.text.contains(draft.text) else { return false }
        var scalars = Array(given.text.unicodeScalars)
        for run in givenInserted.reversed() where run.upperBound <= scalars.count { scalars.removeSubrange(run) }
        return String(String.UnicodeScalarView(scalars)) == draft.text
    }

    /// Whether the draft's text is accounted for without being set aside: it was in the
    /// line (or emptied in the one before, ``emptiedBefore``), or a recall took the line
    /// that held it, and that line is accounted for itself. (Whether another line happens
    /// to hold its characters is never asked: a coincidence is not a draft kept.)
    var draftAccounted: Bool { draft == nil || givenHeldDraft || emptiedBefore }

    /// Whether the line holds nothing of the text it was given, or was given none after
    /// the user deleted the draft from the line before (``emptiedBefore``), and holds what
    /// they typed since: the user emptied it and typed a new line (Ctrl-U, then another
    /// message). Sent, it does not hold the draft: the draft goes on the undo stack, as it
    /// does when a command came between (``emptiedEarlier``), so `/undo` brings it back.
    var typedAnew: Bool {
        let count = line.text.unicodeScalars.count
        guard count > 0 else { return false }
        if given.text.isEmpty { return emptiedBefore }
        return inserted.reduce(0) { $0 + $1.count } >= count
    }

    /// Whether the line was typed anew (``typedAnew``) and does not hold `draft`: the
    /// user replaced the draft with a new line, so sent, kept or abandoned, the draft goes
    /// on the undo stack and `/undo` brings it back.
    func replacedAnew(_ draft: TextDraft) -> Bool { typedAnew && !text.contains(draft.text) }

    /// What was typed into the baseline, when a `/` was (``CommandInDraft/typedInto(_:given:pasted:)``).
    /// A draft kept with an attempt in it is asked first whether a known command was typed
    /// into it as kept (` /drafts` after the attempt): that command runs; anything else is
    /// judged against the older baseline, so the attempt stays one.
    /// A line that is not the baseline with one insertion is asked for a run typed into the
    /// baseline as edited since (``typedRun``).
    var typed: CommandInDraft.Typed? {
        guard !isRecalled, let baseline else { return nil }
        if held == nil, let draft, draft != baseline,
            case .command(let command)? = CommandInDraft.typedInto(
                text, given: draft, pasted: pasted, inserted: typedRuns),
            CommandInDraft.isDeclared(command)
        {
            return .command(command)
        }
        return attemptAgain(
            CommandInDraft.typedInto(text, given: baseline, pasted: pasted, inserted: typedRuns) ?? typedRun?.typed)
    }

    /// A `//` typed into the baseline whose first `/` is a failed attempt's own, given back
    /// (`hi` restored, `/` failed, `/drafts` typed after it: `hi//drafts`), is no escape but
    /// that attempt again (``startsWithEscapedSlash`` at a line's start): never a message.
    /// The attempt's `/` is the first typed into the line given back (``givenInserted``),
    /// followed through this read's edit (text typed or deleted before it or after it); the
    /// attempt runs on over the runs typed since.
    private func attemptAgain(_ typed: CommandInDraft.Typed?) -> CommandInDraft.Typed? {
        guard givenFailedCommand, case .literalSlash? = typed else { return typed }
        let given = Array(self.given.text.unicodeScalars)
        let line = Array(text.unicodeScalars)
        let failed = givenInserted.lazy.compactMap { run -> (slash: Int, name: ArraySlice<Unicode.Scalar>)? in
            guard run.upperBound <= given.count else { return nil }
            let at = run.lowerBound + given[run].prefix { $0 == " " || $0 == "\t" }.count
            return at < run.upperBound && given[at] == "/" ? (at, given[(at + 1)..<run.upperBound]) : nil
        }.first
        let failedSlash = failed?.slash
        // Where that `/` is now: before the part this read changed, or after it (the text
        // around the attempt edited); inside it, it is no longer known to be there.
        let prefix = zip(given, line).prefix { $0 == $1 }.count
        let suffix = zip(given.reversed(), line.reversed()).prefix { $0 == $1 }.count
        let moved: Int? = failedSlash.flatMap { at in
            if at < prefix { return at }
            return at >= given.count - min(suffix, given.count - prefix) ? at + line.count - given.count : nil
        }
        guard let slash = moved, slash + 1 < line.count, line[slash] == "/", line[slash + 1] == "/",
            var end = inserted.first(where: { $0.contains(slash) })?.upperBound
        else { return typed }
        if let failed, Self.escapes(line[(slash + 2)...], failed.name) { return typed }
        while let next = inserted.first(where: { $0.lowerBound == end }) { end = next.upperBound }
        return .command(String(String.UnicodeScalarView(line[slash..<min(end, line.count)])))
    }

    /// What the line editor saw typed or pasted since the line was given its text
    /// (``inserted``); `nil` when it was given none, so all of it is new, or when the
    /// line's origin carries none (a front end that keeps no marks).
    private var typedRuns: [Range<Int>]? { given.text.isEmpty || inserted.isEmpty ? nil : inserted }

    /// A `/` run typed into the baseline as the user edited it around it, and the line
    /// without it (``CommandInDraft/typedRun(in:inserted:pasted:)``): only when the line is
    /// not the baseline with one insertion, whose insertion is the typed part.
    var typedRun: (typed: CommandInDraft.Typed, rest: TextDraft)? {
        guard !isRecalled, let baseline, !given.text.isEmpty, OneInsertion(of: baseline.text, in: text) == nil
        else { return nil }
        return CommandInDraft.typedRun(in: text, inserted: inserted, pasted: pasted)
    }

    /// Whether the line is a command typed into the baseline that is itself within
    /// ``Session/maximumLineBytes``: a command is judged by its own length, not the line's,
    /// so one typed into a draft over 64 KiB runs and the draft stays as it is.
    var typedCommandFits: Bool {
        guard case .command(let command)? = typed else { return false }
        return command.utf8.count <= Session.maximumLineBytes
    }

    /// The baseline that `kept`, kept as the target's draft, is still judged against: this
    /// read's, when a `/` was typed into it there (a command attempt, or a `//`), so that
    /// the draft brought back means what the line meant now and an attempt is never sent
    /// (issue 28, D16); `nil` when `kept` holds no such `/` and is its own baseline.
    /// `pasted`: what of `kept` was pasted (a pasted `/` is text).
    func baseline(keeping kept: TextDraft, pasted: [Range<Int>]) -> TextDraft? {
        guard let baseline, CommandInDraft.typedInto(kept.text, given: baseline, pasted: pasted) != nil else {
            return nil
        }
        return baseline
    }

    /// Whether a recalled-over piece is in `holder` as it was: the same text, or with one
    /// insertion (the user came back to it and typed into it). A holder that merely spells
    /// the piece somewhere (a history line that happens to contain the words) does not
    /// hold it: a coincidence is not the user's text kept.
    func recalledHeld(_ piece: TextDraft, by holder: String) -> Bool {
        OneInsertion(of: piece.text, in: holder) != nil
    }

    /// What may hold the recalled-over pieces where the line stays out of any draft (given
    /// back, held, or set aside whole): the line, unless it is a history line as history
    /// gave it, a copy that holds nothing of the user's however it is spelled (`help/`
    /// typed, then a recalled `help/me` refused: the `help/` is set aside, not lost).
    var holderOfRecalledOver: String { kind == .recalled ? "" : text }

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
