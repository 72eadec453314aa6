import DraftKit

/// `/help`: every command from the catalogue, then the keys as bound, in 80 columns.
extension Presenter {
    /// The width `/help` fits in, whatever the bindings.
    public static let helpWidth = 80

    /// `/help`: every command from the catalogue, then the keys as bound.
    func help() -> [String] {
        var lines = ["commands:"]
        for spec in CommandCatalogue.all {
            lines += Self.columns([(spec.usage, spec.summary)], leftWidth: 24)
            for form in spec.forms { lines += Self.wrap(form, indent: 4) }
        }
        lines += Self.columns([("//text", "send a message that starts with /")], leftWidth: 24)
        lines += Self.wrap("keys (rebind by function name in ~/.editrc, lines starting 'draftline:'):", indent: 0)
        let keyRows =
            LeaveKey.allCases.map { (Self.flat(keys[$0]), $0.functionName, $0.help) } + [
                (Self.flat(keys.draftMap), KeyLabels.draftMapFunction, "show the draft map above the edit line"),
                ("Tab", "draftline-complete", "complete a command or a global_key"),
            ]
        // Keys as long as the defaults share a column; a longer binding gets a line of its own.
        let keyWidth = keyRows.map(\.0.count).filter { $0 <= 6 }.max() ?? 0
        let functionWidth = keyRows.map(\.1.count).max() ?? 0
        lines += Self.columns(
            keyRows.map { (Self.padded($0.0, to: keyWidth) + "  " + $0.1, $0.2) },
            leftWidth: keyWidth + 2 + functionWidth)
        lines += Self.wrap("Enter sends; Ctrl-C abandons the line (/undo brings it back);", indent: 2)
        lines += Self.wrap(
            "a / typed into a restored draft is a command and the draft stays (a failed one comes back to fix, "
                + "and Enter again only tries it again); a paste is text, never a command or an Enter;",
            indent: 2)
        lines += Self.wrap(
            "Ctrl-D on an empty line quits (with drafts in memory, it warns first: a Ctrl-D that is the very next key quits)",
            indent: 2)
        return lines
    }

    /// Rows of two columns, indented by two: the left cell padded to `leftWidth`, the right
    /// one wrapped at blanks to fit ``helpWidth``. A left cell too wide for its column has
    /// a line (or lines) of its own, and the right one starts below it.
    static func columns(_ rows: [(String, String)], leftWidth: Int) -> [String] {
        let indent = 2 + leftWidth + 2
        var lines: [String] = []
        for (left, right) in rows {
            var wrapped = wrap(right, indent: indent)
            if left.count <= leftWidth, let first = wrapped.first {
                wrapped[0] = "  " + padded(left, to: leftWidth) + "  " + first.dropFirst(indent)
            } else {
                lines += wrap(left, indent: 2)
            }
            lines += wrapped
        }
        return lines
    }

    /// Text in lines of at most ``helpWidth`` characters, each starting with `indent`
    /// blanks, broken at blanks; a word too long for a line is broken where the line ends.
    static func wrap(_ text: String, indent: Int) -> [String] {
        let room = max(helpWidth - indent, 1)
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            if !line.isEmpty && line.count + 1 + word.count > room {
                lines.append(margin + line)
                line = ""
            }
            while word.count > room {
                if !line.isEmpty { lines.append(margin + line) }
                lines.append(margin + word.prefix(room))
                word = word.dropFirst(room)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(margin + line) }
        return lines
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
