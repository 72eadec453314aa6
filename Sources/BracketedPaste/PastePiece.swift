/// A piece of text read whole, a piped line or one of the tour's steps, and what a line
/// editor's key source gives: a key, or a paste (``PasteScanner``'s grammar; the text's end
/// is where its input pauses, so its last end marker ends a paste, and a paste with no end
/// marker runs to the text's end).
public enum PastePiece: Equatable, Sendable {
    /// A key outside any paste.
    case key(Unicode.Scalar)
    /// A paste's text, its line breaks as they were written (CR, CR LF or LF).
    case paste(String)

    /// The keys and pastes of `text`, in order.
    public static func split(_ text: String) -> [PastePiece] {
        var scanner = PasteScanner<Unicode.Scalar>(limit: .max) { Unicode.Scalar($0) }
        scanner.feed(text.unicodeScalars)
        var pieces: [PastePiece] = []
        var pasted = String.UnicodeScalarView()
        for event in scanner.take(.silence) {
            switch event {
            case .key(let scalar): pieces.append(.key(scalar))
            case .text(let text): pasted.append(contentsOf: text)
            case .end:
                pieces.append(.paste(String(pasted)))
                pasted = String.UnicodeScalarView()
            }
        }
        return pieces
    }
}
