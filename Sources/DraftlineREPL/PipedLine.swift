import BracketedPaste
import DraftKit

/// Plays the lines read from a pipe as the keystrokes a person would type into the edit
/// line; a line's newline is Enter, unless the line ended with a key.
///
/// - Text is typed into the line at its cursor: a fresh line starts as the pre-fill (the
///   target's draft, cursor where it was left), so a command typed on a line of its own is
///   typed into the draft, as on a terminal, and leaves it as it is.
/// - Control bytes act as their keys do on a terminal: `^X` (0x18) then `p`, `b`, `o`
///   or `/` leaves with the line as the draft (after `^X o` the rest is the name to
///   open; after `^X /`, the command); Ctrl-C (0x03) abandons the line; Ctrl-D (0x04) on
///   an empty line asks to quit, and elsewhere deletes the character under the cursor;
///   Ctrl-U (0x15) empties the line; Backspace (0x7F, or 0x08) deletes the character
///   before the cursor, Ctrl-K (0x0B) the rest of the line; Ctrl-A, Ctrl-E, Ctrl-B and
///   Ctrl-F (0x01, 0x05, 0x02, 0x06) move the cursor to the start, to the end, back and
///   forward. After a leave key, Ctrl-C or Ctrl-D, typing goes on in a fresh line.
/// - A line that ends with a key ends there: its newline is not Enter. After an editing
///   key (Ctrl-U, Backspace, Ctrl-K, Ctrl-A, Ctrl-E, Ctrl-B, Ctrl-F, a Ctrl-D that deleted)
///   the edit line is still being typed, as on a terminal before Enter: the next piped line
///   goes on in it.
///
/// - `ESC [ 200 ~` … `ESC [ 201 ~` is a paste, as on a terminal: its text is inserted at
///   the cursor, line breaks (CR, CR LF) and control bytes included, never typed as keys.
///   A piped line is one burst: the paste ends at the line's last `ESC [ 201 ~` (an
///   earlier one is text), or, with none, at the line's end. What the session makes of a
///   paste (one message with the draft, never a command attempt) the origin tells it.
///
/// The pipe loop keeps one `PipedLine` for the whole input: it holds that unfinished line.
public struct PipedLine {
    /// The bytes a piped line takes as keys, outside a paste; every other byte is text.
    public static let keyBytes: Set<UInt32> = editingKeyBytes.union([0x03, 0x18])
    /// The keys that edit the line in place (delete, or move the cursor): the rest are
    /// Ctrl-C and `^X`, which end it.
    public static let editingKeyBytes: Set<UInt32> = [0x01, 0x02, 0x04, 0x05, 0x06, 0x08, 0x0B, 0x15, 0x7F]

    /// The edit line an editing key left at the end of the last piped line, still being
    /// typed; `nil` when the next line starts fresh, from the pre-fill.
    public var unfinished: TextDraft? { unfinishedLine?.draft }
    private var unfinishedLine: Working?

    public init() {}

    /// The edit line being typed: its text, cursor, and where its parts came from.
    private struct Working {
        var scalars: [Unicode.Scalar]
        var cursor: Int
        var marks: LineMarks

        /// A line given `draft`, with the marks it carries (``LineOrigin/pasted``,
        /// ``LineOrigin/inserted``).
        init(_ draft: TextDraft, origin: LineOrigin = .typed) {
            scalars = Array(draft.text.unicodeScalars)
            cursor = draft.cursor
            marks = LineMarks(givenText: !scalars.isEmpty, pasted: origin.pasted, inserted: origin.inserted)
        }

        var draft: TextDraft { TextDraft(text: String(String.UnicodeScalarView(scalars)), cursor: cursor) }
        var origin: LineOrigin { LineOrigin(pasted: marks.pasted.ranges, inserted: marks.inserted?.runs ?? []) }

        /// Inserts at the cursor; a paste into text already there is marked as pasted.
        mutating func insert(_ text: [Unicode.Scalar], pasting: Bool) {
            marks.replace(cursor..<cursor, count: text.count, pasted: pasting && !scalars.isEmpty)
            scalars.insert(contentsOf: text, at: cursor)
            cursor += text.count
        }

