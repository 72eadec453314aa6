import DraftKit

/// `--record FILE`: a terminal session written down as the pipe-mode script that replays it
/// (``PipedLine``'s grammar): each line read as the keys that make the same event on a
/// pipe, and after each error, draft event, send or change of screen the `/expect` lines
/// that check what the user saw then (the error's kind, the draft's text, cursor and
/// media, the text Ctrl-C or `/discard` put on the undo stack, the message sent, the
/// screen); nothing after the event that quit. Replayed with
/// `--strict` on a fresh data directory it passes (an error checked on the very next line
/// does not stop it); a step changed fails at the first check after it.
///
/// A line is written as it would be typed: text typed after the draft the line started
/// with is only that text; any other line is Ctrl-U, then the whole line (so the event is
/// the same whatever a pipe's line starts with), then Ctrl-B for each place the cursor
/// stood back from the end. Pasted text is written between `ESC [ 200 ~` and `ESC [ 201 ~`,
/// a line break in it as CR (a pipe's line ends at LF); then the key that ended the read:
/// `^X` and its letter, Ctrl-C or Ctrl-D, or the newline for Enter. A line a pipe could not
/// read (over 64 KiB: a draft grown by two pastes) is written in pieces (``Pieces``), and a
/// check whose text would make it one leaves the text out (``piped(_:undoEntries:)``).
public struct ScriptRecorder: Sendable {
    /// The script so far, one line each.
    public private(set) var lines: [String] = []
    /// Whether the last event was answered with an error: after one, a terminal gives the
    /// failed line back to fix and a pipe does not, so the next line is written whole.
    private var afterError = false
    /// What an event that asked a question (`^X o`'s name) reported, and the screen before
    /// it: checked after the answer, as a line in between would be the answer.
    private var asked: (reports: [Report], screen: String)?

    public init() {}

    /// Records one event read on the terminal: `prefill` the line it started with,
    /// `screen` the screen's name before it, `reports` the session's answer and `session`
    /// the state after it (`asking` while it waits for the answer to a question).
    public mutating func record(
        _ event: InputEvent, origin: LineOrigin, prefill: TextDraft?, screen: String, reports: [Report],
        session: Session, asking: Bool = false
    ) {
        // Text a recall replaced and the terminal set aside (the user's own line, under a
        // recalled message sent): a pipe plays the recalled line typed out, which replaces
        // nothing, so the text is set aside first, as Ctrl-C does, and the line is whole.
        let replaced = Self.setAsideByRecall(reports)
        let recalledOver = !replaced.isEmpty && origin.isRecalled
        // A recalled command entered over the user's own text keeps that text as the draft;
        // a pipe plays the command typed out, which keeps nothing typed: the text is kept
        // with `^X /` first, and the command is the prompt's answer.
        let kept = origin.isRecalled ? Self.keptOverRecall(reports) : nil
        guard
            let keys = Self.keys(
                for: event, origin: origin, prefill: afterError || recalledOver ? nil : prefill,
                whole: afterError || recalledOver)
        else { return }
        let setAside = replaced.flatMap {
            Self.typed($0, .typed, from: TextDraft(text: ""), whole: true).ended(with: "\u{3}")
        }
        // Before a recalled line entered; after a recalled line abandoned (Ctrl-C), since the
        // terminal puts the user's own text on top there.
        if recalledOver, case .line = event { lines += setAside }
        if let kept, case .line(let command) = event {
            lines += Self.typed(
                kept, .typed, from: afterError ? TextDraft(text: "") : prefill ?? TextDraft(text: ""),
                whole: afterError
            ).ended(with: "\u{18}/")
            lines.append(command)
            // A command that fails at that prompt asks again there: an empty line ends it,
            // the draft kept, as the terminal's read ended.
            if reports.contains(where: { $0.error != nil }) { lines.append("") }
        } else {
            lines += keys
        }
        if recalledOver, case .interrupt = event { lines += setAside }
        afterError = reports.contains { $0.error != nil }
        let all = (asked?.reports ?? []) + reports
        let before = asked?.screen ?? screen
        guard !asking else {
            asked = (all, before)
            return
        }
        asked = nil
        // After the session ended nothing runs: a check there could never be checked.
        guard !session.hasQuit else { return }
        lines += Self.checks(after: all, session: session, screen: before).map(\.command)
        // Text refused where no draft keeps it (home, a profile) stays in a terminal's line,
        // held there as the line's baseline; a pipe sets it on the undo stack instead. `/undo`
        // brings it back into the pipe's line, held the same way, so the two go on alike.
        if Self.heldByRefusal(event, reports: reports, session: session) { lines.append("/undo") }
    }

