/// The edit line as the conservation test knows it: its characters, the cursor, and which
/// of the test's tokens each character belongs to, so that when an editing key deletes
/// characters the test knows whose they were.
///
/// It models only editing keys whose effect on the line libedit documents exactly (typing,
/// cursor motion, deleting a character, killing the line or its end); the test checks it
/// against the line draftline shows (`^X d`) and fails on any difference.
struct TrackedLine: Equatable, CustomStringConvertible {
    private(set) var scalars: [Unicode.Scalar] = []
    var cursor = 0

    init(_ text: String = "", cursor: Int? = nil) {
        scalars = Array(text.unicodeScalars)
        self.cursor = cursor ?? scalars.count
    }

    var text: String { String(String.UnicodeScalarView(scalars)) }
    var count: Int { scalars.count }
    var isEmpty: Bool { scalars.isEmpty }
    var description: String { "\(text.debugDescription)@\(cursor)" }

    /// Types text at the cursor.
    mutating func insert(_ typed: String) {
        let new = Array(typed.unicodeScalars)
        scalars.insert(contentsOf: new, at: cursor)
        cursor += new.count
    }

    /// Deletes the characters in `range`, returning them.
    private mutating func delete(_ range: Range<Int>) -> String {
        let gone = String(String.UnicodeScalarView(scalars[range]))
        scalars.removeSubrange(range)
        return gone
    }

    /// Backspace: the character before the cursor.
    mutating func deleteBefore() -> String {
        guard cursor > 0 else { return "" }
        cursor -= 1
        return delete(cursor..<cursor + 1)
    }

    /// vi's `x`: the character under the cursor; the cursor stays on the line.
    mutating func deleteUnder() -> String {
        guard cursor < scalars.count else { return "" }
        let gone = delete(cursor..<cursor + 1)
        if cursor >= scalars.count && cursor > 0 { cursor = scalars.count - 1 }
        return gone
    }

    /// Emacs `^U` (em-kill-line): the whole line.
    mutating func killLine() -> String {
        defer { cursor = 0 }
        return delete(0..<scalars.count)
    }

    /// Emacs `^K` (ed-kill-line): from the cursor to the end.
    mutating func killToEnd() -> String { delete(cursor..<scalars.count) }
}
