import DraftKit

/// `/help`: every command from the catalogue, then the keys as bound, in the terminal's
/// width (at most 80 columns); and the one word-wrapper draftline's own lines go through.
extension Presenter {
    /// The widest `/help` and the tour's narration are, whatever the terminal's width.
    public static let helpWidth = 80

    /// `/help`: every command from the catalogue, then the keys as bound.
    func help() -> [String] {
        var lines = ["commands:"]
        for spec in CommandCatalogue.all {
            lines += columns([(spec.usage, spec.summary)], leftWidth: 24)
            for form in spec.forms { lines += wrap(form, indent: 4) }
        }
        lines += columns([("//text", "send a message that starts with /")], leftWidth: 24)
        lines += wrap("keys (rebind by function name in ~/.editrc, lines starting 'draftline:'):", indent: 0)
        let keyRows =
            LeaveKey.allCases.map { (Self.flat(keys[$0]), $0.functionName, $0.help) } + [
                (Self.flat(keys.draftMap), KeyLabels.draftMapFunction, "show the draft map above the edit line"),
                ("Tab", "draftline-complete", "complete a command or a global_key"),
            ]
        // Keys as long as the defaults share a column; a longer binding gets a line of its own.
        let keyWidth = keyRows.map(\.0.count).filter { $0 <= 6 }.max() ?? 0
        let functionWidth = keyRows.map(\.1.count).max() ?? 0
        lines += columns(
            keyRows.map { (Self.padded($0.0, to: keyWidth) + "  " + $0.1, $0.2) },
            leftWidth: keyWidth + 2 + functionWidth)
        lines += wrap("Enter sends; Ctrl-C abandons the line (/undo brings it back);", indent: 2)
        lines += wrap(
            "a / typed into a restored draft is a command and the draft stays (a failed one comes back to fix, "
                + "and Enter again only tries it again); a paste is text, never a command or an Enter;",
            indent: 2)
        lines += wrap(
            "Ctrl-D on an empty line quits (with drafts in memory, it warns first: a Ctrl-D that is the very next key quits)",
            indent: 2)
        return lines
    }

    /// Rows of two columns, indented by two: the left cell padded to `leftWidth`, the right
    /// one wrapped at blanks to fit ``width``. A left cell too wide for its column has a
    /// line (or lines) of its own, and the right one starts below it.
    func columns(_ rows: [(String, String)], leftWidth: Int) -> [String] {
        let indent = 2 + leftWidth + 2
        var lines: [String] = []
        for (left, right) in rows {
            var wrapped = wrap(right, indent: indent)
            if left.count <= leftWidth, let first = wrapped.first {
                wrapped[0] = "  " + Self.padded(left, to: leftWidth) + "  " + first.dropFirst(indent)
            } else {
                lines += wrap(left, indent: 2)
            }
            lines += wrapped
        }
        return lines
    }

    /// `/help`'s text in lines of at most ``width`` characters, each starting with `indent`
    /// blanks.
    func wrap(_ text: String, indent: Int) -> [String] {
        Self.wrap(text, width: width, indent: indent)
    }

    /// Text in lines of at most `width` characters (fewer when the text has fewer), broken
    /// at blanks: the first line starts with `indent` blanks, the others with `hanging`
    /// (`indent` when not given); the blank a line is broken at is dropped, every other one
    /// kept (a draft's two spaces stay two); a line break in the text starts a new line; a
    /// word longer than a line is broken where the line ends. Characters are counted as
    /// columns. The one wrapper of draftline's own lines: help, the tour, trace lines,
    /// warnings and errors on a terminal.
    public static func wrap(_ text: String, width: Int, indent: Int = 0, hanging: Int? = nil) -> [String] {
        var lines: [String] = []
        var margin = indent
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = paragraph
            while true {
                let room = max(width - margin, 1)
                let blanks = String(repeating: " ", count: margin)
                margin = hanging ?? indent
                if rest.count <= room {
                    lines.append(blanks + rest)
                    break
                }
                let candidate = rest.prefix(room + 1)
                if let blank = candidate.lastIndex(of: " "), blank > rest.startIndex {
                    lines.append(blanks + rest[..<blank])
                    rest = rest[rest.index(after: blank)...]
                } else {
                    lines.append(blanks + rest.prefix(room))
                    rest = rest.dropFirst(room)
                }
            }
        }
        return lines
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
