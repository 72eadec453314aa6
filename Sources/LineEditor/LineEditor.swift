import BracketedPaste
import CEditLine
import CHistoryWatch
import Completion
import Glibc

/// An interactive line editor over libedit, for one terminal: the only type in draftline
/// that calls libedit.
///
/// `LineEditor` owns an `EditLine` and a `History` handle and frees both in `deinit`
/// (`el_end` also restores the terminal). What it adds to a plain `el_wgets` loop is said
/// where it is done: pre-filled lines (``readLine(prompt:prefill:cursor:pasted:inserted:)``),
/// leaving functions (``addLeavingFunction(named:help:)``), pastes (`+Paste`), what a recall
/// replaced (``Input/recalledOver``), the one output path (`+Output`) and the one waiter
/// (``InputWaiter``). Two more hold for the whole editor:
///
/// - **Ctrl-C as a key.** The terminal's interrupt character ends the read as
///   ``Input/Ending/interrupted`` in order with the keys typed before it; the terminal
///   flushes nothing. Ctrl-Z suspends, with the terminal put back first.
/// - **Keys typed ahead are the editor's.** From `init` to `deinit` the terminal stays in
///   the editor's mode, between reads too: keys typed while a command runs wait for the
///   next read and reach it exactly as typed (the line discipline never takes a Ctrl-U, a
///   Backspace or a Ctrl-D); during a wait, the interrupt key ends it and the suspend key
///   suspends (``InputWaiter/typedInterrupt``). The user's settings are back while
///   suspended and after.
public final class LineEditor {
    /// A line as the editor holds it: text and cursor (in Unicode scalars).
    public struct Line: Equatable, Sendable {
        public var text: String
        public var cursor: Int

        public init(text: String, cursor: Int) {
            self.text = text
            self.cursor = cursor
        }
    }

    /// Called with the text before the cursor when the completion key is pressed.
    public var completer: ((String) -> Completion)?

    /// Where keystrokes come from: `nil` for the terminal; otherwise a closure that
    /// returns the next key or a whole paste (its line breaks as `\n` or `\r`), or `nil` for
    /// end of input.
    ///
    /// Keys from a source go through the editor exactly as typed ones do: bindings fire,
    /// the pre-fill works, Ctrl-C (U+0003) interrupts the read; a paste is inserted as a
    /// terminal's is. draftline's tour types with it.
    public var keySource: (() -> PastePiece?)?

    /// Something besides the keyboard that a read waits for: a descriptor, a time, or
    /// both, and what to do when one comes.
    ///
    /// ``wake`` runs inside the read, between two keys: it may print with
    /// ``printAbove(_:toError:)``, and the line, its cursor, a half-typed key sequence and
    /// the editing mode's state stay as they were. Keys always come first: while a key is
    /// waiting, ``wake`` is not called, and when it did less than all there was to do (its
    /// ``timeout`` is 0) it is called again only once no key is waiting.
    public struct Watch {
        /// Readable when there is something to do; -1 for none.
        public var descriptor: Int32
        /// Seconds until something is due without the descriptor (0: the last wake left
        /// work for another); `nil` for never.
        public var timeout: () -> Double?
        /// Does (a bounded part of) it.
        public var wake: () -> Void

        public init(descriptor: Int32, timeout: @escaping () -> Double?, wake: @escaping () -> Void) {
            self.descriptor = descriptor
            self.timeout = timeout
            self.wake = wake
        }
    }

    /// What a read waits for besides keys and signals.
    public var watch: Watch?

    /// Where every wait happens: keys, signals, the watch.
    public let waiter: InputWaiter

    /// Called when a paste is longer than the editor's paste limit: nothing of it was inserted.
    public var onPasteTooLong: ((Int) -> Void)?
    /// Called while a line is read, between keys, with the line's text when keys changed it
    /// since the read began or the last call (never for what the read was given, nor in the
    /// middle of a paste or with a history search drawn): what a chat server's typing state
    /// follows. It must not print or wait.
    public var onEdit: ((String) -> Void)?

    /// Whether the terminal can move the cursor and erase (not `TERM=dumb`, not a terminal
    /// libedit does not know): without it, draftline writes no escape sequence.
    public let hasCursorMotion: Bool

