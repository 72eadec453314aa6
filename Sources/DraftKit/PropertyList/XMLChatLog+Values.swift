import Foundation

/// The values of a message field: numbers, dates and text, each read only in the forms
/// every reader reads alike (``XMLChatLog``).
extension XMLChatLog.Scanner {
    /// `<real>` in decimal notation or `<integer>` of at most 18 digits, as a `Double`.
    mutating func number() -> Double? {
        if take("<real>") {
            guard let digits = plain(maximum: 40), take("</real>"), Self.isDecimal(digits),
                let value = Double(String(decoding: digits, as: UTF8.self))
            else { return nil }
            // Out of range either way (infinite, or a non-zero figure read as zero or
            // subnormal): readers may refuse it or round it otherwise.
            let zeros = digits.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }.allSatisfy {
                !(49...57).contains($0)
            }
            guard value.isFinite, !value.isSubnormal, !value.isZero || zeros else { return nil }
            return value
        }
        guard take("<integer>"), let digits = plain(maximum: 19), take("</integer>") else { return nil }
        var rest = digits[...]
        let negative = rest.first == UInt8(ascii: "-")
        if negative || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 18, rest.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let value = rest.reduce(0) { $0 * 10 + Int($1 - 48) }
        return Double(negative ? -value : value)
    }

    /// `[+-]digits[.digits][e[+-]digits]`, a digit before the point: what writers write
    /// and every reader parses alike (no `nan`, `inf` or hexadecimal).
    static func isDecimal(_ text: [UInt8]) -> Bool {
        var index = 0
        func digits() -> Int {
            let start = index
            while index < text.count, (48...57).contains(text[index]) { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
        guard digits() > 0 else { return false }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            _ = digits()
        }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                index += 1
            }
            guard digits() > 0 else { return false }
        }
        return index == text.count
    }

    /// `<date>YYYY-MM-DDTHH:MM:SSZ</date>`, a real day of a year from 1900 to 9999.
    mutating func date() -> Date? {
        guard take("<date>"), let text = plain(maximum: 20), take("</date>"), text.count == 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(text[index]) else { return nil }
                value = value * 10 + Int(text[index] - 48)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")]
        guard separators.allSatisfy({ text[$0.0] == $0.1.asciiValue }),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1900...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (Hinnant's days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Text up to the next `<`: at most `maximum` bytes, no entity, no whitespace.
    mutating func plain(maximum: Int) -> [UInt8]? {
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
            guard at - start < maximum, bytes[at] > 0x20, bytes[at] != UInt8(ascii: "&") else { return nil }
            at += 1
        }
        return Array(bytes[start..<at])
    }

    /// Character data up to the next `<`, its entities replaced; `nil` for a control
    /// character (a carriage return among them), bad UTF-8 or an entity not read alike.
    mutating func text() -> String? {
        let start = at
        var entities = false
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "<") { break }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A { return nil }
            if byte == UInt8(ascii: "&") { entities = true }
            at += 1
        }
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
        guard entities else { return String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }
        guard let replaced = Self.replacingEntities(raw) else { return nil }
        return String(validating: replaced, as: UTF8.self)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#…;` / `&#x…;` of an XML character
    /// (no carriage return, no control character) replaced by their bytes.
    static func replacingEntities(_ raw: UnsafeRawBufferPointer) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        let named: [(String, UInt8)] = [("lt;", 60), ("gt;", 62), ("amp;", 38), ("quot;", 34), ("apos;", 39)]
        while index < raw.count {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                continue
            }
            guard let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 10 else {
                return nil
            }
            let name = Array(raw[index...semicolon])
            index = semicolon + 1
            if let (_, value) = named.first(where: { Array($0.0.utf8) == name }) {
                output.append(value)
                continue
            }
            guard name.first == UInt8(ascii: "#") else { return nil }
            var digits = name.dropFirst().dropLast()
            var radix = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 8,
                digits.allSatisfy({ (48...57).contains($0) || (radix == 16 && (97...102).contains($0 | 0x20)) }),
                let value = UInt32(String(decoding: digits, as: UTF8.self), radix: radix),
                value == 0x09 || value == 0x0A || (0x20...0x10FFFF).contains(value),
                let scalar = Unicode.Scalar(value), value < 0xFFFE || value > 0xFFFF
            else { return nil }
            output.append(contentsOf: String(Character(scalar)).utf8)
        }
        return output
    }
}
