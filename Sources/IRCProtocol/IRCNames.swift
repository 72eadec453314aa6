/// What a nick and a channel name may be, and how a server compares them.
public enum IRCNames {
    /// Whether `nick` is one both InspIRCd and ngircd take: ASCII letters, digits and
    /// `- _ [ ] { } \ | ^ \``, not starting with a digit or `-`, at most `maximumLength`
    /// bytes.
    public static func isValidNick(_ nick: String, maximumLength: Int = 30) -> Bool {
        let bytes = nick.utf8
        guard let first = bytes.first, bytes.count <= maximumLength, !isDigit(first), first != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy { isLetter($0) || isDigit($0) || nickSpecials.contains($0) }
    }

    /// Whether `name` is a channel: `#` then 1 to `maximumLength - 1` bytes that are not a
    /// space, a comma, `:`, BEL, CR, LF or NUL.
    public static func isChannel(_ name: String, maximumLength: Int = 50) -> Bool {
        let bytes = name.utf8
        guard bytes.first == UInt8(ascii: "#"), bytes.count >= 2, bytes.count <= maximumLength else { return false }
        return !bytes.contains { [0x20, 0x2C, 0x3A, 0x07, 0x0D, 0x0A, 0x00].contains($0) }
    }

    /// A name folded as the `rfc1459` case mapping does (`A`–`Z` and `[]\~` to
    /// `a`–`z` and `{}|^`); `ascii` folds letters only.
    public static func folded(_ name: String, mapping: CaseMapping = .rfc1459) -> String {
        String(
            decoding: name.utf8.map { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte + 32
                case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"), UInt8(ascii: "~"):
                    return mapping == .rfc1459 ? byte + 32 : byte
                default: return byte
                }
            }, as: UTF8.self)
    }

    /// How a server compares names (`CASEMAPPING` in its 005 line).
    public enum CaseMapping: Sendable, Equatable {
        case ascii, rfc1459
    }

    private static let nickSpecials: Set<UInt8> = Set("-_[]{}\\|^`".utf8)
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
