/// A part of a document made from the command declarations, between two marker lines that
/// stay: the man page's command table, the README's.
public struct GeneratedSection: Sendable {
    /// The line before the generated part.
    public let begin: String
    /// The line after it.
    public let end: String

    /// The document with the part between the markers replaced by `content` (lines, no
    /// markers); `nil` when the markers are missing or out of order.
    public func replacing(in document: String, with content: [String]) -> String? {
        guard let first = document.range(of: begin), let last = document.range(of: end),
            first.upperBound <= last.lowerBound
        else { return nil }
        let middle = ([""] + content + [""]).joined(separator: "\n")
        return String(document[..<first.upperBound]) + middle + String(document[last.lowerBound...])
    }
}
