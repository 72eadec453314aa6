/// A reference model of SPEC §1a, written from the SPEC alone: what draftline must send,
/// keep as drafts, put on the undo stack and show in the edit line, after each abstract
/// step of a user (``ModelStep``).
///
/// It shares no code with draftline (this target depends on nothing), so that a test that
/// holds the binary to it is not holding the code to its own idea of what the user meant.
/// The law it keeps is SPEC §1a's first sentence: every piece of text in the edit line ends
/// as a message the user sent on purpose, a draft, or the undo stack, unless the user
/// deleted it with an editing key. Where the SPEC's table is silent, the comments say what
/// the model decided and why, quoting the row.
///
/// One model plays one process: ``onPipe`` selects pipe mode (SPEC §2), where a line that
/// cannot be kept in the edit line is never glued to the next one.
public struct ReferenceModel: Sendable {
    /// A draft: its text, the cursor inside it, and its media count (SPEC §1 "what a draft holds").
    public struct Draft: Equatable, Sendable {
        public var text: String
        public var cursor: Int
        public var media: Int

        public init(text: String, cursor: Int, media: Int) {
            self.text = text
            self.cursor = cursor
            self.media = media
        }
    }

    /// An entry of the undo stack: where it came from (a draft key, or `nil` for a line that
    /// was no draft's: home, a profile, the command prompt), its text and cursor.
    public struct UndoEntry: Equatable, Sendable, CustomStringConvertible {
        public var origin: String?
        public var text: String
        public var cursor: Int
        /// Media that go with the text (`/discard` drops a draft whole).
        public var media = 0
        /// Text the user deleted with an editing key: the law lets it go, so draftline may
        /// keep it or not; the first look settles which (``settle(optionalEntries:)``).
        public var optional = false
        /// An optional entry whose text the model does not know (a recalled history line:
        /// the history is libedit's); whatever is seen there settles it.
        public var anyText = false
        /// A draft's line with a `/` typed into its baseline: brought back by `/undo`, it is
        /// that attempt again (``Attempt``).
        public var attempt: Attempt? = nil
        public var description: String {
            "\(origin ?? "(line)") \(anyText ? "<any>" : text.debugDescription)\(optional ? "?" : "")"
        }
    }

    /// A line with a `/` typed into its baseline (a command attempt, or `//`), kept as a
    /// draft or on the undo stack: the line (the typed part's origin and all) and the
    /// baseline it was typed into. SPEC §1a's law: brought back, by a return or by `/undo`,
    /// the line is the same attempt and Enter never sends it (issue 28, D16; the baseline
    /// row's "brought back by /undo" read by the law: the attempt was never a message).
    public struct Attempt: Equatable, Sendable {
        public var line: ModelLine
        public var baseline: ModelLine
    }

    /// A message sent: the chat (the user's global_key), its type (`text`, `image`), its text.
    public struct Message: Equatable, Sendable, CustomStringConvertible {
        public var chat: String
        public var type: String
        public var text: String
        public var description: String { "\(chat):\(type):\(text.debugDescription)" }

        public init(chat: String, type: String, text: String) {
            self.chat = chat
            self.type = type
            self.text = text
        }
    }

    /// A screen of the stack (SPEC §2: leaving pushes, `/back` pops).
    public enum Screen: Equatable, Sendable, CustomStringConvertible {
        case home, chat(String), profile(String)
        public var description: String {
            switch self {
            case .home: "home"
            case .chat(let user): user
            case .profile(let user): "profile \(user)"
            }
        }
    }

    /// A question asked on a prompt of its own, above the screen on top of the stack.
    public enum Prompt: Equatable, Sendable {
        case none, name, command
    }

    /// The demo contacts (SPEC §2 "first run has built-in demo contacts").
    public static let users: Set<String> = ["alice", "bob", "carol", "dmitri", "mei"]
    /// A line longer than this many bytes cannot be entered (SPEC §1a "a paste is text").
    public static let lineLimit = 64 * 1024
    /// SPEC §1a "`/undo` ... 20 are kept" (README).
    public static let undoLimit = 20

