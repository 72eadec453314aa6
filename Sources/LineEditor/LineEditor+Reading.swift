import BracketedPaste
import CEditLine
import Glibc

/// Reading keys for libedit (`EL_GETCFN`): from the tour's key source, or from the terminal
/// through the ``InputWaiter``, keys first, with signals and the watch between them.
extension LineEditor {
    /// libedit's read function: one character into `out`; 1, 0 at end of input, -1 with
    /// `errno` `EINTR` when a signal from outside interrupts the read.
    static let readTrampoline: @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32 = {
        el, out in
        guard let editor = from(el) else { return -1 }
        editor.restoreReturnedLine()
        editor.reportEdit()
        let result = editor.nextKey()
        if case .key(let key) = result {
            editor.read.keysRead += 1
            editor.noteCursor()
            editor.noteKey()
            editor.trackEdits()
            editor.noteLineBefore(key: key)
            editor.guardTallLine()
            out?.pointee = key
            return 1
        }
        if result == .interrupted {
            errno = EINTR
            return -1
        }
        return 0
    }

    /// libedit 3.1-20221030 can lose track of its screen rows when the line is taller than
    /// the terminal and the cursor was moved to its end (`^E` after a search): typing there
    /// then takes its one-character fast path, which steps past the rows it allocated and
    /// crashes (`re_fastputc`). A full redraw first puts its idea of the cursor's row right
    /// again. It is done only for lines that could fill the screen, with the cursor at the
    /// end, and only when the last key did something other than add one character at the
    /// end (the fast path itself keeps the rows right), so a long burst of typing costs one
    /// redraw, not one per key (wraps `el_wline`, `el_set(EL_REFRESH)`).
    func guardTallLine() {
        guard let info = el_wline(editLine), let start = info.pointee.buffer else { return }
        let length = info.pointee.lastchar - start
        let atEnd = info.pointee.cursor == info.pointee.lastchar
        defer { read.lastShape = (length, atEnd) }
        guard atEnd,
            length * 2 + promptText.count + 2 >= Int(dl_el_rows(editLine) - 1) * Int(dl_el_columns(editLine))
        else { return }
        if let last = read.lastShape, last.atEnd, last.length + 1 == length { return }
        _ = dl_el_refresh(editLine)
    }

    /// Tells ``onEdit`` the line's text when the keys so far changed it (libedit asks for
    /// the next key once it has done what the last one does).
    func reportEdit() {
        guard let onEdit, isReading, read.queuedKeys.isEmpty, read.pendingPrefill == nil, read.currentPaste == nil
        else { return }
        let line = lineState
        // A history search drawn in the line is no edit of the user's.
        guard !Self.isSearchPrompt(line), Self.withoutSearchPrompt(line) == line.text, line.text != read.editedText
        else { return }
        read.editedText = line.text
        onEdit(line.text)
    }

    enum KeyResult: Equatable {
        case key(wchar_t)
        case interrupted
        case endOfInput
    }

    /// The next key: queued, from the key source, or read from the terminal.
    private func nextKey() -> KeyResult {
        if !read.queuedKeys.isEmpty { return .key(read.queuedKeys.removeFirst()) }
        if read.sourcedPasteEnds {
            read.sourcedPasteEnds = false
            return queuePaste(.end(refused: nil))
        }
        // Pastes come bracketed while a line is read (a key source's too: a person may
        // paste during the tour).
        setBracketedPaste(true)
        if let keySource {
            switch keySource() {
            case .key(let scalar)?: return .key(wchar_t(bitPattern: scalar.value))
            case .paste(let text)?:
                // A whole paste: its end comes right after it.
                var breaks = LineBreaks()
                read.sourcedPasteEnds = true
                return queuePaste(.insert(breaks.normalize(text.unicodeScalars).map { wchar_t(bitPattern: $0.value) }))
            case nil: return .endOfInput
            }
        }
        while true {
            switch keys.next() {
            case .character(let character):
                return .key(character)
            case .paste(let text):
                return queuePaste(.insert(text))
            case .pasteEnded(let refused):
                // A key too (an empty paste is one: the next Ctrl-D is not the very next key).
                return queuePaste(.end(refused: refused))
            case .endOfInput:
                return .endOfInput
            case .none:
                break
            }
            let timeout = [watch?.timeout(), keys.secondsUntilDecided].compactMap { $0 }.min()
            switch waiter.wait(handling: [.interrupt, .resize], watched: watch?.descriptor ?? -1, timeout: timeout) {
            case .input:
                if !keys.fill() { return .endOfInput }
            case .signals(let signals):
                if signals.contains(.interrupt) { return .interrupted }
                redraw()
            case .watched:
                watch?.wake()
                // The wake put text into the line (``fill(_:cursor:)``): it goes in now.
                if !read.queuedKeys.isEmpty { return .key(read.queuedKeys.removeFirst()) }
            case .timeout:
                // Time decides what the keys left open (a burst over, a paste fallen silent);
                // a wake that was not due only looks at the feed once more.
                keys.timePassed()
                watch?.wake()
            case .failed:
                return .endOfInput
            }
        }
    }
}
