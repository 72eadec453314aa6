import CEditLine
import Glibc

/// An interactive line editor over libedit, for one terminal.
///
/// `LineEditor` owns an `EditLine` and a `History` handle and frees both in `deinit`
/// (`el_end` also restores the terminal). It adds what draftline needs on top of a plain
/// `el_wgets` loop:
///
/// - **Pre-filled lines.** ``readLine(prompt:prefill:cursor:)`` starts the edit line with
///   the given text, verbatim (tabs, control characters, CJK, emoji), cursor where asked.
///   The text is inserted by a private key function with `el_winsertstr`, never pushed as
///   keystrokes, so it cannot fire a key binding.
/// - **Leaving functions.** Key functions, registered by name so `~/.editrc` can rebind
///   them, that end the read and hand back the whole buffer and the cursor, tagged with
///   the function's name (``Input/left(_:cursor:function:)``).
/// - **Completion** through a Swift closure.
/// - **One output path.** Everything draftline prints on a terminal goes through
///   ``write(_:toError:)``, on the same stdio streams libedit writes to; while a line is
///   being read, ``printAbove(_:toError:)`` prints above the edit line and redraws it
///   (prompt, text, cursor) untouched.
///
/// This is the only type in draftline that calls libedit.
public final class LineEditor {
    /// What one call of ``readLine(prompt:prefill:cursor:)`` produced.
    public enum Input: Equatable, Sendable {
        /// The user pressed Enter on this line (without its newline).
        case entered(String)
        /// A leaving function ended the read; the buffer and the cursor (in Unicode
        /// scalars) at that moment, and the name of the function.
        case left(String, cursor: Int, function: String)
        /// A signal interrupted the read (Ctrl-C, or a signal the caller handles); the
        /// buffer and the cursor at that moment.
        case interrupted(String, cursor: Int)
        /// End of input: Ctrl-D on an empty line, or the terminal went away.
        case endOfFile
    }

    /// What a completion closure asks the editor to do.
    public enum Completion: Equatable, Sendable {
        /// Insert this text at the cursor.
        case insert(String)
        /// Show these candidates below the line and redraw it.
        case list([String])
        /// Nothing fits: ring the bell.
        case none
    }

    /// The program name given to `el_init`; `prog:` lines in `~/.editrc` match it.
    public let programName: String

    /// Called with the text before the cursor when the completion key is pressed.
    public var completer: ((String) -> Completion)?

    /// Where keystrokes come from: `nil` for the terminal; otherwise a closure that
    /// returns the next key, or `nil` for end of input.
    ///
    /// Keys from a source go through the editor exactly as typed ones do: bindings fire,
    /// the pre-fill works; Ctrl-C (U+0003) interrupts the read, as the terminal's interrupt
    /// key does. draftline's tour types with it.
    public var keySource: (() -> Unicode.Scalar?)?