    public let onPipe: Bool
    public let vi: Bool
    /// Paths `/attach` accepts (regular, readable files).
    public var attachable: Set<String> = []

    public internal(set) var screens: [Screen] = [.home]
    public internal(set) var drafts: [String: Draft] = [:]
    /// Most recent first, as `^X d` and `/drafts` list it.
    public internal(set) var undo: [UndoEntry] = []
    public internal(set) var line = ModelLine()
    /// SPEC §1a "the line's baseline": the draft as restored (text and cursor), against which
    /// "a command typed into a restored draft" is judged.
    public internal(set) var baseline = ModelLine()
    public internal(set) var prompt = Prompt.none
    /// Every message sent, in order.
    public internal(set) var sent: [Message] = []
    /// draftline quit (Ctrl-D); ``restart()`` starts the next run.
    public internal(set) var quit = false
    /// vi: whether the editor is in command mode.
    public internal(set) var commandMode = false
    /// Whether the edit line's history holds any line (it persists across runs).
    public internal(set) var historyHasLines = false

    /// The user's own line while a recall shows another (Up, `^R`), and the line as recalled.
    var saved: ModelLine?
    var recalled = ""
    /// Recalled lines the user edited that a later recall replaced: their editing is the
    /// user's text (SPEC §1a's law: no editing key deleted it), kept when the read ends.
    var edits: [ModelLine] = []
    /// The stored draft of this screen is not in the line, and not because the user deleted
    /// it: a recall or `/undo` put other text there. It must not be dropped.
    var draftDisplaced = false
    /// The drafts kept with an attempt in them (``Attempt``), by key, while the draft holds
    /// that text.
    var attempts: [String: Attempt] = [:]
    /// The last key was a Ctrl-D that warned.
    var warned = false
    /// Where no chat is open (home, a profile): the text kept in the line there for the user
    /// (given back after Enter, or brought back by /undo). It is that screen's baseline, as
    /// a chat's draft is (provenance's design: `Session.baseline`).
    var kept: ModelLine?
    /// On a terminal, the text a leave key that asks a prompt (`^X o`, `^X /`) took from a
    /// screen where no chat is open: README "a key that asks ... cancelled": back in the
    /// line when the prompt is cancelled or its command stays; on the undo stack when the
    /// user goes elsewhere.
    var heldForPrompt: ModelLine?
    /// Whether the read started from the stored draft (restored), not from a line given back.
    var startedFromDraft = false
    /// Whether this read was given the line of a command that failed (the terminal gives it
    /// back; a pipe's editing key resumes it): a `/` typed after its own is no escape.
    var givenFailedCommand = false
    /// What followed the `/` of the command that failed. README "a command that fails": a
    /// `/` typed after a `/` that failed alone is no `//` escape (the attempt again); the
    /// error's "// to send a /" holds for an attempt with a name, still there after the `//`.
    var failedName = ""

    /// What follows the `/` of `command`, the command that failed (``failedName``).
    static func failedName(of command: String) -> String {
        String(command.drop { $0 == " " || $0 == "\t" }.dropFirst())
    }

    /// Whether `typed`, a `//` line or insertion after a failed command, is that escape.
    func escapesFailed(_ typed: String) -> Bool {
        let name = failedName.drop { $0 == " " || $0 == "\t" }
        guard let first = name.first, first != "/" else { return false }
        return typed.hasPrefix("//") && typed.dropFirst(2).hasPrefix(name)
    }
    /// On a pipe, right after a command typed into the line failed: the line a terminal
    /// would give back. An empty piped line next is Enter again on it (the same attempt,
    /// nothing sent: the lead's reading of SPEC §1a's baseline row, "terminal and pipe
    /// agree"); any other piped line starts from the draft as restored.
    var enterAgain: ModelLine?

    public init(onPipe: Bool, vi: Bool = false, attachable: Set<String> = []) {
        self.onPipe = onPipe
        self.vi = vi && !onPipe
        self.attachable = attachable
    }

    /// Whether an empty line now would be Enter again on a failed line (a pipe's).
    public var entersAgain: Bool { enterAgain != nil }

