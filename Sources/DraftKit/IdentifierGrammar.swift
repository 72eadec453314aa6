/// The grammar shared by global_keys and chat IDs: `a-z`, `0-9`, `.`, `_`, `-`, starting
/// with a letter or a digit. Such a name is a safe file name: never empty, `.` or `..`,
/// and never holds a `/`.
enum IdentifierGrammar {
    static func matches(_ text: String, maximumLength: Int) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maximumLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
