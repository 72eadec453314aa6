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
///   Ctrl-U (0x15) empties the line; Ctrl-A, Ctrl-E, Ctrl-B and Ctrl-F (0x01, 0x05, 0x02,
///   0x06) move the cursor to the start, to the end, back and forward. After a leave
///   key, Ctrl-C or Ctrl-D, typing goes on in a fresh line.
/// - A line that ends with a key ends there: its newline is not Enter. After an editing
///   key (Ctrl-U, Ctrl-A, Ctrl-E, Ctrl-B, Ctrl-F, a Ctrl-D that deleted) the edit line is
///   still being typed, as on a terminal before Enter: the next piped line goes on in it.
///
/// The pipe loop keeps one `PipedLine` for the whole input: it holds that unfinished line.
public struct PipedLine {
    /// The edit line an editing key left at the end of the last piped line, still being
    /// typed; `nil` when the next line starts fresh, from the pre-fill.
    public private(set) var unfinished: TextDraft?

    public init() {}

    /// Plays `line`: `handle` gets each event in order; `prefill` says what a fresh line
    /// starts with at that moment (it changes as events are handled).
    public mutating func play(_ line: String, prefill: () -> TextDraft?, handle: (InputEvent) -> Void) {
        let scalars = Array(line.unicodeScalars)
        // The line after an editing key; nil while it is the pre-fill.
        var edited: TextDraft? = unfinished
        var typed = String.UnicodeScalarView()
        var fresh = unfinished == nil  // no key yet in this edit line
        var endedWithKey = false
        unfinished = nil

        func current() -> TextDraft { (edited ?? prefill() ?? TextDraft(text: "")).inserting(String(typed)) }
        func restart() {
            edited = nil
            typed = String.UnicodeScalarView()
            fresh = true
            endedWithKey = true
        }
        func edit(_ line: TextDraft) {
            edited = line
            typed = String.UnicodeScalarView()
            fresh = false
            endedWithKey = true
        }

        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\u{18}", index < scalars.count,
                let key = LeaveKey.allCases.first(where: { $0.suffix.unicodeScalars.first == scalars[index] })
            {
                index += 1
                handle(.leave(key, current()))
                restart()
                continue
            }
            switch scalar {
            case "\u{3}":
                handle(.interrupt(current()))
                restart()
            case "\u{4}":
                let now = current()
                if now.text.isEmpty {
                    handle(.quitRequest(afterKeys: !fresh))
                    restart()
                } else {
                    edit(now.deletingForward())
                }
            case "\u{15}":
                edit(TextDraft(text: ""))
            case "\u{1}", "\u{5}", "\u{2}", "\u{6}":
                let now = current()
                let length = now.text.unicodeScalars.count
                let cursor: Int
                switch scalar {
                case "\u{1}": cursor = 0
                case "\u{5}": cursor = length
                case "\u{2}": cursor = max(0, now.cursor - 1)
                default: cursor = min(length, now.cursor + 1)
                }
                edit(TextDraft(text: now.text, cursor: cursor))
            default:
                typed.append(scalar)
                endedWithKey = false
            }
        }
        guard endedWithKey else {
            handle(.line(current().text))
            return
        }
        // An editing key ended the line: the edit line is still being typed.
        if let edited, !fresh { unfinished = edited }
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

extension TextDraft {
    /// The text with the character under the cursor deleted (Ctrl-D on a line).
    func deletingForward() -> TextDraft {
        var scalars = Array(text.unicodeScalars)
        guard cursor < scalars.count else { return self }
        scalars.remove(at: cursor)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return TextDraft(text: String(view), cursor: cursor)
    }
}