    /// The user's own line: the line, or the one a recall shows another over.
    public var ownLine: ModelLine { saved ?? line }

    /// Whether a recall shows another line than the user's own.
    public var recallShowing: Bool { saved != nil }
    /// Whether a recall shows another line over an own line that holds text: Down back to
    /// an empty own line looks to the line editor like the recalled line deleted.
    public var recallShowingOverText: Bool { !(saved?.isEmpty ?? true) }

    /// The screen on top of the stack.
    public var screen: Screen { screens.last ?? .home }

    /// The draft key of the chat on top (SPEC §1 "keys": `privateMessage_<global_key>`).
    public var key: String? {
        if case .chat(let user) = screen { return "privateMessage_" + user }
        return nil
    }

    /// Whether the line is the draft exactly as restored: a piped `/drafts` typed into it
    /// then changes nothing, so a pipe can look.
    public var lineIsBaseline: Bool {
        prompt == .none && saved == nil && !draftDisplaced && line == baseline && enterAgain == nil
    }

    /// Starts the next run after a quit: drafts and the undo stack are gone (SPEC §1
    /// "where it lives"), history stays.
    /// `sent` replaces what the model thinks was sent, for a test that starts the model again
    /// after a disagreement (the history on disk stays).
    public mutating func restart(sent observed: [Message]? = nil) {
        let kept = (observed ?? sent, historyHasLines, attachable)
        self = ReferenceModel(onPipe: onPipe, vi: vi, attachable: kept.2)
        sent = kept.0
        historyHasLines = kept.1
    }

    /// Optional undo entries are settled by what draftline showed: each is kept when it is
    /// there, dropped when it is not. `seen` gives, for each optional entry in order, the
    /// text seen in its place, or `nil` when it was not there.
    public mutating func settle(optionalEntries seen: [String?]) {
        var answers = seen.makeIterator()
        undo = undo.compactMap { entry in
            guard entry.optional else { return entry }
            guard let text = answers.next() ?? nil else { return nil }
            var kept = entry
            kept.optional = false
            if kept.anyText { kept.text = text }
            kept.anyText = false
            return kept
        }
        if undo.count > Self.undoLimit { undo.removeLast(undo.count - Self.undoLimit) }
    }

    /// Takes draftline's order of the undo stack below its top entry, where the SPEC says
    /// nothing ("/undo takes the most recent entry"; "the user's own text ... as the top undo
    /// entry"). `seen` is the stack shown, most recent first. It succeeds when the entries
    /// are the model's (each optional one there or not, one of any text in place of any
    /// entry the model does not know) and the top entry is the model's first of those;
    /// otherwise nothing changes.
    public mutating func adopt(undoOrder seen: [(origin: String?, text: String)]) -> Bool {
        var unused = Array(undo.indices)
        var order: [Int] = []
        var texts: [Int: String] = [:]
        for entry in seen {
            let exact = unused.first { undo[$0].origin == entry.origin && undo[$0].text == entry.text }
            guard let place = exact ?? unused.first(where: { undo[$0].anyText && undo[$0].origin == entry.origin })
            else { return false }
            unused.removeAll { $0 == place }
            order.append(place)
            texts[place] = entry.text
        }
        guard unused.allSatisfy({ undo[$0].optional }), order.first == order.min() else { return false }
        undo = order.map { place in
            var entry = undo[place]
            entry.text = texts[place] ?? entry.text
            entry.optional = false
            entry.anyText = false
            return entry
        }
        return true
    }

    // MARK: - Steps

