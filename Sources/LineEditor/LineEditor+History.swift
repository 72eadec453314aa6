import BracketedPaste
import CEditLine

/// The edit line's history (the up arrow, `^R`), and what a recall replaced.
extension LineEditor {
    /// Adds a line to the edit line's history (a line equal to the last one is not added
    /// again).
    ///
    /// Wraps `history(H_ENTER)`, which returns 1 when it added the line, 0 when it dropped
    /// a repeat, and -1 when it failed.
    public func addHistory(_ line: String) throws(LineEditorError) {
        let result = dl_history_enter(history, line)
        guard result >= 0 else { throw LineEditorError(function: "history(H_ENTER)", code: result) }
    }

    /// Replaces the edit line's history with these lines, oldest first.
    ///
    /// Wraps `history(H_CLEAR)` and `history(H_ENTER)`.
    public func setHistory(_ lines: [String]) throws(LineEditorError) {
        try Self.check(dl_history_clear(history), "history(H_CLEAR)")
        for line in lines { try addHistory(line) }
    }

    /// libedit consulted the history during a read: a recall is about to replace the line.
    /// Unless the line is just what the last recall left (the user is stepping through
    /// history), what it holds is kept (``Input/recalledOver``).
    ///
    /// Called from the history function libedit uses (`dl_history_watching`), before the
    /// line is replaced. The up arrow and emacs `^R` call it with the line as typed; vi's
    /// `/`, `?`, `n` and `N` empty the line (or draw their prompt in it) first, so then
    /// the line from before the key that began them is the one kept. The text is kept with
    /// the cursor at its end: an incremental search has already moved the cursor through it.
    func historyConsulted() {
        guard isReading, !read.consultedSinceKey else { return }
        read.consultedSinceKey = true
        let now = lineState
        var index = read.linesBeforeKeys.count - 1
        while index >= 0 && Self.isSearchPrompt(read.linesBeforeKeys[index]) { index -= 1 }
        let beforeKey = index >= 0 ? read.linesBeforeKeys[index] : nil
        var kept = now
        if let beforeKey, !beforeKey.text.isEmpty, now.text.isEmpty || Self.isSearchPrompt(now) { kept = beforeKey }
        // An incremental search may have moved the cursor through the line already: the
        // user's cursor is the one from before the search's keys.
        if kept == now { kept.cursor = min(cursorBeforeKey, kept.text.unicodeScalars.count) }
        // The first recall of the read over an empty line notes that emptiness: what it
        // then replaces is a recalled line, never a draft of the user's (LineRead's own line).
        let first = read.ownLine == nil && read.recalledOver.isEmpty && !read.isShowingRecall
        if read.ownLine == nil { read.ownLine = Line(text: Self.withoutSearchPrompt(kept), cursor: kept.cursor) }
        if first && kept.text.isEmpty {
            read.recalledOver.append(kept)
            return
        }
        guard !kept.text.isEmpty, kept.text != read.lastRecalled.map(Self.withoutSearchPrompt),
            !read.recalledOver.contains(where: { $0.text == kept.text })
        else { return }
        read.recalledOver.append(kept)
    }

    /// Notes, before each key, the line a recall left (so a later recall knows whether
    /// the user changed it), and whether the user came back to their own line.
    ///
    /// A recall that left the line as it was (a search that found its pattern in the line
    /// itself, no older line to go to, or the newest line of the history when the line
    /// already held it: a failed command given back) replaced nothing: its snapshot is
    /// dropped, and the line is still the user's, so the next recall keeps it. Coming back
    /// to the line from before the first recall (Down past the newest line, `^R` then
    /// `^G`) makes it the user's again, and what the recall had replaced of it is in the
    /// line, not lost: libedit puts it back without consulting the history, so it is seen
    /// here, at the next key.
    ///
    /// libedit forgets the edits of a history line the user leaves with Down: a recalled
    /// line they changed and then went back from is kept here (``Input/leftRecalls``).
    func noteKey() {
        let byDown = wentDown
        wentDown = false
        guard read.consultedSinceKey else {
            guard read.isShowingRecall, let own = read.ownLine else { return }
            let now = lineState
            guard Self.withoutSearchPrompt(now) == own.text else {
                if Self.withoutSearchPrompt(now) == now.text && !Self.isSearchPrompt(now) { read.shownRecall = now }
                return
            }
            returnedToOwnLine(own, byDown: byDown)
            read.isShowingRecall = false
            read.lastRecalled = nil
            read.marks = read.ownMarks
            remember(lineState)
            // libedit saves the line again at the next recall: what the user types from here
            // on is their own line then, not this one.
            read.ownLine = nil
            return
        }
        read.consultedSinceKey = false
        let now = lineState
        if let last = read.recalledOver.last, Self.withoutSearchPrompt(now) == last.text {
            read.recalledOver.removeLast()
            return
        }
        if let own = read.ownLine, Self.withoutSearchPrompt(now) == own.text {
            returnedToOwnLine(own, byDown: byDown)
            read.isShowingRecall = false
            return
        }
        read.shownRecall = nil
        // A recalled line is none of the user's pastes; theirs come back with their line.
        if !read.isShowingRecall { read.ownMarks = read.marks }
        read.marks = LineMarks(givenText: false)
        read.seenLine = nil
        read.lastRecalled = now
        read.isShowingRecall = true
    }
    /// The user is back on their own line, `own`: what the recalls replaced of it is in the
    /// line again, and the recalled lines they changed on the way (those a later recall
    /// replaced, and the one shown when they came back) are left behind, kept for the
    /// session (``Input/leftRecalls``).
    ///
    /// An own line that was empty, seen again after any key but Down (`byDown`), is a
    /// recalled line the user deleted (`^U`), not a way back: nothing is left behind then,
    /// and what recalls replaced stays theirs to account for (``Input/recalledOver``), the
    /// note of the empty own line first: the line is still a recalled one, never a draft.
    func returnedToOwnLine(_ own: Line, byDown: Bool) {
        guard !own.text.isEmpty || byDown else {
            read.shownRecall = nil
            return
        }
        var left = read.recalledOver
        if let shown = read.shownRecall, shown.text != read.lastRecalled.map(Self.withoutSearchPrompt) {
            left.append(shown)
        }
        for line in left where !line.text.isEmpty && line.text != own.text {
            if !read.leftRecalls.contains(where: { $0.text == line.text }) { read.leftRecalls.append(line) }
        }
        read.recalledOver = []
        read.shownRecall = nil
    }

