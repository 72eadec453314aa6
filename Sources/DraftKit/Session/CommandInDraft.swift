/// A command typed into a restored draft: told apart exactly, since the session knows
/// what it pre-filled the edit line with.
public enum CommandInDraft {
    /// The command in `line` when it is `given` with one contiguous insertion that starts
    /// with `/` and a declared command name: a command typed into a restored draft.
    ///
    /// Exact, not a guess: every place the insertion could have gone is tried, the
    /// restored cursor first. `//` starts no command.
    public static func find(in line: String, restored given: TextDraft) -> String? {
        let draft = Array(given.text.unicodeScalars)
        let typed = Array(line.unicodeScalars)
        let extra = typed.count - draft.count
        guard extra > 0 else { return nil }
        var prefix = 0
        while prefix < draft.count && draft[prefix] == typed[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < draft.count && draft[draft.count - 1 - suffix] == typed[typed.count - 1 - suffix] { suffix += 1 }
        guard draft.count - suffix <= prefix else { return nil }
        let places = [given.cursor] + Array((draft.count - suffix)...prefix)
        for place in places where (draft.count - suffix...prefix).contains(place) {
            var inserted = String.UnicodeScalarView()
            inserted.append(contentsOf: typed[place..<place + extra])
            let candidate = String(inserted)
            guard candidate.hasPrefix("/"), !candidate.hasPrefix("//") else { continue }
            let name = candidate.dropFirst().prefix { $0 != " " && $0 != "\t" }
            if CommandCatalogue.spec(named: String(name)) != nil { return candidate }
        }
        return nil
    }
}
