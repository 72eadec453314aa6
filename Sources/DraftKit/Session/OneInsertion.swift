/// How a line holds a text with one contiguous insertion: the one place the ledger and the
/// command rules ask "is this line that text, with something typed into it?" (SPEC §1a,
/// "a command typed into a restored draft": exact, not a guess).
///
/// Where the insertion went can be ambiguous (`ab` in `abb`): every place it could have
/// gone is in ``places``, in Unicode scalars from the start of the line.
struct OneInsertion {
    /// The line, as Unicode scalars.
    let line: [Unicode.Scalar]
    /// Where the insertion may start: each place gives the same line.
    let places: ClosedRange<Int>
    /// How many scalars were inserted (0: the line is the text itself).
    let length: Int

    /// How `line` holds `text` with one contiguous insertion; `nil` when it does not (it
    /// lost some of `text`, or holds it in two pieces).
    init?(of text: String, in line: String) {
        let part = Array(text.unicodeScalars)
        let whole = Array(line.unicodeScalars)
        guard whole.count >= part.count else { return nil }
        var prefix = 0
        while prefix < part.count && whole[prefix] == part[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < part.count && whole[whole.count - 1 - suffix] == part[part.count - 1 - suffix] { suffix += 1 }
        guard part.count - suffix <= prefix else { return nil }
        self.line = whole
        places = (part.count - suffix)...prefix
        length = whole.count - part.count
    }

    /// The inserted scalars when the insertion starts at `place`.
    func inserted(at place: Int) -> ArraySlice<Unicode.Scalar> { line[place..<place + length] }
}
