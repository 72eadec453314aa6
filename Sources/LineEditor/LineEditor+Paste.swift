import BracketedPaste
import CEditLine

/// Pastes: inserted as text by a private key function as their pieces come, refused whole
/// when too long, and remembered: which parts of the line were pasted into text already
/// there is kept right through every later edit (``Input/pasted``).
extension LineEditor {
    /// What the paste key function does next.
    enum PendingPaste: Equatable {
        /// Inserts this piece of a paste at the cursor.
        case insert([wchar_t])
        /// The paste is over; when it was longer than the limit (of this many bytes), what
        /// was inserted of it is taken out again.
        case end(refused: Int?)
    }

    /// The paste being inserted: where it started, how much of it is in the line, and
    /// whether it went into text already there (a paste onto an empty line is like typing).
    struct Paste {
        var start: Int
        var count: Int
        var intoText: Bool
    }

    /// Hands a paste's piece, or its refusal, to the paste key function: its key sequence
    /// comes next (``pasteKeys``), so that libedit runs it between two keys.
    func queuePaste(_ paste: PendingPaste) -> KeyResult {
        read.pendingPaste = paste
        read.queuedKeys = Array(Self.pasteKeys.dropFirst())
        return .key(Self.pasteKeys[0])
    }

    /// The paste key function: inserts the pending piece verbatim (a newline in it does not
    /// enter the line), or takes the refused paste out again (`el_deletestr`: the cursor is
    /// at the paste's end, no key came in between).
    func runPaste() -> UInt8 {
        guard let pending = read.pendingPaste else { return UInt8(CC_NORM) }
        read.pendingPaste = nil
        trackEdits()
        let line = lineState
        switch pending {
        case .insert(let text):
            let paste = read.currentPaste ?? Paste(start: line.cursor, count: 0, intoText: !line.text.isEmpty)
            let inserted = insertVerbatim(text)
            let count = lineState.text.unicodeScalars.count - line.text.unicodeScalars.count
            read.currentPaste = Paste(start: paste.start, count: paste.count + count, intoText: paste.intoText)
            read.marks.replace(line.cursor..<line.cursor, count: count, pasted: paste.intoText)
            remember(lineState)
            return UInt8(inserted ? CC_REFRESH : CC_REFRESH_BEEP)
        case .end(nil):
            read.currentPaste = nil
            return UInt8(CC_NORM)
        case .end(let bytes?):
            if let paste = read.currentPaste, paste.count > 0 {
                el_deletestr(editLine, Int32(clamping: paste.count))
                read.marks.replace((line.cursor - paste.count)..<line.cursor, count: 0, pasted: false)
                remember(lineState)
            }
            read.currentPaste = nil
            onPasteTooLong?(bytes)
            return UInt8(CC_REFRESH)
        }
    }

    /// Notes the edits made since the last look, so the marks (``LineMarks``) move with the
    /// text around them: the line before and after tell what one edit replaced (at the
    /// cursor, where libedit's edits are; a recall replaced the whole line). Costs a look at
    /// the line only while some of it is pasted or the line was given text.
    ///
    /// Wraps `el_wline`.
    func trackEdits() {
        guard read.marks.isWatching, let before = read.seenLine else {
            read.seenLine = nil
            return
        }
        guard let info = el_wline(editLine), let start = info.pointee.buffer, let end = info.pointee.lastchar,
            let cursorPointer = info.pointee.cursor
        else { return }
        let now = Array(UnsafeBufferPointer(start: start, count: end - start))
        let cursor = cursorPointer - start
        defer { read.seenLine = (now, cursor) }
        guard now != before.text else { return }
        let (old, count) = Self.edit(from: before.text, cursor: before.cursor, to: now, cursor: cursor)
        read.marks.replace(old, count: count, pasted: false)
    }

    /// Starts watching the line as it is now, when its marks need it.
    func remember(_ line: Line) {
        read.seenLine =
            !read.marks.isWatching ? nil : (line.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }, line.cursor)
    }

    /// The one edit that made `new` from `old`: the part of `old` replaced, and how many
    /// characters took its place. Where repeated characters leave the place open (`ab` to
    /// `abb`), an insertion is put at the old cursor and a deletion at the new one, as
    /// libedit's keys do.
    static func edit(
        from old: [wchar_t], cursor oldCursor: Int, to new: [wchar_t], cursor newCursor: Int
    ) -> (Range<Int>, Int) {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        guard prefix + suffix >= shorter else {
            let tail = min(suffix, shorter - prefix)
            return (prefix..<(old.count - tail), new.count - tail - prefix)
        }
        let low = shorter - suffix
        if new.count >= old.count {
            let place = min(max(oldCursor, low), prefix)
            return (place..<place, new.count - old.count)
        }
        let place = min(max(newCursor, low), prefix)
        return (place..<(place + old.count - new.count), 0)
    }
}