    /// What a signal asks of a read.
    public struct Wake: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// End the read as ``Input/interrupted(_:cursor:)`` (Ctrl-C).
        public static let interrupt = Wake(rawValue: 1)
        /// The terminal changed size: redraw the prompt and the line.
        public static let resize = Wake(rawValue: 2)
    }

    /// What wakes a read besides a key: a descriptor that becomes readable (the
    /// executable's signal handlers write to a pipe), and how to empty it and learn why.
    /// An interrupt ends the read whenever the signal landed, between two reads as well
    /// as during one; a resize redraws the line where the terminal put it.
    public var interruption: (descriptor: Int32, take: () -> Wake)?

    /// Something besides the keyboard that a read waits for: a descriptor, a time, or
    /// both, and what to do when one comes.
    ///
    /// ``wake`` runs inside the read, between two keys: it may print with
    /// ``printAbove(_:toError:)``, and the line, its cursor, a half-typed key sequence and
    /// the editing mode's state stay as they were. draftline shows arriving messages so.
    public struct Watch {
        /// Readable when there is something to do; -1 for none.
        public var descriptor: Int32
        /// Seconds until something is due without the descriptor; `nil` for never.
        public var timeout: () -> Double?
        /// Does it.
        public var wake: () -> Void

        public init(descriptor: Int32, timeout: @escaping () -> Double?, wake: @escaping () -> Void) {
            self.descriptor = descriptor
            self.timeout = timeout
            self.wake = wake
        }
    }

    /// What a read waits for besides keys and the interruption descriptor.
    public var watch: Watch?

    /// The private key sequence that inserts a pending pre-fill. A control-key sequence:
    /// one starting with ESC would break ESC in vi mode.
    static let prefillSequence = "^X^]"
    static let prefillBytes: [CChar] = [0x18, 0x1D, 0]
    static let prefillFunction = "draftline-prefill"
    static let completeFunction = "draftline-complete"

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    /// The prompt, NUL-terminated, in memory that stays put: libedit keeps the pointer the
    /// prompt function returns.
    private var prompt: UnsafeMutableBufferPointer<CChar>
    private var promptText = ""
    private var pendingPrefill: (text: [wchar_t], back: Int32)?
    private var leftWith: String?
    private var slots: [(name: String, action: Slot)] = []
    private var bindings: [(keys: String, function: String)] = []
    /// Whether `el_wgets` is running: output then goes above the edit line.
    public private(set) var isReading = false

    private enum Slot {
        case leave
        case prefill
        case complete
        case run(() -> Void)
    }

    /// Creates an editor on the standard streams.
    ///
    /// Wraps `el_init` (on `stdin`, `stdout`, `stderr`) and `history_init`, and turns on `EL_SIGNAL` so libedit restores
    /// the terminal when a signal arrives. Call `setlocale(LC_ALL, "")` before this.
    public init(programName: String, historySize: Int = 1000) throws(LineEditorError) {
        self.programName = programName
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
        try Self.check(dl_history_set_size(h, Int32(clamping: historySize)), "history(H_SETSIZE)")
        try Self.check(dl_history_set_unique(h, 1), "history(H_SETUNIQUE)")
        try Self.check(dl_el_set_history(el, h), "el_set(EL_HIST)")
        try Self.check(dl_el_set_signal(el, 1), "el_set(EL_SIGNAL)")
        try Self.check(dl_el_set_editor(el, "emacs"), "el_set(EL_EDITOR)")
        try Self.check(dl_el_set_client_data(el, Unmanaged.passUnretained(self).toOpaque()), "el_set(EL_CLIENTDATA)")
        try Self.check(
            dl_el_set_prompt(el) { el in LineEditor.from(el)?.prompt.baseAddress }, "el_set(EL_PROMPT)")
        try Self.check(dl_el_set_read_function(el, Self.readTrampoline), "el_set(EL_GETCFN)")
        try addSlot(name: Self.prefillFunction, help: "insert the pending draft", action: .prefill)
        try addSlot(name: Self.completeFunction, help: "complete a command or a name", action: .complete)
        try bind(Self.prefillSequence, to: Self.prefillFunction)
        try bind("^I", to: Self.completeFunction)
    }

    deinit {
        el_end(editLine)
        history_end(history)
        prompt.deallocate()
    }

    private static func check(_ result: Int32, _ function: String) throws(LineEditorError) {
        guard result == 0 else { throw LineEditorError(function: function, message: "failed (\(result))") }
    }

    /// Registers a key function that ends the read with the current buffer.
    ///
    /// Wraps `el_set(EL_ADDFN)`. Add functions before ``sourceConfiguration(path:)`` so
    /// that `~/.editrc` can bind them by name.
    public func addLeavingFunction(named name: String, help: String) throws(LineEditorError) {
        try addSlot(name: name, help: help, action: .leave)
    }

    /// Registers a key function that runs `action` and goes on reading: the line, its
    /// cursor and any pending key sequence stay as they were. The action may print with
    /// ``printAbove(_:toError:)``.
    ///
    /// Wraps `el_set(EL_ADDFN)`.
    public func addFunction(named name: String, help: String, action: @escaping () -> Void) throws(LineEditorError) {
        try addSlot(name: name, help: help, action: .run(action))
    }

    /// Binds a key sequence (libedit notation, such as `^Xp`) to a function by name, in
    /// the main key map and the alternate one (vi's command mode), so the key works in
    /// every mode.
    ///
    /// Wraps `el_set(EL_BIND)` and `el_set(EL_BIND, "-a")`. The binding is remembered and
    /// made again when a configuration file leaves the function unbound (a `bind -v` line
    /// resets the key maps).
    public func bind(_ keys: String, to function: String) throws(LineEditorError) {
        bindings.removeAll { $0.keys == keys }
        bindings.append((keys, function))
        guard bindAll(keys, function).isEmpty else {
            throw LineEditorError(function: "el_set(EL_BIND)", message: "cannot bind \(keys) to \(function)")
        }
    }

    /// Binds in the main map and in the alternate map; in vi mode also after Escape in
    /// the alternate map: in vi's command mode an Escape pressed out of habit (ESC is a
    /// lead-in there) must not swallow the key. Returns what failed.
    private func bindAll(_ keys: String, _ function: String, main: Bool = true, alternate: Bool = true) -> [String] {
        var failed: [String] = []
        if main && dl_el_bind(editLine, keys, function) != 0 { failed.append("\(keys) (\(function))") }
        if alternate
            && (dl_el_bind_alternate(editLine, keys, function) != 0
                || (dl_el_is_vi(editLine) == 1 && dl_el_bind_alternate(editLine, "^[" + keys, function) != 0))
        {
            failed.append("\(keys) (\(function), vi command mode)")
        }
        return failed
    }

    /// The key sequences bound to each function in a key map, as libedit lists them
    /// (`^Xp`, `^T`).
    ///
    /// Wraps `el_set(EL_BIND)` with no arguments (or `-a` for the alternate map), its
    /// listing captured with `el_set(EL_SETFP)`.
    public func boundKeys(alternate: Bool = false) -> [String: [String]] {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return [:] }
        let listed = dl_el_list_bindings(editLine, alternate ? 1 : 0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard listed == 0, let buffer else { return [:] }
        var result: [String: [String]] = [:]
        for line in String(cString: buffer).split(separator: "\n") {
            // "keys"          ->  function   (function names hold no quote)
            guard line.first == "\"", let close = line.lastIndex(of: "\""), close > line.startIndex else { continue }
            let keys = line[line.index(after: line.startIndex)..<close]
            let rest = line[line.index(after: close)...].drop { $0 == " " }
            guard rest.hasPrefix("->") else { continue }
            let function = rest.dropFirst(2).drop { $0 == " " }
            guard !function.isEmpty else { continue }
            result[String(function), default: []].append(String(keys))
        }
        return result
    }

    /// Sets the editing mode, `"emacs"` or `"vi"`, then binds draftline's keys again.
    ///
    /// Wraps `el_set(EL_EDITOR)`.
    public func setEditor(_ mode: String) throws(LineEditorError) {
        guard dl_el_set_editor(editLine, mode) == 0 else {
            throw LineEditorError(function: "el_set(EL_EDITOR)", message: "unknown editor '\(mode)'")
        }
        let failed = rebind()
        guard failed.isEmpty else {
            throw LineEditorError(
                function: "el_set(EL_BIND)", message: "cannot bind again: \(failed.joined(separator: ", "))")
        }
    }

    /// What reading a configuration file did.
    public struct Configuration: Equatable, Sendable {
        /// Whether there was a file to read.
        public var found: Bool
        /// The bindings that could not be made again afterwards, as `keys (function)`.
        public var failedBindings: [String]
    }

    /// Reads a libedit configuration file, then binds draftline's keys again.
    ///
    /// Wraps `el_source`: with `nil`, libedit reads `$EDITRC`, else `~/.editrc`. A
    /// `bind -e` or `bind -v` line in the file resets the key maps, so the program's own
    /// bindings are made again afterwards; a binding the file makes for a sequence
    /// draftline does not use is kept.
    @discardableResult
    public func sourceConfiguration(path: String? = nil) -> Configuration {
        let found = el_source(editLine, path) == 0
        return Configuration(found: found, failedBindings: rebind())
    }

    /// Adds a line to the edit line's history (up arrow, `^R`).
    ///
    /// Wraps `history(H_ENTER)`.
    public func addHistory(_ line: String) {
        _ = dl_history_enter(history, line)
    }

    /// Replaces the edit line's history with these lines, oldest first.
    ///
    /// Wraps `history(H_CLEAR)` and `history(H_ENTER)`.
    public func setHistory(_ lines: [String]) {
        _ = dl_history_clear(history)
        for line in lines { _ = dl_history_enter(history, line) }
    }

    /// Reads one line from the terminal.
    ///
    /// Wraps `el_wgets`. When `prefill` is not empty, the edit line starts with it,
    /// verbatim, and the cursor at `cursor` (Unicode scalars from the start; the end when
    /// `nil`). The prompt is shown as given.
    public func readLine(prompt: String, prefill: String = "", cursor: Int? = nil) -> Input {
        setPrompt(prompt)
        leftWith = nil
        pendingPrefill = nil
        if !prefill.isEmpty {
            let scalars = prefill.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            let at = min(max(cursor ?? scalars.count, 0), scalars.count)
            pendingPrefill = (scalars, Int32(clamping: scalars.count - at))
            Self.prefillBytes.withUnsafeBufferPointer { el_push(editLine, $0.baseAddress) }
        }
        var count: Int32 = 0
        errno = 0
        isReading = true
        let line = el_wgets(editLine, &count)
        isReading = false
        pendingPrefill = nil
        if let function = leftWith {
            let state = lineState
            leftWith = nil
            return .left(state.text, cursor: state.cursor, function: function)
        }
        guard let line else {
            guard errno == EINTR else { return .endOfFile }
            let state = lineState
            return .interrupted(state.text, cursor: state.cursor)
        }
        var text = Self.string(from: line, count: Int(count))
        if text.unicodeScalars.last == "\n" { text.unicodeScalars.removeLast() }
        return .entered(text)
    }

    /// The edit buffer and the cursor position (in Unicode scalars) right now.
    ///
    /// Wraps `el_wline`.
    public var lineState: (text: String, cursor: Int) {
        guard let info = el_wline(editLine) else { return ("", 0) }
        let start = info.pointee.buffer!
        let length = info.pointee.lastchar - start
        let cursor = info.pointee.cursor - start
        return (Self.string(from: start, count: length), cursor)
    }

    // MARK: - Output

    /// Writes text to standard output (or standard error) through libedit's own streams.
    ///
    /// Wraps `fwrite` and `fflush`. Returns whether every byte was written.
    @discardableResult
    public static func write(_ text: String, toError: Bool = false) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    dl_write(toError ? 1 : 0, $0, buffer.count) == 0
                }
            } ?? true
        }
    }

    /// Prints `text` (whole lines) above the edit line while a line is being read, then
    /// redraws the prompt and the line with its cursor; outside a read, writes it.
    ///
    /// Moves to the first row of the edit line (a line wider than the terminal spans
    /// several rows), erases to the end of the screen, writes the text, and asks libedit
    /// to draw the prompt and line again (`el_set(EL_REFRESH)`). The buffer, the cursor
    /// and a half-typed key sequence are libedit's and are not touched.
    public func printAbove(_ text: String, toError: Bool = false) {
        guard isReading else {
            Self.write(text, toError: toError)
            return
        }
        let state = lineState
        let before = state.text.unicodeScalars.prefix(state.cursor)
        let columns = Int(dl_el_columns(editLine))
        let row = (Self.width(of: promptText.unicodeScalars) + Self.width(of: before)) / max(columns, 1)
        Self.write("\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J")
        Self.write(text, toError: toError)
        _ = dl_el_refresh(editLine)
    }

    /// Draws the prompt and the line again from the first row of the edit line, as the
    /// terminal's new width places it (after a resize, a terminal that reflows text has
    /// moved the old drawing).
    ///
    /// Wraps `el_resize` (libedit learns the new size) and ``printAbove(_:toError:)``.
    public func redraw() {
        el_resize(editLine)
        printAbove("")
    }

    /// The columns libedit gives these characters: a control character shows as `^X`;
    /// others take what `wcwidth` says.
    private static func width<S: Sequence>(of scalars: S) -> Int where S.Element == Unicode.Scalar {
        scalars.reduce(0) { total, scalar in
            if scalar.value < 0x20 || scalar.value == 0x7F { return total + 2 }
            return total + max(0, Int(dl_wcwidth(wchar_t(bitPattern: scalar.value))))
        }
    }

    private func setPrompt(_ text: String) {
        promptText = text
        let bytes = text.utf8CString
        if bytes.count > prompt.count {
            prompt.deallocate()
            prompt = .allocate(capacity: bytes.count)
        }
        _ = prompt.initialize(from: bytes)
    }

    // MARK: - Key functions

    private func addSlot(name: String, help: String, action: Slot) throws(LineEditorError) {
        guard slots.count < Self.trampolines.count else {
            throw LineEditorError(function: "el_set(EL_ADDFN)", message: "too many key functions")
        }
        let index = slots.count
        guard dl_el_add_function(editLine, name, help, Self.trampolines[index]) == 0 else {
            throw LineEditorError(function: "el_set(EL_ADDFN)", message: "cannot add \(name)")
        }
        slots.append((name, action))
    }

    /// Inserts characters at the cursor, every one as it is, NUL included.
    ///
    /// `el_winsertstr` takes a NUL-terminated string, so text is inserted in the runs
    /// between NULs, and each NUL as a one-character placeholder that is then overwritten
    /// with 0 in libedit's line buffer (which holds NULs like any other character: it
    /// knows the line's end from `lastchar`). A draft can hold NULs: libedit's own yank can
    /// put them in the line.
    private func insertVerbatim(_ text: [wchar_t]) {
        let placeholder: [wchar_t] = [0xFFFF, 0]
        for (index, run) in text.split(separator: 0, omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                placeholder.withUnsafeBufferPointer { _ = el_winsertstr(editLine, $0.baseAddress) }
                if let info = el_wline(editLine), info.pointee.cursor > info.pointee.buffer {
                    UnsafeMutablePointer(mutating: info.pointee.cursor - 1).pointee = 0
                }
            }
            guard !run.isEmpty else { continue }
            (Array(run) + [0]).withUnsafeBufferPointer { _ = el_winsertstr(editLine, $0.baseAddress) }
        }
    }

    /// Makes again each binding whose function a configuration left unbound in a key
    /// map (and the private pre-fill sequence always); returns those that failed, as
    /// `keys (function)`. A function the user bound to keys of their own keeps them.
    private func rebind() -> [String] {
        let main = boundKeys()
        let alternate = boundKeys(alternate: true)
        return bindings.flatMap { binding in
            let always = binding.function == Self.prefillFunction
            return bindAll(
                binding.keys, binding.function, main: always || main[binding.function] == nil,
                alternate: always || alternate[binding.function] == nil)
        }
    }

    private func run(slot index: Int) -> UInt8 {
        guard index < slots.count else { return UInt8(CC_ERROR) }
        switch slots[index].action {
        case .leave:
            leftWith = slots[index].name
            return UInt8(CC_NEWLINE)
        case .prefill:
            guard let pending = pendingPrefill else { return UInt8(CC_NORM) }
            pendingPrefill = nil
            insertVerbatim(pending.text)
            if pending.back > 0 { el_cursor(editLine, -pending.back) }
            return UInt8(CC_REFRESH)
        case .complete:
            guard let completer else { return UInt8(CC_REFRESH_BEEP) }
            let state = lineState
            let before = String(String.UnicodeScalarView(state.text.unicodeScalars.prefix(state.cursor)))
            switch completer(before) {
            case .insert(let text):
                insertVerbatim(text.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                return UInt8(CC_REFRESH)
            case .list(let candidates):
                printAbove(candidates.joined(separator: "  ") + "\n")
                return UInt8(CC_REFRESH)
            case .none:
                return UInt8(CC_REFRESH_BEEP)
            }
        case .run(let action):
            action()
            return UInt8(CC_REFRESH)
        }
    }

    private static func from(_ el: OpaquePointer?) -> LineEditor? {
        guard let el, let data = dl_el_get_client_data(el) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }

    private static func dispatch(_ el: OpaquePointer?, slot: Int) -> UInt8 {
        from(el)?.run(slot: slot) ?? UInt8(CC_ERROR)
    }

    /// C cannot capture Swift context, so each key function gets its own entry point; the
    /// editor is found through `EL_CLIENTDATA`.
    private static let trampolines: [@convention(c) (OpaquePointer?, Int32) -> UInt8] = [
        { el, _ in dispatch(el, slot: 0) }, { el, _ in dispatch(el, slot: 1) },
        { el, _ in dispatch(el, slot: 2) }, { el, _ in dispatch(el, slot: 3) },
        { el, _ in dispatch(el, slot: 4) }, { el, _ in dispatch(el, slot: 5) },
        { el, _ in dispatch(el, slot: 6) }, { el, _ in dispatch(el, slot: 7) },
        { el, _ in dispatch(el, slot: 8) }, { el, _ in dispatch(el, slot: 9) },
    ]

    /// libedit's read function (`EL_GETCFN`): the key source when there is one, else the
    /// terminal, watched together with the interruption descriptor.
    private static let readTrampoline: @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32 = {
        el, out in
        guard let editor = from(el) else { return -1 }
        if let source = editor.keySource {
            guard let scalar = source() else { return 0 }
            if scalar == "\u{3}" {
                errno = EINTR
                return -1
            }
            out?.pointee = wchar_t(bitPattern: scalar.value)
            return 1
        }
        return editor.readKey(into: out)
    }

    /// Reads one character from standard input (`poll`, a non-blocking `read`, `mbrtowc`): 1 with the
    /// character, 0 at end of input, -1 with `errno` `EINTR` when interrupted. Bytes that
    /// are not valid in the locale's encoding are dropped, as libedit's own reader does.
    private func readKey(into out: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        var state = mbstate_t()
        while true {
            if let interruption {
                let wake = interruption.take()
                if wake.contains(.interrupt) {
                    errno = EINTR
                    return -1
                }
                if wake.contains(.resize) { redraw() }
            }
            var watched = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: interruption?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watch?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            if let seconds = watch?.timeout() {
                timeout = Int32(min(max(0, (seconds * 1000).rounded(.up)), 86_400_000))
            }
            let ready = poll(&watched, nfds_t(watched.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if watched[1].revents != 0 { continue }
            if let watch, ready == 0 || watched[2].revents != 0 {
                watch.wake()
                continue
            }
            var byte: CChar = 0
            // Non-blocking for this one read: a Ctrl-C can flush the terminal's input
            // between poll and read, and a read that then blocked would not see the pipe.
            let flags = fcntl(0, F_GETFL)
            _ = fcntl(0, F_SETFL, flags | O_NONBLOCK)
            let count = read(0, &byte, 1)
            let readError = errno
            _ = fcntl(0, F_SETFL, flags)
            errno = readError
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -1
            }
            if count == 0 { return 0 }
            var character: wchar_t = 0
            let decoded = mbrtowc(&character, &byte, 1, &state)
            if decoded == -2 { continue }  // more bytes to come
            if decoded == -1 {
                state = mbstate_t()
                continue
            }
            out?.pointee = character
            return 1
        }
    }

    private static func string(from wide: UnsafePointer<wchar_t>, count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for index in 0..<count {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: wide[index])) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
