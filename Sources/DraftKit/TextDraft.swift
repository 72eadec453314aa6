/// The unsent text of one input target, and where the cursor was in it.
public struct TextDraft: Equatable, Sendable {
    /// The text, verbatim: tabs, control characters, CJK and emoji included.
    public var text: String
    /// The cursor position, in Unicode scalars from the start of `text`.
    public var cursor: Int

    /// Makes a draft; a cursor outside the text is moved to its nearest end.
    public init(text: String, cursor: Int? = nil) {
        self.text = text
        let length = text.unicodeScalars.count
        self.cursor = min(max(cursor ?? length, 0), length)
    }

    /// The text with `typed` inserted at the cursor, and the cursor after it: what the
    /// edit line holds when someone types `typed` into this pre-filled draft.
    public func inserting(_ typed: String) -> TextDraft {
        let scalars = text.unicodeScalars
        let split = scalars.index(scalars.startIndex, offsetBy: cursor)
        var result = String.UnicodeScalarView(scalars[..<split])
        result.append(contentsOf: typed.unicodeScalars)
        let newCursor = result.count
        result.append(contentsOf: scalars[split...])
        return TextDraft(text: String(result), cursor: newCursor)
    }
}
