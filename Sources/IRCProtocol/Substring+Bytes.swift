extension Substring {
    /// The pieces between occurrences of an ASCII byte, cut on the UTF-8 bytes rather than
    /// on characters (a combining mark after the separator would hide it from
    /// `split(separator:)`).
    func pieces(separatedBy separator: UInt8, maxPieces: Int = .max) -> [Substring] {
        var result: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == separator && result.count < maxPieces - 1 {
                result.append(Substring(utf8[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        result.append(Substring(utf8[start..<utf8.endIndex]))
        return result
    }

    /// The part before the first occurrence of an ASCII byte and the part after it, or
    /// `nil` when it does not occur.
    func cut(at separator: UInt8, last: Bool = false) -> (Substring, Substring)? {
        let found = last ? utf8.lastIndex(of: separator) : utf8.firstIndex(of: separator)
        guard let found else { return nil }
        return (Substring(utf8[utf8.startIndex..<found]), Substring(utf8[utf8.index(after: found)...]))
    }
}