    /// Puts the user's own line back whole when libedit has just come back to it (Down past
    /// the newest line, `^G` in a search): libedit saves only the first ``savedLineLimit``
    /// characters of the line at the first recall (`EL_BUFSIZ`) and brings the rest back as
    /// NULs. Such a line is as long as the user's and differs from it only by NULs; their
    /// text is written back over it in place and the line drawn again. Called before the
    /// next key is waited for, so the line is whole on the screen and for whatever key comes.
    ///
    /// Wraps `el_wline`, `el_set(EL_REFRESH)`.
    func restoreReturnedLine() {
        guard isReading, read.isShowingRecall, !read.consultedSinceKey, let own = read.ownLine,
            let info = el_wline(editLine), let start = info.pointee.buffer
        else { return }
        let length = info.pointee.lastchar - start
        guard length > Self.savedLineLimit else { return }
        let text = own.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        guard text.count == length else { return }
        let buffer = UnsafeMutablePointer(mutating: start)
        var differs = false
        for index in 0..<length where buffer[index] != text[index] {
            guard buffer[index] == 0 else { return }
            differs = true
        }
        guard differs else { return }
        for index in 0..<length { buffer[index] = text[index] }
        _ = dl_el_refresh(editLine)
    }

    /// How much of the line libedit keeps when a recall replaces it (`EL_BUFSIZ`).
    static let savedLineLimit = 1024

    /// A line without the incremental search's prompt that emacs `^R` draws after it
    /// (`\nbck:` or `\nfwd:`, `?` when failing, then the pattern).
    static func withoutSearchPrompt(_ line: Line) -> String {
        guard let newline = line.text.lastIndex(of: "\n") else { return line.text }
        let tail = line.text[line.text.index(after: newline)...]
        guard tail.hasPrefix("bck:") || tail.hasPrefix("fwd:") || tail.hasPrefix("bck?") || tail.hasPrefix("fwd?")
        else { return line.text }
        return String(line.text[..<newline])
    }

    /// Whether a line is libedit's vi search prompt drawn in the line buffer (`\n/` or
    /// `\n?` then the pattern), not text of the user's.
    static func isSearchPrompt(_ line: Line) -> Bool {
        line.text.hasPrefix("\n/") || line.text.hasPrefix("\n?")
    }

    /// Notes where the cursor is before a key, unless a history search is drawn in the line
    /// (its prompt follows a newline: `\nbck:`, `\nfwd:`, vi's `\n/` and `\n?`), whose keys
    /// move the cursor through the line. Looks back from the line's end only as far as a
    /// search prompt and pattern reach (libedit keeps a pattern under ``searchReach``), so
    /// a key costs the same on a long line.
    ///
    /// Wraps `el_wline`.
    func noteCursor() {
        guard let info = el_wline(editLine), let start = info.pointee.buffer, let end = info.pointee.lastchar,
            let cursor = info.pointee.cursor
        else { return }
        var scan = end
        let stop = max(start, end - Self.searchReach)
        while scan > stop {
            scan -= 1
            guard scan.pointee == 0x0A else { continue }
            let prompt = Array(UnsafeBufferPointer(start: scan + 1, count: min(4, end - scan - 1)))
                .compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
            let text = String(String.UnicodeScalarView(prompt))
            let searching =
                ["bck:", "bck?", "fwd:", "fwd?"].contains(text)
                || (scan == start && ["/", "?"].contains(text.prefix(1)))
            searchShown = searching
            if searching { return }
            break
        }
        searchShown = false
        cursorBeforeKey = cursor - start
    }

    /// How far from the line's end a search prompt and its pattern can reach: libedit's
    /// pattern buffer (`EL_BUFSIZ`, 1024) and the prompt.
    static let searchReach = 1024 + 8

    /// Notes the line before a key that may begin a vi search (`/`, `?`, `n`, `N` in vi
    /// mode): those empty the line before they consult the history. Any other key outside
    /// a search forgets them: it was no search that began (the key was typed as text in
    /// insert mode), or the search is over, and a later recall over a line the user
    /// emptied must not take a line from before their editing for theirs. Other keys cost
    /// nothing more here.
    func noteLineBefore(key: wchar_t) {
        guard isReading, [0x2F, 0x3F, 0x6E, 0x4E].contains(key), dl_el_is_vi(editLine) == 1 else {
            if !searchShown && !read.linesBeforeKeys.isEmpty { read.linesBeforeKeys = [] }
            return
        }
        read.linesBeforeKeys.append(lineState)
        if read.linesBeforeKeys.count > 64 { read.linesBeforeKeys.removeFirst(32) }
    }
}