    /// Whether the event was refused and its line held for the user (``Session/heldLine``),
    /// as a terminal does where a pipe sets the line aside: text entered or a leave key
    /// where no draft can keep the text.
    static func heldByRefusal(_ event: InputEvent, reports: [Report], session: Session) -> Bool {
        let text: String
        switch event {
        case .line(let line): text = line
        case .leave(_, let line): text = line.text
        default: return false
        }
        guard let held = session.heldLine, held.text == text, !text.isEmpty else { return false }
        return reports.contains { $0.error != nil }
    }

    /// The script, each line ended by a newline.
    public var script: String { lines.map { $0 + "\n" }.joined() }

    /// The text an event kept as the draft over a recalled command, if it kept any.
    static func keptOverRecall(_ reports: [Report]) -> TextDraft? {
        for case .draft(let event) in reports where event.kind == .saved && event.cause == .keptOverRecall {
            return event.draft.text
        }
        return nil
    }

    /// The text an event set aside because a recall replaced it, oldest first.
    static func setAsideByRecall(_ reports: [Report]) -> [TextDraft] {
        reports.compactMap { report in
            guard case .draft(let event) = report, event.kind == .discarded, event.cause == .replacedByRecall
            else { return nil }
            return event.draft.text
        }
    }

    /// The piped lines that make `event` from a line pre-filled with `prefill` (one, unless
    /// the line is too long for one); `nil` for the end of input, which a terminal does not
    /// give. `whole` writes the line whole even when it only adds to the pre-fill.
    static func keys(for event: InputEvent, origin: LineOrigin, prefill: TextDraft?, whole: Bool = false) -> [String]? {
        let start = prefill ?? TextDraft(text: "")
        switch event {
        case .line(let text):
            let line = TextDraft(text: text, cursor: text.unicodeScalars.count)
            return typed(line, origin, from: start, whole: whole, ended: true)
        case .leave(let key, let line):
            return typed(line, origin, from: start, whole: whole).ended(with: "\u{18}" + String(key.suffix))
        case .interrupt(let line):
            return typed(line, origin, from: start, whole: whole).ended(with: "\u{3}")
        case .quitRequest(let afterKeys):
            // Ctrl-D quits only on an empty line: Ctrl-U first when the line had text, or
            // when other keys came first.
            return [(afterKeys || !start.text.isEmpty ? "\u{15}" : "") + "\u{4}"]
        case .endOfInput:
            return nil
        }
    }

    /// The keys that turn `start` into `line`, its pastes as pastes, the cursor where it was:
    /// the piped lines, the last one open for the key that ends the read.
    private static func typed(
        _ line: TextDraft, _ origin: LineOrigin, from start: TextDraft, whole: Bool, ended: Bool = false
    ) -> [String] {
        let scalars = Array(line.text.unicodeScalars)
        let prefix = Array(start.text.unicodeScalars)
        // An emptied line before a key: the pipe's line may hold text the terminal's did not
        // show (a held line brought back), so it is emptied too.
        if whole && scalars.isEmpty && !ended { return ["\u{15}"] }
        // Enter on the line as it started: the cursor does not matter.
        if line.text == start.text && (line.cursor == start.cursor || ended) && origin.pasted.isEmpty {
            return [""]
        }
        // A control character outside a paste would be a key on a pipe.
        func isKey(at index: Int) -> Bool {
            let value = scalars[index].value
            return (value < 0x20 || value == 0x7F) && !origin.pasted.contains { $0.contains(index) }
        }
        let typedKeys = scalars.indices.contains(where: isKey)
        let extends =
            !whole && start.cursor == prefix.count && scalars.starts(with: prefix)
            && origin.pasted.allSatisfy { $0.lowerBound >= prefix.count }
            && !scalars.indices.dropFirst(prefix.count).contains(where: isKey)
        let cursorKeys = String(repeating: "\u{2}", count: max(0, scalars.count - line.cursor))
        var keys = Pieces()
        guard extends || !typedKeys else {
            // A line break or control character not typed as a key (a restored paste):
            // the whole line as one paste, onto the emptied line, which is as typing it.
            keys.key("\u{15}")
            keys.text(scalars[...], pasted: true)
            keys.key(cursorKeys)
            return keys.lines
        }
        if !extends { keys.key("\u{15}") }
        var index = extends ? prefix.count : 0
        for range in origin.pasted.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= index {
            keys.text(scalars[index..<range.lowerBound], pasted: false)
            keys.text(scalars[range], pasted: true)
            index = range.upperBound
        }
        keys.text(scalars[index...], pasted: false)
        keys.key(cursorKeys)
        return keys.lines
    }

    /// Piped lines being written, keys and text, cut where a line would grow past what a
    /// pipe reads (``Session/maximumLineBytes``) and before a second paste (a pipe's line is
    /// one burst, whose last `ESC [ 201 ~` ends its paste): a cut line ends with Ctrl-B and
    /// Ctrl-F, editing keys that leave the cursor where it was (after text, so never at the
    /// line's start), and the next piped line goes on in the same edit line. A paste cut
    /// in two is two pastes, each into text already there but for the first.
    struct Pieces {
        /// The most bytes a piece holds before the key that ends the read.
        static let most = Session.maximumLineBytes / 2
        private(set) var lines = [""]
        /// Whether the last line holds a paste.
        private var pasteInLine = false