    /// Plays one step.
    public mutating func apply(_ step: ModelStep) {
        precondition(!quit, "a step after quitting")
        let afterWarning = warned
        let again = enterAgain
        // Only a key carries on after the quit warning, or after a failed line on a pipe:
        // an arrival is not a key.
        if step != .arrival {
            warned = false
            enterAgain = nil
        }
        // PipeMode.md "a command typed into a draft": on a pipe, a line that starts with an
        // editing key right after a failed command edits the line a terminal would give back
        // (fixing it, as there), not the draft as restored.
        if let again, step.editsInPlace {
            line = again
            line.markGivenBack()
            givenFailedCommand = true
            startedFromDraft = false
        }
        // SPEC §1a's law: a recalled line the user edited and went back from to their own
        // line (Down) is their text; libedit forgets it, draftline puts it on the undo stack
        // as the read ends, under whatever the ending puts there, unless the line holds it.
        if saved == nil, !edits.isEmpty, step.endsRead(onEmptyLine: line.isEmpty) {
            settleEdits(keptIn: line.text)
        }
        switch step {
        case .type(let text):
            precondition(!commandMode, "typing in vi's command mode")
            line.insert(text, origin: .typed)
        case .paste(let text):
            // SPEC §1a "a paste": pasted text is inserted, never entered; a newline inside a
            // paste does not send. "a paste is text": line breaks, CRs and an early
            // `ESC[201~` are text.
            // A paste over 64 KiB is refused whole, never cut (the text was never in the line;
            // provenance's answer to D11, by "the paste ends at 64 KiB").
            // An end marker right before a start marker is two pastes, back to back: each
            // is inserted, the markers are not text.
            precondition(!commandMode, "pasting in vi's command mode")
            for piece in text.split(separator: "\u{1B}[201~\u{1B}[200~") where piece.utf8.count <= Self.lineLimit {
                line.insert(String(piece), origin: .pasted)
            }
        case .backspace(let count):
            for _ in 0..<count { line.deleteBefore() }
        case .deleteUnder:
            line.deleteUnder(staysOnLine: commandMode)
        case .killLine:
            line.killLine()
        case .killToEnd:
            line.killToEnd()
            if commandMode { line.move(by: 0, limit: max(0, line.count - 1)) }
        case .home, .viHome:
            line.cursor = 0
        case .end:
            line.cursor = line.count
        case .viEnd:
            line.cursor = max(0, line.count - 1)
        case .left, .viLeft:
            line.move(by: -1)
        case .right:
            line.move(by: 1)
        case .viRight:
            line.move(by: 1, limit: max(0, line.count - 1))
        case .escape:
            // vi: Escape leaves insert mode and moves back one, as vi does.
            commandMode = true
            line.move(by: -1)
        case .viInsert:
            commandMode = false
        case .viAppend:
            if !line.isEmpty { line.move(by: 1) }
            commandMode = false
        case .redraw, .arrival, .look:
            // SPEC §1a "vi mode": every draftline key works in both maps; Ctrl-L redraws,
            // never inserts a control character. An arrival never moves the line or its
            // baseline ("the line's baseline"). A look changes nothing.
            break
        case .downOnOwnLine:
            // SPEC §1a's law: no key loses text. Down below the newest history line has
            // nothing to show: the line stays as it is.
            break
        case .recall(let text):
            recall(text)
        case .down(let text):
            // Down while a recall shows: a newer history line, or the user's own line again
            // (README "as if nothing was recalled": emacs puts the cursor where they had it,
            // vi at the start, in command mode), the edits of the recalled line theirs all the same.
            guard let own = saved, text == own.text else {
                recall(text)
                break
            }
            if line.text != recalled { edits.append(line) }
            line = own
            saved = nil
            if vi {
                // (libedit leaves vi's insert mode at a history key, `^N` too.)
                line.cursor = 0
                commandMode = true
            }
        case .recallAndReturn:
            // SPEC §1a "the line's baseline": a recall that returns to the line never moves
            // it. Over a recalled line libedit puts the cursor at the end (vi: at the start,
            // in command mode) when the history had a line to show, and returns to that
            // history line as recalled (libedit keeps no edits of a history line: the
            // model's reading, typing into a recalled line edits the history's copy).
            // Back on the user's own line, README "as if nothing was recalled": in emacs mode
            // the cursor is where they had it; vi's `j` keeps vi's place, the start.
            if saved != nil {
                if line.text != recalled { edits.append(line) }
                line = ModelLine(recalled, origin: .recalled)
                if historyHasLines { line.cursor = vi ? 0 : line.count }
            } else if historyHasLines && vi {
                line.cursor = 0
            }
            if historyHasLines && vi { commandMode = true }
        case .searchThenInterrupt(let text):
            // A search that finds the line itself leaves the cursor at the match.
            if text != line.text { recall(text) }
            interrupt()
        case .enter:
            // On a pipe, an empty line right after a failed command: Enter again on it.
            if let again, prompt == .none { line = again }
            enter()
        case .leave(let key):
            leave(key)
        case .interrupt:
            interrupt()
        case .endOfFile:
            endOfFile(afterWarning: afterWarning)
        }
        trimUndo()
    }

