/// A line that starts with `/`: a command, never a message.
public enum Command: Equatable, Sendable {
    /// `/open <global_key>`: open the private chat with a user.
    case open(GlobalKey)
    /// `/profile [global_key]`: show a user's profile; by default the open chat's user.
    case profile(GlobalKey?)
    /// `/back`: return to the previous screen.
    case back
    /// `/comment tweet|topic|task <id> [@global_key]`: open a comment input.
    case comment(CommentKind, id: UInt64, replyTo: GlobalKey?)
    /// `/attach <path>`: add a file to the current draft's media list.
    case attach(String)
    /// `/detach [n]`: remove attachment n (as typed), or all of them.
    case detach(String?)
    /// `/location <lat> <lon> [address]`: send a location message.
    case location(latitude: Double, longitude: Double, address: String)
    /// `/history [n]`: show the last n messages of the open chat.
    case history(Int?)
    /// `/chats`: conversations, most recent first, with draft previews.
    case chats
    /// `/drafts`: the draft map as it is.
    case drafts
    /// `/discard`: drop the current draft.
    case discard
    /// `/undo`: bring back the draft most recently discarded, emptied or lost.
    case undo
    /// `/trace on|off`: print a line for every draft event.
    case trace(Bool)
    /// `/tour [speed]`: play the guided tour (on a terminal).
    case tour(Double?)
    /// `/help`: commands and key bindings.
    case help
    /// `/quit`: leave draftline; drafts are discarded.
    case quit

    /// Every command name, with its usage and what it does, in the order `/help` shows.
    public static let catalogue: [(name: String, usage: String, summary: String)] = [
        ("open", "/open <global_key>", "open the private chat with a user, its draft in the edit line"),
        ("profile", "/profile [global_key]", "show a user's profile (default: this chat's user)"),
        ("back", "/back", "return to the previous screen"),
        ("comment", "/comment tweet|topic|task <id> [@key]", "write a comment, or a reply to a user"),
        ("attach", "/attach <path>", "add a file to this draft (regular, readable, 100 MiB at most)"),
        ("detach", "/detach [n]", "remove attachment n from this draft, or all"),
        ("location", "/location <lat> <lon> [address]", "send a location"),
        ("history", "/history [n]", "show the last n messages here (default 20)"),
        ("chats", "/chats", "conversations, most recent first, with their drafts"),
        ("drafts", "/drafts", "every draft in memory: key, text, cursor, media, age"),
        ("discard", "/discard", "drop this draft (/undo brings it back)"),
        ("undo", "/undo", "bring back the last draft discarded, emptied or lost"),
        ("trace", "/trace on|off", "print a line for every draft event"),
        ("tour", "/tour [speed]", "play the guided tour of the draft flow (speed: 2 is twice as fast)"),
        ("help", "/help", "this help"),
        ("quit", "/quit", "quit: every draft is discarded, history stays"),
    ]

    /// How many messages `/history` shows when not told.
    public static let defaultHistoryCount = 20
    /// The counts `/history` accepts.
    public static let historyRange = 1...1000

    /// Parses a command line (one that starts with `/`).
    public init(parsing line: String) throws(DraftlineError) {
        var words = Words(line)
        let first = words.next() ?? line
        let name = String(first.dropFirst())
        guard let entry = Self.catalogue.first(where: { $0.name == name }) else { throw .unknownCommand(first) }
        func required() throws(DraftlineError) -> String {
            guard let word = words.next() else { throw .missingArgument(usage: entry.usage) }
            return word
        }
        func end() throws(DraftlineError) {
            if let extra = words.next() { throw .unexpectedArgument(extra, usage: entry.usage) }
        }
        switch name {
        case "open":
            self = .open(try GlobalKey(validating: try required()))
        case "profile":
            self = .profile(try words.next().map { (text) throws(DraftlineError) in try GlobalKey(validating: text) })
        case "back": self = .back
        case "comment":
            let kindText = try required()
            guard let kind = CommentKind(rawValue: kindText) else {
                throw .unexpectedArgument(kindText, usage: entry.usage)
            }
            let idText = try required()
            guard idText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = UInt64(idText), id > 0 else {
                throw .invalidCommentID(idText)
            }
            var replyTo: GlobalKey?
            if let target = words.next() {
                guard target.hasPrefix("@") else { throw .invalidReplyTarget(target) }
                replyTo = try GlobalKey(validating: String(target.dropFirst()))
            }
            self = .comment(kind, id: id, replyTo: replyTo)
        case "attach":
            let path = words.rest
            guard !path.isEmpty else { throw .missingArgument(usage: entry.usage) }
            self = .attach(path)
            return
        case "detach":
            self = .detach(words.next())
        case "location":
            let latitude = try Self.coordinate(try required(), name: "latitude", range: -90...90)
            let longitude = try Self.coordinate(try required(), name: "longitude", range: -180...180)
            self = .location(latitude: latitude, longitude: longitude, address: words.rest)
            return
        case "history":
            guard let text = words.next() else {
                self = .history(nil)
                break
            }
            guard let count = Int(text), Self.historyRange.contains(count) else {
                throw .invalidCount(text, range: Self.historyRange)
            }
            self = .history(count)
        case "chats": self = .chats
        case "drafts": self = .drafts
        case "discard": self = .discard
        case "undo": self = .undo
        case "trace":
            switch try required() {
            case "on": self = .trace(true)
            case "off": self = .trace(false)
            case let other: throw .invalidSwitch(other)
            }
        case "tour":
            guard let text = words.next() else {
                self = .tour(nil)
                break
            }
            guard let speed = Double(text), speed.isFinite, speed > 0, speed <= 1000 else {
                throw .invalidSpeed(text)
            }
            self = .tour(speed)
        case "help": self = .help
        default: self = .quit
        }
        try end()
    }

    private static func coordinate(
        _ text: String, name: String, range: ClosedRange<Double>
    ) throws(DraftlineError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .invalidCoordinate(text, name: name, range: range)
        }
        return value
    }

    /// Splits a command line into words separated by spaces or tabs, and keeps the rest.
    private struct Words {
        private var remaining: Substring

        init(_ line: String) { remaining = Substring(line) }

        /// The text after the words taken so far, without its leading blanks.
        var rest: String { String(remaining.drop { $0 == " " || $0 == "\t" }) }

        mutating func next() -> String? {
            remaining = remaining.drop { $0 == " " || $0 == "\t" }
            guard !remaining.isEmpty else { return nil }
            let word = remaining.prefix { $0 != " " && $0 != "\t" }
            remaining = remaining[word.endIndex...]
            return String(word)
        }
    }
}
