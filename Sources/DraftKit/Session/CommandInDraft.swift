/// A command typed into a line that started with text (a restored draft, or a line given
/// back): told apart exactly, since the session knows what it pre-filled the edit line
/// with.
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

    /// What `line` is when it is `given` with one contiguous insertion that starts with
    /// `/` (after any spaces typed to set it apart); `nil` when it is not (nothing was given, the line is not the given text with
    /// one insertion, or the insertion does not start with `/`).
    ///
    /// Exact, not a guess: every place the insertion could have gone is tried, the given
    /// cursor first; an insertion naming a declared command wins over one that does not.
    public static func typedInto(_ line: String, given: TextDraft) -> Typed? {
        let draft = Array(given.text.unicodeScalars)
        let typed = Array(line.unicodeScalars)
        let extra = typed.count - draft.count
        guard !draft.isEmpty, extra > 0 else { return nil }
        var prefix = 0
        while prefix < draft.count && draft[prefix] == typed[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < draft.count && draft[draft.count - 1 - suffix] == typed[typed.count - 1 - suffix] { suffix += 1 }
        guard draft.count - suffix <= prefix else { return nil }
        let range = (draft.count - suffix)...prefix
        let places = (range.contains(given.cursor) ? [given.cursor] : []) + range.filter { $0 != given.cursor }
        var attempt: String?
        var literal: String?
        for place in places {
            var inserted = String.UnicodeScalarView()
            inserted.append(contentsOf: typed[place..<place + extra])
            // Spaces typed before the `/` only set the command apart from the draft.
            let spaces = inserted.prefix { $0 == " " || $0 == "\t" }.count
            let candidate = String(inserted.dropFirst(spaces))
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
            let name = candidate.dropFirst().prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
            if CommandCatalogue.spec(named: String(name)) != nil { return .command(candidate) }
            if attempt == nil { attempt = candidate }
        }
        if let attempt { return .command(attempt) }
        return literal.map(Typed.literalSlash)
    }

    /// The command in `line` when it is `restored` with one contiguous insertion that
    /// starts with `/` and a declared command name.
    public static func find(in line: String, restored given: TextDraft) -> String? {
        guard case .command(let command)? = typedInto(line, given: given) else { return nil }
        let name = command.dropFirst().prefix { $0 != " " && $0 != "\t" && $0 != "\n" }
        return CommandCatalogue.spec(named: String(name)) != nil ? command : nil
    }
}
