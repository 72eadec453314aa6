/// What the completion key does with the text before the cursor: the core's answer
/// (`Session.complete`), which the line editor carries out.
public enum Completion: Equatable, Sendable {
    /// Insert this text at the cursor.
    case insert(String)
    /// Show these candidates above the line and redraw it.
    case list([String])
    /// Nothing matches: ring the bell.
    case none

    /// The completion of `word` among `candidates`: the rest of the only match (with
    /// `suffix` after it), the longest common part, or the list.
    public static func of(_ word: String, among candidates: [String], suffix: String = "") -> Completion {
        guard let first = candidates.first else { return .none }
        if candidates.count == 1 { return .insert(String(first.dropFirst(word.count)) + suffix) }
        var common = Substring(first)
        for candidate in candidates.dropFirst() {
            common = common.prefix(zip(common, candidate).prefix { $0 == $1 }.count)
        }
        if common.count > word.count { return .insert(String(common.dropFirst(word.count))) }
        return .list(candidates)
    }
}
