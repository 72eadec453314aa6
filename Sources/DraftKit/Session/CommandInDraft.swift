/// A command typed into a line that holds the user's text (SPEC §1a, "the line's
/// baseline": a restored draft, or text held in the line where no draft is kept): told
/// apart exactly, since the session knows the baseline and the line knows which of its
/// text was pasted.
public enum CommandInDraft {
    /// What was typed into the line.
    public enum Typed: Equatable, Sendable {
        /// A command attempt: the inserted text, starting with `/`. Whether its name is
        /// known or not, it is never sent: an unknown one is an error, and the line comes
        /// back.
        case command(String)
        /// An insertion that starts with `//`: a message with one literal `/` there.
        case literalSlash(String)
    }

    /// What `line` is when it is the `baseline` with one contiguous insertion that starts
    /// with a typed `/` (after any spaces typed to set it apart); `nil` when it is not
    /// (no baseline, the line is not the baseline with one insertion, or the insertion
    /// does not start with `/`, or its `/` was pasted: a paste into the user's text is
    /// text). `pasted` holds the line's pasted scalars (offsets from its start).
    ///
    /// Exact, not a guess: every place the insertion could have gone is tried, the
    /// baseline's cursor first; an insertion naming a declared command wins over one that
    /// does not. With `inserted`, the runs the line editor saw typed or pasted into the
    /// baseline (``LineOrigin/inserted``), only a place where the insertion is all theirs
    /// counts: `src/` typed after a draft ending in `src/` is no `/src` typed before the
    /// draft's own `/`.
    public static func typedInto(
        _ line: String, given baseline: TextDraft, pasted: [Range<Int>] = [], inserted: [Range<Int>]? = nil
    ) -> Typed? {
        guard !baseline.text.isEmpty, let insertion = OneInsertion(of: baseline.text, in: line), insertion.length > 0
        else { return nil }
        let range = insertion.places
        let places = (range.contains(baseline.cursor) ? [baseline.cursor] : []) + range.filter { $0 != baseline.cursor }
        let typed = insertion.line
        var attempt: String?
        var literal: String?
        for place in places {
            if let inserted,
                !(place..<place + insertion.length).allSatisfy({ at in inserted.contains { $0.contains(at) } })
            {
                continue
            }
            let inserted = insertion.inserted(at: place)
            // Spaces typed before the `/` only set the command apart from the draft.
            let spaces = inserted.prefix { $0 == " " || $0 == "\t" }.count
            guard !pasted.contains(where: { $0.contains(place + spaces) }) else { continue }
            let candidate = String(String.UnicodeScalarView(inserted.dropFirst(spaces)))
            if candidate.hasPrefix("//") {
                if literal == nil {
                    var message = String.UnicodeScalarView()
                    message.append(contentsOf: typed[..<(place + spaces)])
                    message.append(contentsOf: typed[(place + spaces + 1)...])
                    literal = String(message)
                }
                continue
            }
            guard candidate.hasPrefix("/") else { continue }
            if isDeclared(candidate) { return .command(candidate) }
            if attempt == nil { attempt = candidate }
        }
        if let attempt { return .command(attempt) }
        return literal.map(Typed.literalSlash)
    }

    /// What a run typed into the baseline is, when the line is not the baseline with one
    /// insertion but the baseline as the user edited it since (SPEC §1a, "the line's
    /// baseline": a failed command given back, then the text around it edited). `inserted`
    /// are the runs typed or pasted since the baseline was given (``LineOrigin/inserted``);
    /// the rest of the line is the baseline's text. A run that starts, after any spaces,
    /// with a typed `/` is a command attempt however the text around it was edited (the
    /// first such run), `//` a literal `/`; `rest` is the line without that
    /// run, the cursor where it was: the draft as the user made it. `nil` when no run
    /// starts so, or nothing of the baseline is left (a line typed anew is judged whole).
    public static func typedRun(
        in line: String, inserted: [Range<Int>], pasted: [Range<Int>] = []
    ) -> (typed: Typed, rest: TextDraft)? {
        let scalars = Array(line.unicodeScalars)
        guard inserted.allSatisfy({ $0.upperBound <= scalars.count }),
            inserted.reduce(0, { $0 + $1.count }) < scalars.count
        else { return nil }
        var literal: (typed: Typed, rest: TextDraft)?
        for run in inserted {
            let spaces = scalars[run].prefix { $0 == " " || $0 == "\t" }.count
            let start = run.lowerBound + spaces
            guard start < run.upperBound, scalars[start] == "/", !pasted.contains(where: { $0.contains(start) })
            else { continue }
            var rest = scalars
            rest.removeSubrange(run)
            let restDraft = TextDraft(text: String(String.UnicodeScalarView(rest)), cursor: run.lowerBound)
            let candidate = String(String.UnicodeScalarView(scalars[start..<run.upperBound]))
            if candidate.hasPrefix("//") {
                var message = scalars
                message.remove(at: start)
                if literal == nil { literal = (.literalSlash(String(String.UnicodeScalarView(message))), restDraft) }
                continue
            }
            return (.command(candidate), restDraft)
        }
        return literal
    }

    /// Where in `line` the command attempt typed into `baseline` is (the insertion, from the
    /// spaces before its `/`), when `line` is `baseline` with one insertion that is one.
    static func attemptRun(in line: String, given baseline: TextDraft) -> Range<Int>? {
        guard !baseline.text.isEmpty, let insertion = OneInsertion(of: baseline.text, in: line), insertion.length > 0
        else { return nil }
        let range = insertion.places
        let places = (range.contains(baseline.cursor) ? [baseline.cursor] : []) + range.filter { $0 != baseline.cursor }
        return places.first { place in
            insertion.inserted(at: place).drop { $0 == " " || $0 == "\t" }.first == "/"
        }.map { $0..<($0 + insertion.length) }
    }

    /// The command in `line` when it is `restored` with one contiguous insertion that
    /// starts with `/` and a declared command name.
    public static func find(in line: String, restored given: TextDraft) -> String? {
        guard case .command(let command)? = typedInto(line, given: given), isDeclared(command) else { return nil }
        return command
    }

    /// Whether a command line names a declared command.
    static func isDeclared(_ command: String) -> Bool {
        let name = command.dropFirst().prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
        return CommandCatalogue.spec(named: String(name)) != nil
    }
}