    /// SPEC: 20 entries are kept. Below optional entries the model cannot say which entry is
    /// the 20th: one beyond the limit then becomes optional (the next look settles it).
    mutating func trimUndo() {
        var optionalAbove = 0
        var kept: [UndoEntry] = []
        for (index, var entry) in undo.enumerated() {
            if index >= Self.undoLimit {
                guard index < Self.undoLimit + optionalAbove else { break }
                entry.optional = true
            } else if entry.optional {
                optionalAbove += 1
            }
            kept.append(entry)
        }
        undo = kept
    }

    /// A recall that shows `text`; a recall that leaves the line as it was changes nothing.
    mutating func recall(_ text: String) {
        guard text != line.text else {
            // The same text again: libedit still moves the cursor as after any recall.
            if historyHasLines { line.cursor = vi ? 0 : line.count }
            if historyHasLines && vi { commandMode = true }
            return
        }
        if saved == nil {
            // vi: the arrow key's Escape first leaves insert mode, which moves back one.
            if vi && !commandMode { line.move(by: -1) }
            saved = line
        } else if line.text != recalled {
            edits.append(line)
        }
        recalled = text
        line = ModelLine(text, cursor: vi ? 0 : nil, origin: .recalled)
        if vi { commandMode = true }
    }

    // MARK: - Screens

    /// Enters the screen on top: a chat's draft is pre-filled verbatim, cursor where it was
    /// left (SPEC §1 "restore"), and becomes the line's baseline.
    mutating func restore() {
        prompt = .none
        givenFailedCommand = false
        saved = nil
        edits = []
        draftDisplaced = false
        commandMode = false
        var attempt: Attempt?
        if let key {
            if let kept {
                line = kept
            } else if let draft = drafts[key], !draft.text.isEmpty {
                line = ModelLine(draft.text, cursor: draft.cursor, origin: .draft)
                attempt = attempts[key].flatMap { $0.line.text == draft.text ? $0 : nil }
                if let attempt {
                    line = attempt.line
                    line.cursor = draft.cursor
                }
            } else {
                line = ModelLine()
            }
        } else {
            line = kept ?? ModelLine()
        }
        // (What the line is given is its text: nothing in it typed since, but the attempt a
        // draft was kept with: typed into its baseline, it is the part typed.)
        if attempt == nil { line.forgetStretches() }
        baseline = attempt?.baseline ?? line
        startedFromDraft = !line.isEmpty
    }

    /// The text held for the prompt that ends now: back in the line (the screen's text held
    /// there, its baseline), or on the undo stack.
    mutating func settleHeldForPrompt(backInLine: Bool) {
        guard let held = heldForPrompt else { return }
        heldForPrompt = nil
        if backInLine {
            line = held
            line.cursor = held.cursor
            line.forgetStretches()
            kept = line
            baseline = line
            startedFromDraft = false
        } else {
            push(held.text, origin: nil, cursor: held.cursor)
        }
    }

    /// Whether `line` holds `text`: as a part, or as itself with one insertion (a command
    /// typed into it). A line given that text holds it while none of it was deleted: the
    /// same letters in a command typed after deleting it are not it (the conservation
    /// test, vi sequence 152: `o` kept at home, `^K`, `/open bob`).
    static func holds(_ line: ModelLine, _ text: String) -> Bool {
        if line.given == text { return line.keepsGiven }
        return line.text.contains(text) || line.insertion(into: text) != nil
    }

