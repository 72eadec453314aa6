/// A line that starts with `/`: a command, never a message.
public enum Command: Equatable, Sendable {
    /// `/open <global_key>`: open the private chat with a user.
    case open(GlobalKey)
    /// `/profile [global_key]`: show a user's profile; by default the open chat's user.
    case profile(GlobalKey?)
    /// `/back`: return to the previous screen.
    case back
    /// `/history [n]`: show the last n messages of the open chat.
    case history(Int?)
    /// `/help`: commands and key bindings.
    case help
    /// `/quit`: leave draftline; drafts are discarded.
    case quit

    /// Every command name, with its usage and what it does, in the order `/help` shows.
    public static let catalogue: [(name: String, usage: String, summary: String)] = [
        ("open", "/open <global_key>", "open the private chat with a user, its draft in the edit line"),
        ("profile", "/profile [global_key]", "show a user's profile (default: this chat's user)"),
        ("back", "/back", "return to the previous screen"),
        ("history", "/history [n]", "show the last n messages of this chat (default 20)"),
        ("help", "/help", "this help"),
        ("quit", "/quit", "quit: every draft is discarded, history stays"),
    ]

    /// The counts `/history` accepts.
    public static let historyRange = 1...1000

    /// Parses a command line (one that starts with `/`).
    public init(parsing line: String) throws(DraftlineError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let name = words.first.map { String($0.dropFirst()) } ?? ""
        let arguments = Array(words.dropFirst())
        guard let entry = Self.catalogue.first(where: { $0.name == name }) else {
            throw .unknownCommand(words.first ?? line)
        }
        func at(most count: Int) throws(DraftlineError) {
            if arguments.count > count { throw .unexpectedArgument(arguments[count], usage: entry.usage) }
        }
        switch name {
        case "open":
            try at(most: 1)
            guard let key = arguments.first else { throw .missingArgument(usage: entry.usage) }
            self = .open(try GlobalKey(validating: key))
        case "profile":
            try at(most: 1)
            self = .profile(
                try arguments.first.map { (text) throws(DraftlineError) in try GlobalKey(validating: text) })
        case "back":
            try at(most: 0)
            self = .back
        case "history":
            try at(most: 1)
            guard let text = arguments.first else {
                self = .history(nil)
                return
            }
            guard let count = Int(text), Self.historyRange.contains(count) else {
                throw .invalidCount(text, range: Self.historyRange)
            }
            self = .history(count)
        case "help":
            try at(most: 0)
            self = .help
        default:
            try at(most: 0)
            self = .quit
        }
    }
}