        mutating func key(_ keys: String) { lines[lines.count - 1] += keys }

        /// Text typed (each line feed a carriage return when pasted, as a pipe's line ends at a
        /// line feed), or pasted between `ESC [ 200 ~` and `ESC [ 201 ~`.
        mutating func text(_ scalars: ArraySlice<Unicode.Scalar>, pasted: Bool) {
            let markers = pasted ? 12 : 0
            var rest = scalars
            if pasted && pasteInLine && !scalars.isEmpty { cut() }
            while true {
                var bytes = lines[lines.count - 1].utf8.count + markers
                let piece = rest.prefix { scalar in
                    bytes += UTF8.width(scalar)
                    return bytes <= Self.most
                }
                rest = rest.dropFirst(piece.count)
                let text = String(String.UnicodeScalarView(piece.map { pasted && $0 == "\n" ? "\r" : $0 }))
                if !pasted {
                    key(text)
                } else if !piece.isEmpty || scalars.isEmpty {
                    key("\u{1B}[200~" + text + "\u{1B}[201~")
                    pasteInLine = pasteInLine || !piece.isEmpty
                }
                if rest.isEmpty { return }
                cut()
            }
        }

        /// Ends the line with the keys that go on in the next one.
        private mutating func cut() {
            key("\u{2}\u{6}")
            lines.append("")
            pasteInLine = false
        }
    }

    /// What the user saw after the event, as expectations: the error it got (first, right
    /// after the line, where `--strict` looks for it), each draft it touched (its text,
    /// cursor and media, or that there is none), the message sent, and the screen when it
    /// changed.
    static func checks(after reports: [Report], session: Session, screen: String) -> [Expectation] {
        var keys: [DraftKey] = []
        var checks: [Expectation] = []
        // The errors `/expect error` sees: an `/expect` typed into the session is a check itself.
        var errors: [Expectation] = []
        for kind in reports.contains(where: \.isCheck) ? [] : reports.compactMap(\.error?.kind)
        where !errors.contains(.error(kind)) {
            errors.append(.error(kind))
        }
        // Text the user abandoned (Ctrl-C) or discarded, on top of the undo stack: a pipe
        // sets aside the same (text lost otherwise, as to a recall, a terminal alone keeps).
        var setAside: Expectation?
        var sent: [Message] = []
        for report in reports {
            switch report.event {
            case .draft(let event) where event.kind != .unchanged:
                if let key = event.key, !keys.contains(key) { keys.append(key) }
                if event.kind == .discarded, event.cause == .interrupted || event.cause == .discardCommand,
                    let top = session.drafts.undoStack.last?.draft.text
                {
                    setAside = .undoTop(top.text)
                }
            case .sent(let message):
                // Counted from the end once all are in: a file sent with its text is the
                // one before it.
                sent.append(message)
            case .draft, .arrived, .arrivedElsewhere, .sendFailed, nil:
                break
            }
        }
        for (index, message) in sent.enumerated() {
            checks.append(
                .message(
                    sent.count - index, text: message.content, sender: try? GlobalKey(validating: message.author),
                    type: message.type))
        }
        let drafts = session.drafts
        let stated: [Expectation] = keys.map { key in
            guard drafts.hasDraft(for: key) else { return .noDraft(key) }
            let text = drafts.text(for: key)
            return .draft(key, text: text?.text, cursor: text?.cursor, media: drafts.attachments(for: key).count)
        }
        let now = session.screenName
        return (errors + stated + (setAside.map { [$0] } ?? []) + checks + (now == screen ? [] : [.screen(now)]))
            .map { piped($0, undoEntries: session.drafts.undoStack.count) }
    }

    /// The check as a pipe can read it: one whose text makes its line too long to read (a
    /// draft over 64 KiB) leaves the text out, and the undo stack's top is then checked by
    /// the stack's size.
    static func piped(_ check: Expectation, undoEntries: Int) -> Expectation {
        guard check.command.utf8.count > Session.maximumLineBytes else { return check }
        switch check {
        case .draft(let key, _, let cursor, let media): return .draft(key, text: nil, cursor: cursor, media: media)
        case .message(let place, _, let sender, let type): return .message(place, text: nil, sender: sender, type: type)
        case .undoTop: return .undo(undoEntries)
        default: return check
        }
    }
}

extension [String] {
    /// The piped lines with `key` ending the last: the key that ends the read.
    fileprivate func ended(with key: String) -> [String] {
        dropLast() + [(last ?? "") + key]
    }
}