    /// The private key sequences: the pre-fill and a paste. Control-key sequences: one
    /// starting with ESC would break ESC in vi mode.
    static let prefillSequence = "^X^]"
    static let prefillBytes: [CChar] = [0x18, 0x1D, 0]
    static let pasteSequence = "^X^^"
    static let pasteKeys: [wchar_t] = [0x18, 0x1E]
    /// libedit's own `ed-next-history`, run by ``nextHistoryFunction`` when a recall shows.
    static let nextHistorySequence = "^X^_"
    static let nextHistoryBytes: [CChar] = [0x18, 0x1F, 0]
    /// Puts the cursor back where the user had it on their own line, run right after
    /// libedit's `ed-next-history` (which puts it at the end) by ``nextHistoryFunction``.
    static let ownCursorSequence = "^X^\\"
    static let ownCursorFunction = "draftline-own-cursor"
    static let nextHistoryAndOwnCursorBytes: [CChar] = [0x18, 0x1F, 0x18, 0x1C, 0]
    static let prefillFunction = "draftline-prefill"
    static let pasteFunction = "draftline-paste"
    static let completeFunction = "draftline-complete"
    static let interruptFunction = "draftline-interrupt"
    static let suspendFunction = "draftline-suspend"
    static let nextHistoryFunction = "draftline-next-history"

    let editLine: OpaquePointer
    let history: OpaquePointer
    /// The history function libedit calls (`CHistoryWatch`): it tells this editor when a
    /// read consults the history. Owned here, freed in `deinit` after the editor ends; its
    /// context is this editor, unretained, which outlives it.
    private var watcher: OpaquePointer?
    /// The prompt, NUL-terminated, in memory that stays put: libedit keeps the pointer the
    /// prompt function returns.
    private var prompt: UnsafeMutableBufferPointer<CChar>
    var promptText = ""
    /// The user's own line as it was at the first recall, while a Down may bring it back
    /// (``Slot/ownCursor``).
    var pendingOwnLine: Line?
    var slots: [(name: String, action: Slot)] = []
    var bindings: [(keys: String, function: String)] = []
    let keys: KeyReader
    /// Whether a history search was drawn in the line before the last key (``noteCursor()``).
    var searchShown = false
    /// Whether the last key was Down (`ed-next-history`, vi's `j`) over a recall: an own
    /// line it brings back empty is a way back, not a recalled line deleted.
    var wentDown = false
    /// The cursor when the last key outside a history search was asked for: where the user
    /// left it before a recall (a search moves it through the line first).
    var cursorBeforeKey = 0
    /// What one read keeps, all of it new at each ``readLine(prompt:prefill:cursor:pasted:inserted:)``.
    struct ReadState {
        /// The text ``onEdit`` was last told of, or the read began with.
        var editedText = ""
        var pendingPrefill: (text: [wchar_t], back: Int32)?
        var pendingPaste: PendingPaste?
        /// The paste being inserted, piece by piece (``Paste``).
        var currentPaste: Paste?
        /// Where the line's parts came from (``Input/pasted``, ``Input/inserted``).
        var marks = LineMarks(givenText: false)
        /// Those of the user's own line, while a recall shows another.
        var ownMarks = LineMarks(givenText: false)
        /// The line as ``trackEdits()`` last saw it, while its marks need it.
        var seenLine: (text: [wchar_t], cursor: Int)?
        /// Whether a key source's paste was just inserted: its end comes next.
        var sourcedPasteEnds = false
        /// The pre-fill's marks, taken on with it.
        var pendingPrefillMarks = LineMarks(givenText: false)
        var leftWith: String?
        var interruptedByKey = false
        /// Keys to hand libedit before reading more (the paste's key sequence).
        var queuedKeys: [wchar_t] = []
        /// The line before each key of this read that may begin a vi search, most recent last.
        var linesBeforeKeys: [Line] = []
        /// What recalls replaced in this read (see ``Input/recalledOver``).
        var recalledOver: [Line] = []
        /// Recalled lines the user changed and then went back from to their own line, in this
        /// read (see ``Input/leftRecalls``).
        var leftRecalls: [Line] = []
        /// The recalled line on show as the user left it before the last key, while a recall
        /// shows: what they made of it, should that key take them back to their own line.
        var shownRecall: Line?
        /// The line as the last recall left it, until the next key: a recall over it unchanged
        /// replaces nothing of the user's.
        var lastRecalled: Line?
        /// Whether the history was consulted since the last key was read.
        var consultedSinceKey = false
        /// The line just before the first recall of this read: coming back to it makes the
        /// line the user's again.
        var ownLine: Line?
        /// Whether the line shows a recalled line, not the user's own (see ``Input/source``).
        var isShowingRecall = false
        /// How many keys libedit took in this read (see ``Input/keysRead``).
        var keysRead = 0
        /// The line's length and whether the cursor was at its end when the last key was asked
        /// for; `nil` at the start of a read (see ``guardTallLine()``).
        var lastShape: (length: Int, atEnd: Bool)?
    }
    var read = ReadState()

    /// The terminal's settings when the editor was made (`tcgetattr`), put back while
    /// draftline is suspended; `el_end` puts back its own copy of the same.
    let userMode: termios?
    /// Whether `el_wgets` is running: output then goes above the edit line.
    public private(set) var isReading = false

