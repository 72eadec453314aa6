/// Makes text that came from storage or from a user safe to write to a terminal.
public enum TerminalText {
    /// The text with every character that could drive the terminal made visible.
    ///
    /// C0 controls other than newline and tab become caret notation (`ESC` is `^[`), DEL
    /// is `^?`, C1 controls and the bidirectional-formatting characters become `<U+XXXX>`,
    /// so that no escape sequence, cursor motion or reordering reaches the terminal. CJK,
    /// emoji and joined emoji sequences are unchanged. Applying it twice changes nothing
    /// more: its output holds none of the characters it replaces.
    public static func visible(_ text: String, keepNewlines: Bool = true) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepNewlines, 0x09:
                result.append(scalar)
            case 0x00...0x1F:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F:
                result.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
                result.append(contentsOf: "<U+\(hex(scalar.value))>".unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
