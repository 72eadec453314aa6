import BracketedPaste
import CEditLine
import Glibc

/// Key functions: draftline's own, added by name (`EL_ADDFN`), each with a C entry point
/// that finds the editor through `EL_CLIENTDATA`.
extension LineEditor {
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

    func addSlot(name: String, help: String, action: Slot) throws(LineEditorError) {
        guard slots.count < Self.trampolines.count else {
            throw LineEditorError(function: "el_set(EL_ADDFN)", message: "too many key functions")
        }
        let index = slots.count
        let result = dl_el_add_function(editLine, name, help, Self.trampolines[index])
        guard result == 0 else {
            throw LineEditorError(function: "el_set(EL_ADDFN)", code: result, message: "cannot add \(name)")
        }
        slots.append((name, action))
    }

    /// Inserts characters at the cursor, every one as it is, NUL included.
    ///
    /// `el_winsertstr` takes a NUL-terminated string, so text is inserted in the runs
    /// between NULs, and each NUL as a one-character placeholder that is then overwritten
    /// with 0 in libedit's line buffer (which holds NULs like any other character: it
    /// knows the line's end from `lastchar`). Returns false when libedit refused (the line
    /// would be too long): what was inserted before stays.
    @discardableResult
    func insertVerbatim(_ text: [wchar_t]) -> Bool {
        let placeholder: [wchar_t] = [0xFFFF, 0]
        for (index, run) in text.split(separator: 0, omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                guard placeholder.withUnsafeBufferPointer({ el_winsertstr(editLine, $0.baseAddress) }) == 0 else {
                    return false
                }
                if let info = el_wline(editLine), info.pointee.cursor > info.pointee.buffer {
                    UnsafeMutablePointer(mutating: info.pointee.cursor - 1).pointee = 0
                }
            }
            guard !run.isEmpty else { continue }
            guard (Array(run) + [0]).withUnsafeBufferPointer({ el_winsertstr(editLine, $0.baseAddress) }) == 0 else {
                return false
            }
        }
        return true
    }

    private func run(slot index: Int) -> UInt8 {
        guard index < slots.count else { return UInt8(CC_ERROR) }
        switch slots[index].action {
        case .leave:
            read.leftWith = slots[index].name
            return UInt8(CC_NEWLINE)
        case .interrupt:
            read.interruptedByKey = true
            return UInt8(CC_NEWLINE)
        case .prefill:
            guard let pending = read.pendingPrefill else { return UInt8(CC_NORM) }
            read.pendingPrefill = nil
            insertVerbatim(pending.text)
            // el_cursor moves as far as it can and returns where it is: nothing to check.
            if pending.back > 0 { _ = el_cursor(editLine, -pending.back) }
            // A line given back keeps its marks: what was pasted, what was typed since its
            // baseline.
            read.marks = read.pendingPrefillMarks
            remember(lineState)
            return UInt8(CC_REFRESH)
        case .paste:
            return runPaste()
        case .complete:
            guard let completer else { return UInt8(CC_REFRESH_BEEP) }
            let state = lineState
            let before = String(String.UnicodeScalarView(state.text.unicodeScalars.prefix(state.cursor)))
            switch completer(before) {
            case .insert(let text):
                return UInt8(
                    insertVerbatim(text.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                        ? CC_REFRESH : CC_REFRESH_BEEP)
            case .list(let candidates):
                printAbove(candidates.joined(separator: "  ") + "\n")
                return UInt8(CC_REFRESH)
            case .none:
                return UInt8(CC_REFRESH_BEEP)
            }
        case .suspend:
            suspend()
            return UInt8(CC_REDISPLAY)
        case .nextHistory:
            // libedit's own Down on the user's line (its history event 0) puts back the line
            // it saved at the last Up, of this read or an earlier one: the typed line was
            // replaced by an empty or an old one, kept nowhere. Down there does nothing.
            guard read.isShowingRecall else { return UInt8(CC_REFRESH_BEEP) }
            wentDown = true
            // libedit's Down, then (emacs) the cursor put back where the user had it when
            // the Down brings their own line back: libedit leaves it at the end (README "as
            // if nothing was recalled"). vi's `j` keeps vi's own place, the line's start.
            guard dl_el_is_vi(editLine) != 1 else {
                Self.nextHistoryBytes.withUnsafeBufferPointer { el_push(editLine, $0.baseAddress) }
                return UInt8(CC_NORM)
            }
            pendingOwnLine = read.ownLine
            Self.nextHistoryAndOwnCursorBytes.withUnsafeBufferPointer { el_push(editLine, $0.baseAddress) }
            return UInt8(CC_NORM)
        case .ownCursor:
            defer { pendingOwnLine = nil }
            let now = lineState
            guard let own = pendingOwnLine, now.text == own.text else { return UInt8(CC_NORM) }
            _ = el_cursor(editLine, Int32(min(own.cursor, now.text.unicodeScalars.count) - now.cursor))
            return UInt8(CC_CURSOR)
        case .run(let action):
            action()
            return UInt8(CC_REFRESH)
        }
    }

    /// Ctrl-Z: bracketed paste off and the terminal put back in the user's settings (not
    /// libedit's execute mode, which is the editor's own between reads), then the process
    /// group stopped, as the terminal's own suspend key would (`kill(0, SIGTSTP)`); on
    /// `fg`, the edit mode (libedit learns the settings the shell left, as after any
    /// command) and bracketed paste again, and the line redrawn.
    ///
    /// Wraps `el_set(EL_PREP_TERM)`: libedit notes that it left its edit mode, so that its
    /// own SIGCONT handler, or the call after, enters it again.
    private func suspend() {
        setBracketedPaste(false)
        _ = dl_el_prepare_terminal(editLine, 0)
        restoreUserMode()
        Self.write("\n")
        kill(0, SIGTSTP)
        _ = dl_el_prepare_terminal(editLine, 1)
        setBracketedPaste(true)
    }

    private static func dispatch(_ el: OpaquePointer?, slot: Int) -> UInt8 {
        from(el)?.run(slot: slot) ?? UInt8(CC_ERROR)
    }

    /// C cannot capture Swift context, so each key function gets its own entry point; the
    /// editor is found through `EL_CLIENTDATA`.
    static let trampolines: [@convention(c) (OpaquePointer?, Int32) -> UInt8] = [
        { el, _ in dispatch(el, slot: 0) }, { el, _ in dispatch(el, slot: 1) },
        { el, _ in dispatch(el, slot: 2) }, { el, _ in dispatch(el, slot: 3) },
        { el, _ in dispatch(el, slot: 4) }, { el, _ in dispatch(el, slot: 5) },
        { el, _ in dispatch(el, slot: 6) }, { el, _ in dispatch(el, slot: 7) },
        { el, _ in dispatch(el, slot: 8) }, { el, _ in dispatch(el, slot: 9) },
        { el, _ in dispatch(el, slot: 10) }, { el, _ in dispatch(el, slot: 11) },
        { el, _ in dispatch(el, slot: 12) }, { el, _ in dispatch(el, slot: 13) },
    ]

    /// The line being read, while one is (``readLine(prompt:prefill:cursor:pasted:inserted:)``
    /// waits for keys); `nil` otherwise.
    public var lineBeingRead: String? { isReading ? lineState.text : nil }

    /// Puts `text` into the line being read, when it is empty and nothing is being
    /// inserted, as if the read had been given it (cursor at `cursor`, scalars from the
    /// start; nothing in it typed): for a wake of the watch (a refused send back in the
    /// line). Goes in before the next key, by the pre-fill's own key function.
    public func fill(_ text: String, cursor: Int) {
        guard isReading, lineState.text.isEmpty, read.pendingPrefill == nil, read.currentPaste == nil,
            read.queuedKeys.isEmpty
        else { return }
        read.pendingPrefill = Self.pending(text, cursor: cursor)
        read.pendingPrefillMarks = LineMarks(givenText: !text.isEmpty)
        read.queuedKeys = Self.prefillBytes.dropLast().map { wchar_t($0) }
    }
}
