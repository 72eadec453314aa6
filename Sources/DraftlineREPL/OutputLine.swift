/// One line draftline shows, already made safe for a terminal.
public struct OutputLine: Equatable, Sendable, CustomStringConvertible {
    /// What kind of line it is; the executable sends errors and warnings to standard error.
    public enum Kind: Equatable, Sendable {
        case info, warning, error
    }

    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// The line as printed: errors and warnings carry their kind as a prefix.
    public var description: String {
        switch kind {
        case .info: return text
        case .warning: return "warning: " + text
        case .error: return "error: " + text
        }
    }
}
