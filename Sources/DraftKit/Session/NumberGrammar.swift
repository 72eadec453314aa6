/// The one grammar every number a command takes is read in: decimal digits, never
/// hexadecimal, an exponent, `inf` or `nan` (which `Double(_:)` and `Int(_:)` alone would
/// take).
public enum NumberGrammar {
    /// A whole number: decimal digits only, no sign (`0`, `42`, `007`), in `range`.
    public static func whole(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard text.wholeMatch(of: #/[0-9]+/#) != nil, let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    /// A decimal number: an optional sign, then digits with at most one point (`-13.25`,
    /// `0.5`, `.5`, `2`), in `range`.
    public static func decimal(_ text: String, in range: ClosedRange<Double>) -> Double? {
        guard text.wholeMatch(of: #/[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)/#) != nil, let value = Double(text),
            range.contains(value)
        else { return nil }
        return value
    }
}