        /// Deletes the characters from the cursor up to `end` (the line's end at most).
        mutating func deleteForward(to end: Int? = nil) {
            let end = min(end ?? cursor + 1, scalars.count)
            guard cursor < end else { return }
            scalars.removeSubrange(cursor..<end)
            marks.replace(cursor..<end, count: 0, pasted: false)
        }
    }

    /// Plays `line`: `handle` gets each event in order, with where its line's text came
    /// from; `prefill` says what a fresh line starts with at that moment (it changes as
    /// events are handled), and the marks it carries.
    public mutating func play(
        _ line: String, prefill: () -> (TextDraft, LineOrigin)?, handle: (InputEvent, LineOrigin) -> Void
    ) {
        // The line after a key or some typing; nil while it is the pre-fill, untouched.
        var working: Working? = unfinishedLine
        var fresh = unfinishedLine == nil  // no key yet in this edit line
        var endedWithKey = false
        unfinishedLine = nil

        func current() -> Working {
            working ?? prefill().map { Working($0, origin: $1) } ?? Working(TextDraft(text: ""))
        }
        func restart() {
            working = nil
            fresh = true
            endedWithKey = true
        }
        func edit(_ line: Working) {
            working = line
            fresh = false
            endedWithKey = true
        }

        let pieces = PastePiece.split(line)
        var index = 0
        while index < pieces.count {
            let piece = pieces[index]
            index += 1
            guard case .key(let scalar) = piece else {
                if case .paste(let text) = piece {
                    var now = current()
                    var breaks = LineBreaks()
                    now.insert(breaks.normalize(text.unicodeScalars), pasting: true)
                    working = now
                    endedWithKey = false
                }
                continue
            }
            if scalar == "\u{18}", index < pieces.count, case .key(let next) = pieces[index],
                let key = LeaveKey.allCases.first(where: { $0.suffix.unicodeScalars.first == next })
            {
                index += 1
                let now = current()
                handle(.leave(key, now.draft), now.origin)
                restart()
                continue
            }
            switch scalar {
            case "\u{3}":
                let now = current()
                handle(.interrupt(now.draft), now.origin)
                restart()
            case "\u{4}":
                var now = current()
                if now.scalars.isEmpty {
                    handle(.quitRequest(afterKeys: !fresh), .typed)
                    restart()
                } else {
                    now.deleteForward()
                    edit(now)
                }
            case "\u{15}":
                var now = current()
                now.cursor = 0
                now.deleteForward(to: now.scalars.count)
                edit(now)
            case "\u{7F}", "\u{8}":
                var now = current()
                if now.cursor > 0 {
                    now.cursor -= 1
                    now.deleteForward()
                }
                edit(now)
            case "\u{B}":
                var now = current()
                now.deleteForward(to: now.scalars.count)
                edit(now)
            case "\u{1}", "\u{5}", "\u{2}", "\u{6}":
                var now = current()
                switch scalar {
                case "\u{1}": now.cursor = 0
                case "\u{5}": now.cursor = now.scalars.count
                case "\u{2}": now.cursor = max(0, now.cursor - 1)
                default: now.cursor = min(now.scalars.count, now.cursor + 1)
                }
                edit(now)
            default:
                var now = current()
                now.insert([scalar], pasting: false)
                working = now
                endedWithKey = false
            }
        }
        guard endedWithKey else {
            let now = current()
            handle(.line(now.draft.text), now.origin)
            return
        }
        // An editing key ended the line: the edit line is still being typed.
        if let working, !fresh { unfinishedLine = working }
    }

    /// Plays `line`, for a caller that needs only the events.
    public mutating func play(_ line: String, prefill: () -> TextDraft?, handle: (InputEvent) -> Void) {
        play(line, prefill: { prefill().map { ($0, .typed) } }) { event, _ in handle(event) }
    }

    /// The events one piped line stands for, on its own, given a pre-fill that does not
    /// change between them: for lines holding at most one key.
    public static func events(for line: String, prefill: TextDraft?) -> [InputEvent] {
        var events: [InputEvent] = []
        var piped = PipedLine()
        piped.play(line, prefill: { events.isEmpty ? prefill : nil }) { events.append($0) }
        return events
    }

    /// The one event a line without keys, or with one key at its end, stands for.
    public static func event(for line: String, prefill: TextDraft?) -> InputEvent {
        events(for: line, prefill: prefill).first ?? .line("")
    }
}
