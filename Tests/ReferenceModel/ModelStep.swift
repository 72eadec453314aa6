/// One abstract step of a user at draftline's edit line: what the reference model is fed,
/// and what a test renders as keystrokes on a terminal or as bytes of a piped line.
public enum ModelStep: Equatable, Sendable, CustomStringConvertible {
    /// Printable text typed at the cursor (a command is typed text too: `/drfts`).
    case type(String)
    /// A bracketed paste of this text (line breaks as `\n`; an early `ESC[201~` as text).
    case paste(String)
    /// Backspace, `count` times.
    case backspace(Int)
    /// The character under the cursor: emacs Ctrl-D inside a line, vi's `x`.
    case deleteUnder
    /// Emacs `^U`: the whole line.
    case killLine
    /// Emacs `^K`: from the cursor to the end.
    case killToEnd
    /// Cursor motion: `^A`, `^E`, Left (`^B`), Right (`^F`).
    case home, end, left, right
    /// vi: Escape (to command mode), `i`, `a`, `h`, `l`, `0`, `$`.
    case escape, viInsert, viAppend, viLeft, viRight, viHome, viEnd
    /// Ctrl-L: redraw.
    case redraw
    /// A history recall (Up, vi `k`, or `^R` accepted) that put `recalled` in the line.
    case recall(String)
    /// Up then Down (vi `k` then `j`): a recall that returns to the line.
    case recallAndReturn
    /// Down (`^N` in vi's insert mode, `j` in its command mode) where no recall shows.
    case downOnOwnLine
    /// Down (vi `j`) while a recall shows, which put `shown` in the line: a newer history
    /// line, or the user's own line again.
    case down(String)
    /// `^R` with a pattern (the line shows `recalled`), then Ctrl-C.
    case searchThenInterrupt(String)
    /// Enter.
    case enter
    /// `^X p`, `^X b`, `^X o`, `^X /`.
    case leave(Leave)
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D (in vi, in either mode).
    case endOfFile
    /// Another process sends a message to this one.
    case arrival
    /// A look that changes nothing (`^X d` on a terminal, `/drafts` on a pipe); it is a key.
    case look

    public enum Leave: String, Equatable, Sendable {
        case profile = "p", back = "b", open = "o", command = "/"
    }

    public var description: String {
        switch self {
        case .type(let text): "type \(text.debugDescription)"
        case .paste(let text): "paste \(text.count > 60 ? "\(text.utf8.count) bytes" : text.debugDescription)"
        case .backspace(let count): "Backspace×\(count)"
        case .deleteUnder: "delete-under"
        case .killLine: "^U"
        case .killToEnd: "^K"
        case .home: "^A"
        case .end: "^E"
        case .left: "Left"
        case .right: "Right"
        case .escape: "Escape"
        case .viInsert: "i"
        case .viAppend: "a"
        case .viLeft: "h"
        case .viRight: "l"
        case .viHome: "0"
        case .viEnd: "$"
        case .redraw: "Ctrl-L"
        case .recall(let text): "recall \(text.debugDescription)"
        case .recallAndReturn: "Up-Down"
        case .downOnOwnLine: "Down"
        case .down(let text): "Down \(text.debugDescription)"
        case .searchThenInterrupt(let text): "^R(\(text.debugDescription))-Ctrl-C"
        case .enter: "Enter"
        case .leave(let key): "^X\(key.rawValue)"
        case .interrupt: "Ctrl-C"
        case .endOfFile: "Ctrl-D"
        case .arrival: "arrival"
        case .look: "look"
        }
    }

    /// Whether the step ends the edit line's read (Enter, a leave key, Ctrl-C, and Ctrl-D
    /// on an empty line; elsewhere Ctrl-D deletes under the cursor).
    public func endsRead(onEmptyLine: Bool) -> Bool {
        switch self {
        case .enter, .leave, .interrupt, .searchThenInterrupt: true
        case .endOfFile: onEmptyLine
        default: false
        }
    }

    /// Whether the step is a key that edits the line in place (deletes, or moves the
    /// cursor), as a pipe's editing keys do; Ctrl-D on an empty line counts too.
    public var editsInPlace: Bool {
        switch self {
        case .backspace, .deleteUnder, .killLine, .killToEnd, .home, .end, .left, .right, .endOfFile: true
        default: false
        }
    }
}
