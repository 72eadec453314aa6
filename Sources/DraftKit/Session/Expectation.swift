/// What a QA script states with `/expect`, parsed strictly: a form, its subject, and the
/// clauses to check. A word the form does not take is an error, never folded into a text.
///
/// Text is written in double quotes, where `\"` is a quote and `\\` a backslash (no other
/// escapes); a draft's text is compared exactly, blanks and all.
public enum Expectation: Equatable, Sendable {
    /// `draft <key> ["text"] [cursor n] [media n]`: the draft under `key` exists, and each
    /// part given holds.
    case draft(DraftKey, text: String?, cursor: Int?, media: Int?)
    /// `no-draft <key>`: no text and no media under `key`.
    case noDraft(DraftKey)
    /// `messages <n>`: the open chat holds `n` stored messages.
    case messages(Int)
    /// `last-message ["text"] [from <global_key>] [type <type>]`: the open chat's last
    /// stored message exists, and each part given holds.
    case lastMessage(text: String?, sender: GlobalKey?, type: String?)
    /// `screen home|<user>|profile <user>|<kind> <id>`: the screen, as
    /// ``Session/screenName`` names it.
    case screen(String)

    /// The first word: which form.
    public enum Form: String, CaseIterable, Sendable {
        case draft, noDraft = "no-draft", messages, lastMessage = "last-message", screen

        /// The form's usage line.
        public var usage: String {
            switch self {
            case .draft: return "/expect draft <key> [\"text\"] [cursor n] [media n]"
            case .noDraft: return "/expect no-draft <key>"
            case .messages: return "/expect messages <n>"
            case .lastMessage: return "/expect last-message [\"text\"] [from global_key] [type t]"
            case .screen: return "/expect screen home|<user>|profile <user>|tweet|topic|task <id>"
            }
        }
    }

    /// What was found where an expectation was checked.
    public enum Found: Equatable, Sendable {
        /// The draft's text (if any) and how many files it holds.
        case draft(TextDraft?, media: Int)
        /// How many messages the open chat holds.
        case messages(Int)
        /// The open chat's last message, if it has one.
        case lastMessage(Message?)
        /// The screen's name.
        case screen(String)
    }

    /// The counts a clause takes.
    static let countRange = 0...Int.max

    /// Parses what follows `/expect`.
    public init(parsing text: String) throws(DraftlineError) {
        var tokens = try Tokens(text)
        let first = tokens.next()
        guard case .word(let name)? = first, let form = Form(rawValue: name) else {
            throw .invalidArgument(first?.text ?? "", expected: .choice(Form.allCases.map(\.rawValue)))
        }
        func word() throws(DraftlineError) -> String {
            guard case .word(let word)? = tokens.next() else { throw .missingArgument(usage: form.usage) }
            return word
        }
        func count() throws(DraftlineError) -> Int {
            let text = try word()
            guard let count = NumberGrammar.whole(text, in: Self.countRange) else {
                throw .invalidArgument(text, expected: .count(Self.countRange))
            }
            return count
        }
        switch form {
        case .draft, .noDraft:
            let key = try Self.draftKey(try word())
            guard form == .draft else {
                self = .noDraft(key)
                break
            }
            var text: String?
            var cursor: Int?
            var media: Int?
            while let token = tokens.next() {
                switch token {
                case .quoted(let quoted) where text == nil && cursor == nil && media == nil: text = quoted
                case .word("cursor") where cursor == nil: cursor = try count()
                case .word("media") where media == nil: media = try count()
                default: throw .unexpectedArgument(token.text, usage: form.usage)
                }
            }
            self = .draft(key, text: text, cursor: cursor, media: media)
        case .messages:
            self = .messages(try count())
        case .lastMessage:
            var text: String?
            var sender: GlobalKey?
            var type: String?
            while let token = tokens.next() {
                switch token {
                case .quoted(let quoted) where text == nil && sender == nil && type == nil: text = quoted
                case .word("from") where sender == nil: sender = try GlobalKey(validating: try word())
                case .word("type") where type == nil: type = try word()
                default: throw .unexpectedArgument(token.text, usage: form.usage)
                }
            }
            self = .lastMessage(text: text, sender: sender, type: type)
        case .screen:
            let name = try word()
            switch name {
            case "home": self = .screen(name)
            case "profile": self = .screen("profile " + (try GlobalKey(validating: try word())).rawValue)
            default:
                if let kind = CommentKind(rawValue: name) {
                    let id = try word()
                    guard let number = NumberGrammar.whole(id, in: 1...Int.max) else {
                        throw .invalidArgument(id, expected: .commentID)
                    }
                    self = .screen("\(kind.rawValue) \(number)")
                } else {
                    self = .screen(try GlobalKey(validating: name).rawValue)
                }
            }
        }
        if let extra = tokens.next() { throw .unexpectedArgument(extra.text, usage: form.usage) }
    }

    /// A draft key as the original builds it, made from checked parts.
    private static func draftKey(_ text: String) throws(DraftlineError) -> DraftKey {
        if text.hasPrefix("privateMessage_") {
            return InputTarget.privateChat(try GlobalKey(validating: String(text.dropFirst(15)))).draftKey
        }
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let kind = CommentKind(rawValue: parts[0]),
            let id = NumberGrammar.whole(parts[1], in: 1...Int.max)
        else { throw .invalidArgument(text, expected: .draftKey) }
        let replyTo = parts[2].isEmpty ? nil : try GlobalKey(validating: parts[2])
        return InputTarget.comment(kind, id: UInt64(id), replyTo: replyTo).draftKey
    }

    /// The words and quoted texts of an expectation, in order.
    private struct Tokens {
        enum Token {
            case word(String), quoted(String)

            /// As it was written, for an error.
            var text: String {
                switch self {
                case .word(let word): return word
                case .quoted(let text): return Expectation.quoted(text)
                }
            }
        }

        private var tokens: [Token] = []

        init(_ text: String) throws(DraftlineError) {
            var rest = Substring(text)
            while let start = rest.firstIndex(where: { $0 != " " && $0 != "\t" }) {
                rest = rest[start...]
                guard rest.first == "\"" else {
                    let word = rest.prefix { $0 != " " && $0 != "\t" }
                    if word.contains("\"") { throw .invalidArgument(String(word), expected: .quotedText) }
                    tokens.append(.word(String(word)))
                    rest = rest[word.endIndex...]
                    continue
                }
                var quoted = ""
                var index = rest.index(after: rest.startIndex)
                var closed = false
                while index < rest.endIndex {
                    let character = rest[index]
                    index = rest.index(after: index)
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\" {
                        guard index < rest.endIndex, rest[index] == "\"" || rest[index] == "\\" else {
                            throw .invalidArgument(String(rest), expected: .quotedText)
                        }
                        quoted.append(rest[index])
                        index = rest.index(after: index)
                    } else {
                        quoted.append(character)
                    }
                }
                // A closing quote ends the text and is followed by a blank or the end.
                guard closed, index == rest.endIndex || rest[index] == " " || rest[index] == "\t" else {
                    throw .invalidArgument(String(rest), expected: .quotedText)
                }
                tokens.append(.quoted(quoted))
                rest = rest[index...]
            }
            tokens.reverse()
        }

        mutating func next() -> Token? { tokens.popLast() }
    }

    /// Text as an expectation writes it: in double quotes, `"` and `\` escaped.
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
