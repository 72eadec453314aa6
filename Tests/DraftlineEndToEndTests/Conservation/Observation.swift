/// What `^X d` showed: the draft map, the undo stack, the edit line, and the prompt drawn
/// after them. `^X d` changes nothing, so the conservation test asks it as often as it
/// likes.
struct Observation {
    /// Every line printed, as shown (text made visible, on one line each).
    var text: String
    /// The drafts: key, shown text, media count.
    var drafts: [(key: String, text: String, media: Int)] = []
    /// The undo stack, most recent first: where from, and the shown text.
    var undo: [(origin: String, text: String)] = []
    /// The edit line, as shown, and its cursor.
    var line = ""
    var cursor = 0
    /// The prompt drawn again after the map: which screen or question the line is on.
    var prompt = ""

    static let prompts = [
        "profile alice> ", "profile bob> ", "open chat with: ", "command: /", "alice> ", "bob> ", "draftline> ",
    ]

    /// Parses the lines between `^X d` and the redrawn prompt (`after` holds the redraw).
    init(lines raw: String, after: String) {
        // The terminal's own sequences (erasing, moving) are not part of what was printed.
        let plain = raw.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        let rows = plain.split(whereSeparator: \.isNewline).map(String.init)
        text = rows.joined(separator: "\n")
        var section = ""
        for row in rows {
            if row.hasPrefix("drafts in memory") || row.hasPrefix("no drafts") {
                section = "drafts"
                continue
            }
            if row.hasPrefix("undo stack") {
                section = "undo"
                continue
            }
            if row.hasPrefix("edit line: \""), let end = row.range(of: "\"  cursor ", options: .backwards) {
                line = String(row[row.index(row.startIndex, offsetBy: 12)..<end.lowerBound])
                cursor = Int(row[end.upperBound...]) ?? -1
                section = ""
                continue
            }
            guard row.hasPrefix("  ") else { continue }
            let body = row.dropFirst(2)
            guard let firstQuote = body.firstIndex(of: "\"") ?? body.range(of: "(no text)")?.lowerBound else {
                continue
            }
            let key = body[..<firstQuote].trimmingCharacters(in: .whitespaces)
            switch section {
            case "drafts":
                let shown = Self.quoted(body[firstQuote...], before: "  cursor ")
                let media = body.range(of: "  media ").flatMap { range in
                    Int(body[range.upperBound...].prefix { $0.isNumber })
                }
                drafts.append((key, shown, media ?? 0))
            case "undo":
                undo.append((key, Self.quoted(body[firstQuote...], before: nil)))
            default:
                break
            }
        }
        prompt = Self.prompts.first { after.contains($0) } ?? ""
    }

    /// The text between the first quote and the last quote before `marker` (or the last
    /// quote of all): shown texts are not escaped, so the last quote ends them.
    private static func quoted(_ part: Substring, before marker: String?) -> String {
        guard part.first == "\"" else { return "" }
        var rest = part.dropFirst()
        if let marker, let end = rest.range(of: marker, options: .backwards) { rest = rest[..<end.lowerBound] }
        guard let close = rest.lastIndex(of: "\"") else { return String(rest) }
        return String(rest[..<close])
    }

    /// The media count of a draft.
    func media(of key: String) -> Int { drafts.first { $0.key == key }?.media ?? 0 }
}
