import DraftKit

/// The man page's command table, made from the command declarations.
public enum ManPage {
    /// Where the table sits in `Documentation/draftline.1`.
    public static let section = GeneratedSection(
        begin: #".\" Commands: made from CommandCatalogue by 'make man'; do not edit by hand."#,
        end: #".\" End of the commands."#)

    /// The table, in troff: one tagged paragraph per command, its other forms below it.
    public static func commandTable() -> [String] {
        var lines: [String] = []
        for spec in CommandCatalogue.all {
            lines.append(".TP")
            let arguments = spec.arguments.map(\.usage).joined(separator: " ")
            lines.append(
                arguments.isEmpty
                    ? ".B /\(escape(spec.name))" : ".BI \"/\(escape(spec.name)) \" \"\(escape(arguments))\"")
            lines.append(escape(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst()) + ".")
            for form in spec.forms {
                lines += [".br", ".B \"\(escape(form))\""]
            }
        }
        return lines
    }

    /// The man page with its command table replaced by the current one; `nil` without
    /// the markers.
    public static func updating(_ page: String) -> String? { section.replacing(in: page, with: commandTable()) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
            .replacingOccurrences(of: "\"", with: "\\(dq")
    }
}
