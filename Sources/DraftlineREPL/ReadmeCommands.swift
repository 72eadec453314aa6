import DraftKit

/// The README's command table, made from the command declarations.
public enum ReadmeCommands {
    /// Where the table sits in `README.md`.
    public static let section = GeneratedSection(
        begin: "<!-- Commands: made from CommandCatalogue by 'make man'; do not edit by hand. -->",
        end: "<!-- End of the commands. -->")

    /// The table, in Markdown: one row per command, then `//text`.
    public static func commandTable() -> [String] {
        ["| command | does |", "| --- | --- |"]
            + CommandCatalogue.all.map { row(code($0.usage), $0.summary) }
            + [row(code("//text"), "send a message that starts with `/`")]
    }

    /// The README with its command table replaced by the current one; `nil` without the
    /// markers.
    public static func updating(_ readme: String) -> String? { section.replacing(in: readme, with: commandTable()) }

    private static func row(_ command: String, _ summary: String) -> String {
        "| \(command) | \(summary.replacingOccurrences(of: "|", with: "\\|")) |"
    }

    /// Text as code in a table cell: a `|` is escaped so that it does not end the cell.
    private static func code(_ text: String) -> String { "`" + text.replacingOccurrences(of: "|", with: "\\|") + "`" }
}
