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
        let result = editor.nextKey()
        if case .key(let key) = result {
            editor.keysRead += 1
            editor.noteCursor()
            editor.noteKey()
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
        defer { lastShape = (length, atEnd) }
        guard atEnd,
            length * 2 + promptText.count + 2 >= Int(dl_el_rows(editLine) - 1) * Int(dl_el_columns(editLine))
        else { return }
        if let last = lastShape, last.atEnd, last.length + 1 == length { return }
        _ = dl_el_refresh(editLine)
    }

    enum KeyResult: Equatable {
        case key(wchar_t)
        case interrupted
        case endOfInput
    }

    /// After an ESC from the key source: the paste it starts (`ESC [ 200 ~` … `ESC [ 201 ~`,
    /// as a terminal brackets one), its line ends made `\n`; `nil` when it starts none, with
    /// the keys read past the ESC queued to come next.
    private func sourcedPaste(from source: () -> Unicode.Scalar?) -> [wchar_t]? {
        let start = Array("[200~".unicodeScalars)
        var read: [Unicode.Scalar] = []
        while read.count < start.count, let next = source() {
            read.append(next)
            guard next == start[read.count - 1] else { break }
        }
        guard read == start else {
            queuedKeys += read.map { wchar_t(bitPattern: $0.value) }
            return nil
        }
        let end = Array("\u{1B}[201~".unicodeScalars)
        var pasted: [Unicode.Scalar] = []
        while let next = source() {
            pasted.append(next)
            if pasted.count >= end.count && Array(pasted.suffix(end.count)) == end {
                pasted.removeLast(end.count)
                break
            }
        }
        return pasted.map { $0 == "\r" ? 10 : wchar_t(bitPattern: $0.value) }
    }

    /// The next key: queued, from the key source, or read from the terminal.
    private func nextKey() -> KeyResult {
        if !queuedKeys.isEmpty { return .key(queuedKeys.removeFirst()) }
        if let keySource {
            guard let scalar = keySource() else { return .endOfInput }
            if scalar == "\u{1B}", let paste = sourcedPaste(from: keySource) {
                pendingPaste = paste
                queuedKeys = Array(Self.pasteKeys.dropFirst())
                return .key(Self.pasteKeys[0])
            }
            return .key(wchar_t(bitPattern: scalar.value))
        }
        setBracketedPaste(true)
        while true {
            switch keys.next() {
            case .character(let character):
                return .key(character)
            case .paste(let text):
                pendingPaste = text
                queuedKeys = Array(Self.pasteKeys.dropFirst())
                return .key(Self.pasteKeys[0])
            case .pasteTooLong(let bytes):
                onPasteTooLong?(bytes)
                continue
            case .endOfInput:
                return .endOfInput
            case .none:
                break
            }
            let hasMore = watch?.hasMore() ?? false
            let timeout = hasMore ? 0 : watch?.timeout()
            switch waiter.wait(handling: [.interrupt, .resize], watched: watch?.descriptor ?? -1, timeout: timeout) {
            case .input:
                if !keys.fill() { return .endOfInput }
            case .signals(let signals):
                if signals.contains(.interrupt) { return .interrupted }
                redraw()
            case .watched, .timeout:
                watch?.wake()
            case .failed:
                return .endOfInput
            }
        }
    }
}