    enum Slot {
        case leave
        case prefill
        case paste
        case complete
        case interrupt
        case suspend
        case nextHistory
        case ownCursor
        case run(() -> Void)
    }

    /// Creates an editor on the standard streams, keeping 1000 lines of history.
    ///
    /// Wraps `el_init` (on `stdin`, `stdout`, `stderr`; `prog:` lines in `~/.editrc` match
    /// `programName`) and `history_init`, and turns on `EL_SIGNAL` so libedit restores the
    /// terminal when a signal arrives. Call `setlocale(LC_ALL, "")` before this. `signals`
    /// is how the executable's handlers report signals (``InputWaiter``); `pasteLimit` is the
    /// longest paste inserted, in bytes of UTF-8.
    public init(
        programName: String, pasteLimit: Int, signals: (descriptor: Int32, take: () -> InputWaiter.Signals)? = nil
    ) throws(LineEditorError) {
        let waiter = InputWaiter(signals: signals)
        self.waiter = waiter
        keys = KeyReader(pasteLimit: pasteLimit)
        var settings = termios()
        userMode = tcgetattr(0, &settings) == 0 ? settings : nil
        guard let el = dl_el_init_stdio(programName) else {
            throw LineEditorError(function: "el_init", message: "cannot initialise libedit")
        }
        guard let h = history_init() else {
            el_end(el)
            throw LineEditorError(function: "history_init", message: "cannot initialise history")
        }
        editLine = el
        history = h
        prompt = .allocate(capacity: 1)
        prompt[0] = 0
        hasCursorMotion = dl_el_has_cursor_motion(el) == 1
        try Self.check(dl_history_set_size(h, 1000), "history(H_SETSIZE)")
        try Self.check(dl_history_set_unique(h, 1), "history(H_SETUNIQUE)")
        watcher = dl_watched_history_create(
            h,
            { context in
                guard let context else { return }
                Unmanaged<LineEditor>.fromOpaque(context).takeUnretainedValue().historyConsulted()
            }, Unmanaged.passUnretained(self).toOpaque())
        guard let watcher else {
            throw LineEditorError(function: "dl_watched_history_create", message: "out of memory")
        }
        try Self.check(dl_el_set_watched_history(el, watcher), "el_set(EL_HIST)")
        try Self.check(dl_el_set_signal(el, 1), "el_set(EL_SIGNAL)")
        try Self.check(dl_el_set_edit_signals(el, 0), "el_set(EL_SETTY, -isig)")
        try Self.check(dl_el_keep_edit_mode_between_reads(el), "el_set(EL_SETTY, -x -icanon -echo -isig)")
        try Self.check(dl_el_set_editor(el, "emacs"), "el_set(EL_EDITOR)")
        try Self.check(dl_el_set_client_data(el, Unmanaged.passUnretained(self).toOpaque()), "el_set(EL_CLIENTDATA)")
        try Self.check(
            dl_el_set_prompt(el) { el in LineEditor.from(el)?.prompt.baseAddress }, "el_set(EL_PROMPT)")
        try Self.check(dl_el_set_read_function(el, Self.readTrampoline), "el_set(EL_GETCFN)")
        try addSlot(name: Self.prefillFunction, help: "insert the pending draft", action: .prefill)
        try addSlot(name: Self.pasteFunction, help: "insert the pasted text", action: .paste)
        try addSlot(name: Self.completeFunction, help: "complete a command or a name", action: .complete)
        try addSlot(name: Self.interruptFunction, help: "abandon the line (Ctrl-C)", action: .interrupt)
        try addSlot(name: Self.suspendFunction, help: "suspend draftline (Ctrl-Z)", action: .suspend)
        try addSlot(
            name: Self.nextHistoryFunction, help: "the next line of the history, if one is shown",
            action: .nextHistory)
        try bind(Self.prefillSequence, to: Self.prefillFunction)
        try bind(Self.pasteSequence, to: Self.pasteFunction)
        try bind("^I", to: Self.completeFunction)
        try bind(Self.nextHistorySequence, to: "ed-next-history")
        try addSlot(name: Self.ownCursorFunction, help: "the cursor where it was on the line", action: .ownCursor)
        try bind(Self.ownCursorSequence, to: Self.ownCursorFunction)
        let (interrupt, suspend) = Self.terminalKeys()
        try bind(Self.notation(interrupt), to: Self.interruptFunction)
        // Ctrl-C after a `^X` lead-in abandons the line too: libedit took `^X` Ctrl-C for an
        // unbound sequence and swallowed both, and the next Enter sent the line.
        try bind("^X" + Self.notation(interrupt), to: Self.interruptFunction)
        try bind(Self.notation(suspend), to: Self.suspendFunction)
        waiter.typedInterrupt = { [weak self] reading in
            self?.takeTypedKeys(reading: reading, interrupt: interrupt, suspend: suspend)
        }
    }