    /// Leaving a screen where no chat is open: the text kept there (its baseline) goes on
    /// the stack, surely when the line still held it (`entered`), optionally when the user
    /// had deleted it.
    mutating func leaveKept(_ entered: ModelLine) {
        if let kept, !kept.isEmpty {
            push(kept.text, origin: nil, cursor: kept.cursor, optional: !Self.holds(entered, kept.text))
        }
        kept = nil
    }

    /// The text held in the line goes with `line` (sent, or kept as the draft); when the
    /// line no longer holds it the user deleted it: on the stack or not (optional).
    mutating func passKept(to line: ModelLine) {
        if let kept, !kept.isEmpty, !Self.holds(line, kept.text) {
            push(kept.text, origin: nil, cursor: kept.cursor, optional: true)
        }
        kept = nil
    }

    /// Pushes `next`, unless it is the screen already on top (opening the open chat again
    /// is entering it again).
    mutating func go(to next: Screen) {
        if case .chat = next, next == screen {
        } else {
            screens.append(next)
        }
    }

    /// Pops a screen; `false` at home.
    mutating func back() -> Bool {
        guard screens.count > 1 else { return false }
        screens.removeLast()
        return true
    }

    // MARK: - The undo stack

    /// The edited recalled lines a later recall replaced go on the stack, unless `kept`
    /// (where the line's text goes) holds them.
    mutating func settleEdits(keptIn kept: String = "") {
        for edited in edits where !kept.contains(edited.text) {
            push(edited.text, origin: key, cursor: edited.cursor, optional: !edited.holdsUserText)
        }
        edits = []
    }

    mutating func push(
        _ text: String, origin: String?, cursor: Int? = nil, media: Int = 0, optional: Bool = false,
        anyText: Bool = false, attempt: Attempt? = nil
    ) {
        guard !text.isEmpty || media > 0 else { return }
        undo.insert(
            UndoEntry(
                origin: origin, text: text, cursor: min(cursor ?? text.unicodeScalars.count, text.unicodeScalars.count),
                media: media, optional: optional, anyText: anyText, attempt: attempt), at: 0)
    }

    /// The stored draft of this chat is leaving the map (sent, replaced, abandoned) while
    /// `kept` is where the line's text goes. SPEC §1a's law: it must end somewhere, unless
    /// the user deleted it with an editing key (then draftline may keep it: optional).
    ///
    /// A line that did not start from the draft (a line given back, a line /undo filled) may
    /// hold its text and still have the draft put on the stack (provenance: "whenever the
    /// line did not start from it"): optional then.
    mutating func settleStoredDraft(_ draft: Draft?, keptIn kept: String, covered: Bool = false) {
        guard let draft, !draft.text.isEmpty, !covered, let key else { return }
        // (Held as a part, or as the draft with the user's one insertion: text typed into it.
        // The conservation test, emacs sequence 517: an optional entry for a draft held so
        // was what `/undo` then took.)
        if kept.contains(draft.text) || ModelLine(kept).insertion(into: draft.text) != nil {
            if !startedFromDraft { push(draft.text, origin: key, cursor: draft.cursor, optional: true) }
            return
        }
        push(draft.text, origin: key, cursor: draft.cursor, optional: !draftDisplaced)
    }

    /// Sets a chat's draft text (empty removes the text entry; SPEC §1 "save").
    /// The attempt `line` is, kept now (``Attempt``): its baseline with a `/` typed into it,
    /// not over a recall or a line `/undo` put there.
    func attempt(_ line: ModelLine) -> Attempt? {
        guard saved == nil, !draftDisplaced, !baseline.isEmpty,
            let places = line.commandInsertion(into: baseline.text),
            places.contains(where: { $0.first == .typed && $0.text.hasPrefix("/") })
        else { return nil }
        return Attempt(line: line, baseline: baseline)
    }

    mutating func store(_ text: String, cursor: Int, in key: String) {
        if attempts[key]?.line.text != text { attempts[key] = nil }
        let media = drafts[key]?.media ?? 0
        if text.isEmpty && media == 0 {
            drafts[key] = nil
        } else {
            drafts[key] = Draft(text: text, cursor: text.isEmpty ? 0 : cursor, media: media)
        }
    }
}
