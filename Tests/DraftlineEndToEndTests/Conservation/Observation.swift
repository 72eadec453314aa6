/// What draftline showed of its state: the draft map and the undo stack (`^X d` on a
/// terminal, `/drafts` on a pipe), the edit line (`^X d` only) and where it is (the prompt
/// drawn again, or `/expect screen`'s answer on a pipe). Shown texts are as draftline shows
/// them: control characters in caret notation.
struct Observation {
    struct Draft: Equatable, CustomStringConvertible {
        var key: String
        var text: String
        var cursor: Int
        var media: Int
        var description: String { "\(key) \(text.debugDescription)@\(cursor)\(media > 0 ? " media \(media)" : "")" }
    }

    struct Entry: Equatable, CustomStringConvertible {
        var origin: String
        var text: String
        var description: String { "\(origin) \(text.debugDescription)" }
    }

    /// Every line printed, as shown.
    var text: String
    var drafts: [Draft] = []
    /// Most recent first.
    var undo: [Entry] = []
    /// The edit line and its cursor (`nil` on a pipe).
    var line: String?
    var cursor = 0
    /// Where the line is: `home`, a user, `profile <user>`, `name` or `command` (the prompts).
    var place = ""

    static let prompts = [
        "profile alice> ", "profile bob> ", "open chat with: ", "command: /", "alice> ", "bob> ", "draftline> ",
    ]

    /// The place a prompt stands for.
    static func place(ofPrompt prompt: String) -> String {
        switch prompt {
        case "open chat with: ": "name"
        case "command: /": "command"
        case "draftline> ": "home"
        default: String(prompt.dropLast(2))
        }
    }

    /// Parses the rows of a draft listing (from its last header on, so that a listing printed
    /// earlier in the same output does not count).
    init(listing raw: String, place: String) {
        let plain = raw.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
        var rows = plain.split(whereSeparator: \.isNewline).map(String.init)
        if let start = rows.lastIndex(where: { $0.hasPrefix("drafts in memory") || $0.hasPrefix("no drafts") }) {
            rows = Array(rows[start...])
        }
        text = rows.joined(separator: "\n")
        self.place = place
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
            guard row.hasPrefix("  "), !row.hasPrefix("   ") else { continue }
            let body = row.dropFirst(2)
            guard let firstQuote = body.firstIndex(of: "\"") ?? body.range(of: "(no text)")?.lowerBound else {
                continue
            }
            let key = body[..<firstQuote].trimmingCharacters(in: .whitespaces)
            guard key.hasPrefix("privateMessage_") || key.hasPrefix("(") else { continue }
            switch section {
            case "drafts":
                let shown = Self.quoted(body[firstQuote...], before: "  cursor ")
                let number = { (label: String) in
                    body.range(of: label, options: .backwards).flatMap {
                        Int(body[$0.upperBound...].prefix { $0.isNumber })
                    }
                }
                drafts.append(
                    Draft(key: key, text: shown, cursor: number("  cursor ") ?? 0, media: number("  media ") ?? 0))
            case "undo":
                undo.append(Entry(origin: key, text: Self.quoted(body[firstQuote...], before: nil)))
            default:
                break
            }
        }
        drafts.sort { $0.key < $1.key }
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

    /// Text as draftline shows it: control characters in caret notation.
    static func shown(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F: result.append(contentsOf: "^?".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Shown text back to what it stands for (`^J` a line break, `^[` an escape).
    static func unshown(_ text: String) -> String {
        text.replacingOccurrences(of: "^J", with: "\n").replacingOccurrences(of: "^[", with: "\u{1B}")
    }
}