    deinit {
        el_end(editLine)
        dl_watched_history_free(watcher)
        history_end(history)
        prompt.deallocate()
    }

    static func check(_ result: Int32, _ function: String) throws(LineEditorError) {
        guard result == 0 else { throw LineEditorError(function: function, code: result) }
    }

    /// Reads one line from the terminal.
    ///
    /// Wraps `el_wgets`. When `prefill` is not empty, the edit line starts with it,
    /// verbatim (inserted by a private key function, never typed: no binding fires), and
    /// the cursor at `cursor` (Unicode scalars from the start; the end when
    /// `nil`). The prompt is shown as given. Bracketed paste is on while the line is read
    /// (`ESC [?2004h`, written when libedit first asks for a key: the terminal is in raw
    /// mode and the line drawn), and off again before this returns. `pasted` and `inserted`
    /// are the pre-fill's marks from an earlier read (``Input/pasted``, ``Input/inserted``).
    public func readLine(
        prompt: String, prefill: String = "", cursor: Int? = nil, pasted: [Range<Int>] = [],
        inserted: [Range<Int>] = []
    ) -> Input {
        promptText = prompt
        let bytes = prompt.utf8CString
        if bytes.count > self.prompt.count {
            self.prompt.deallocate()
            self.prompt = .allocate(capacity: bytes.count)
        }
        _ = self.prompt.initialize(from: bytes)
        read = ReadState(
            editedText: prefill,
            pendingPrefillMarks: LineMarks(givenText: !prefill.isEmpty, pasted: pasted, inserted: inserted))
        if !prefill.isEmpty {
            read.pendingPrefill = Self.pending(prefill, cursor: cursor)
            Self.prefillBytes.withUnsafeBufferPointer { el_push(editLine, $0.baseAddress) }
        }
        // A resize that came while no line was read: libedit learns the size now.
        if !waiter.take(.resize).isEmpty { el_resize(editLine) }
        var count: Int32 = 0
        errno = 0
        isReading = true
        let got = el_wgets(editLine, &count)
        let readError = errno
        // The last key may have come back to the user's own line (`^R`, `^G`, Enter), or
        // edited what was pasted.
        noteKey()
        trackEdits()
        isReading = false
        setBracketedPaste(false)
        let state = lineState
        // (Enter's newline, which libedit puts at the buffer's end, changes no recalled line.)
        var shown = state.text
        if got != nil && shown.unicodeScalars.last == "\n" { shown.unicodeScalars.removeLast() }
        let source: Input.Source =
            !read.isShowingRecall
            ? .own : read.lastRecalled.map(Self.withoutSearchPrompt) == shown ? .recalled : .recalledAndChanged
        let pastedParts = read.marks.pasted.ranges
        func input(_ ending: Input.Ending, _ line: Line) -> Input {
            // (Enter's newline, which libedit puts at the line's end, is none of its text.)
            let count = line.text.unicodeScalars.count
            let inserted = (read.marks.inserted?.runs ?? []).compactMap { run in
                run.lowerBound < count ? run.lowerBound..<min(run.upperBound, count) : nil
            }
            return Input(
                ending: ending, line: line, recalledOver: read.recalledOver, leftRecalls: read.leftRecalls,
                source: source,
                pasted: pastedParts, inserted: inserted, keysRead: read.keysRead)
        }
        if let function = read.leftWith { return input(.left(function: function), state) }
        if read.interruptedByKey { return input(.interrupted, state) }
        guard let got else { return input(readError == EINTR ? .interrupted : .endOfFile, state) }
        var text = Self.string(from: got, count: Int(count))
        if text.unicodeScalars.last == "\n" { text.unicodeScalars.removeLast() }
        return input(.entered, Line(text: text, cursor: text.unicodeScalars.count))
    }

    /// The edit buffer and the cursor position (in Unicode scalars) right now.
    ///
    /// Wraps `el_wline`.
    public var lineState: Line {
        guard let info = el_wline(editLine), let start = info.pointee.buffer else { return Line(text: "", cursor: 0) }
        let length = info.pointee.lastchar - start
        let cursor = info.pointee.cursor - start
        return Line(text: Self.string(from: start, count: length), cursor: cursor)
    }

    /// `text` for the pre-fill's key function to insert, the cursor `cursor` scalars from
    /// its start (its end when `nil`).
    static func pending(_ text: String, cursor: Int?) -> (text: [wchar_t], back: Int32) {
        let scalars = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        return (scalars, Int32(clamping: scalars.count - min(max(cursor ?? scalars.count, 0), scalars.count)))
    }

    static func from(_ el: OpaquePointer?) -> LineEditor? {
        guard let el, let data = dl_el_get_client_data(el) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    static func string(from wide: UnsafePointer<wchar_t>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for index in 0..<max(0, count) {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: wide[index])) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
