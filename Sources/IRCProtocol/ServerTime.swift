/// The `time` tag of IRCv3 `server-time`: `2026-12-01T14:23:28.547Z`.
public enum ServerTime {
    /// Seconds since 1970 (UTC) of a `time` tag's value, or `nil` when it is not one.
    public static func seconds(_ value: String) -> Double? {
        let bytes = Array(value.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == 0x2D, bytes[7] == 0x2D,
            bytes[10] == UInt8(ascii: "T"), bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        let rest = bytes[19..<(bytes.count - 1)]
        if !rest.isEmpty {
            guard rest.first == UInt8(ascii: "."), rest.count >= 2, rest.count <= 10,
                let digits = number(rest.dropFirst())
            else { return nil }
            fraction = Double(digits) / pow10(rest.count - 1)
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
