/// mIRC's formatting codes in a message's text: bold, italics, colours and the rest.
public enum IRCFormatting {
    /// The text without formatting codes: `\u{2}` bold, `\u{1D}` italics, `\u{1F}`
    /// underline, `\u{1E}` strike-through, `\u{11}` monospace, `\u{16}` reverse, `\u{F}`
    /// reset, `\u{3}` colour with up to two numbers (`\u{3}04,12`), `\u{4}` hex colour
    /// (`\u{4}FF0000,00FF00`).
    public static func stripped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { codes.contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        func skip(_ limit: Int, where matches: (Unicode.Scalar) -> Bool) {
            var taken = 0
            while taken < limit, index < scalars.count, matches(scalars[index]) {
                index += 1
                taken += 1
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x03, 0x04:
                let digits: (Unicode.Scalar) -> Bool =
                    scalar.value == 0x03
                    ? { $0.properties.numericType == .decimal && $0.isASCII }
                    : { $0.isASCII && $0.properties.isASCIIHexDigit }
                let width = scalar.value == 0x03 ? 2 : 6
                let start = index
                skip(width, where: digits)
                if index > start, index + 1 < scalars.count, scalars[index] == ",", digits(scalars[index + 1]) {
                    index += 1
                    skip(width, where: digits)
                }
            case let value where codes.contains(value): continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    private static let codes: Set<UInt32> = [0x02, 0x03, 0x04, 0x0F, 0x11, 0x16, 0x1D, 0x1E, 0x1F]
}
