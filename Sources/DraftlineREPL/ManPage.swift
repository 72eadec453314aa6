import DraftKit

/// The man page's command table, made from the command declarations.
public enum ManPage {
    /// The line before the generated table in `Documentation/draftline.1`.
    public static let beginMarker = #".\" Commands: made from CommandCatalogue by 'make man'; do not edit by hand."#
    /// The line after it.
    public static let endMarker = #".\" End of the commands."#

    /// The table, in troff: one tagged paragraph per command.
    public static func commandTable() -> String {
        var lines = [beginMarker]
        for spec in CommandCatalogue.all {
            lines.append(".TP")
            let arguments = spec.arguments.map(\.usage).joined(separator: " ")
            lines.append(
                arguments.isEmpty
                    ? ".B /\(escape(spec.name))" : ".BI \"/\(escape(spec.name)) \" \"\(escape(arguments))\"")
            lines.append(escape(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst()) + ".")
        }
        lines.append(endMarker)
        return lines.joined(separator: "\n")
    }

    /// The man page with its command table replaced by the current one.
    public static func updating(_ page: String) -> String? {
        guard let begin = page.range(of: beginMarker), let end = page.range(of: endMarker),
            begin.lowerBound < end.lowerBound
        else { return nil }
        return String(page[..<begin.lowerBound]) + commandTable() + String(page[end.upperBound...])
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
            .replacingOccurrences(of: "\"", with: "\\(dq")
    }
}
