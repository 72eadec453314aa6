import DraftKit

/// Turns a line read from a pipe into what the same keystrokes do on a terminal.
///
/// A piped line is what a person would type into the edit line, then Enter. So:
/// - a line ending with `^X p`, `^X b` or `^X o` (0x18 then `p`, `b` or `o`) leaves the
///   input target with the text before those bytes as its draft, as the keys do;
/// - a line that starts with `/` is a command and leaves any draft as it is;
/// - any other line is typed into the pre-filled draft at its saved cursor, then sent.
public enum PipedLine {
    /// The event a piped line stands for, given what the edit line would be pre-filled with.
    public static func event(for line: String, prefill: TextDraft?) -> InputEvent {
        let scalars = line.unicodeScalars
        if scalars.count >= 2, scalars[scalars.index(scalars.endIndex, offsetBy: -2)] == "\u{18}",
            let key = LeaveKey.allCases.first(where: { String($0.suffix).unicodeScalars.first == scalars.last })
        {
            let typed = String(String.UnicodeScalarView(scalars.dropLast(2)))
            return .leave(key, prefill?.inserting(typed) ?? TextDraft(text: typed))
        }
        if line.hasPrefix("/") { return .line(line) }
        return .line(prefill?.inserting(line).text ?? line)
    }
}
