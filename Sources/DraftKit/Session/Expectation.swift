/// What a QA script states with `/expect`, parsed strictly: a form, its subject, and the
/// clauses to check. A word the form does not take is an error, never folded into a text.
///
/// Text is written in double quotes, with escapes for what a line cannot hold as it is:
/// `\"` a quote, `\\` a backslash, `\n` a line break, `\t` a tab, `\r` a carriage return,
/// `\u{1B}` any character by its hexadecimal code; no other escape. Text is compared
/// exactly, blanks and all.
public enum Expectation: Equatable, Sendable {
    /// `draft <key> ["text"] [cursor n] [media n]`: the draft under `key` exists, and each
    /// part given holds.
    case draft(DraftKey, text: String?, cursor: Int?, media: Int?)
    /// `no-draft <key>`: no text and no media under `key`.
    case noDraft(DraftKey)
    /// `drafts <n>`: `n` drafts in memory (the draft map's entries).
    case drafts(Int)
    /// `messages <n>`: the open chat holds `n` stored messages.
    case messages(Int)
    /// `message <n> ["text"] [from <global_key>] [type <type>]`: the open chat's `n`th stored
    /// message from the end (1 the last, 2 the one before) exists, and each part given
    /// holds; `last-message ...` is `message 1 ...`.
    case message(Int, text: String?, sender: GlobalKey?, type: String?)
    /// `undo <n>`: the undo stack holds `n` entries.
    case undo(Int)
    /// `undo-top "text"`: the undo stack's top entry (what `/undo` brings back) holds `text`.
    case undoTop(String)
    /// `line "text" [cursor n]`: the edit line, as it was before the command (what it was
    /// pre-filled with), holds `text`, and the cursor is at `n`.
    case line(String, cursor: Int?)
    /// `screen home|<user>|profile <user>|<kind> <id>`: the screen, as
    /// ``Session/screenName`` names it.
    case screen(String)
    /// `error [<kind>]`: the last line before this one that was not an `/expect` (the
    /// event it made, and a `/wait`'s end) got an error, of that ``DraftlineError/Kind``
    /// when one is named. What `--record` writes after a line that got an error, so that
    /// a replay checks the error happened; on a pipe `--strict` does not stop at an
    /// error when the very next line is this check (it stops there if the check fails).
    case error(DraftlineError.Kind?)

    /// The first word: which form.
    public enum Form: String, CaseIterable, Sendable {
        case draft, noDraft = "no-draft", drafts, messages, message, lastMessage = "last-message", undo
        case undoTop = "undo-top", line, screen, error

        /// The form's usage line.
        public var usage: String {
            switch self {
            case .draft: return "/expect draft <key> [\"text\"] [cursor n] [media n]"
            case .noDraft: return "/expect no-draft <key>"
            case .drafts: return "/expect drafts <n>"
            case .messages: return "/expect messages <n>"
            case .message: return "/expect message <n> [\"text\"] [from global_key] [type t]"
            case .lastMessage: return "/expect last-message [\"text\"] [from global_key] [type t]"
            case .undo: return "/expect undo <n>"
            case .undoTop: return "/expect undo-top \"text\""
            case .line: return "/expect line \"text\" [cursor n]"
            case .screen: return "/expect screen home|<user>|profile <user>|tweet|topic|task <id>"
            case .error: return "/expect error [kind, as unknown-command or file-missing]"
            }
        }
    }

    /// What was found where an expectation was checked.
    public enum Found: Equatable, Sendable {
        /// The draft's text (if any) and how many files it holds.
        case draft(TextDraft?, media: Int)
        /// How many drafts there are, messages the open chat holds, or entries the undo
        /// stack holds.
        case count(Int)
        /// The message asked for, if the chat holds that many, and how many it holds.
        case message(Message?, held: Int)
        /// The undo stack's top entry's text, if it has a top entry with text.
        case undoTop(TextDraft?, entries: Int)
        /// The edit line.
        case line(TextDraft)
        /// The screen's name.
        case screen(String)
        /// The kinds of the errors the line before got (none: it got none).
        case errors([DraftlineError.Kind])
    }

    /// The counts a clause takes.
    static let countRange = 0...Int.max
    /// How far from the end `message <n>` reaches.
    public static let deepestMessage = 100_000

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
        func count(in range: ClosedRange<Int> = Self.countRange) throws(DraftlineError) -> Int {
            let text = try word()
            guard let count = NumberGrammar.whole(text, in: range) else {
                throw .invalidArgument(text, expected: .count(range))
            }
            return count
        }
        func quoted() throws(DraftlineError) -> String {
            guard case .quoted(let text)? = tokens.next() else { throw .missingArgument(usage: form.usage) }
            return text
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
        case .drafts:
            self = .drafts(try count())
        case .messages:
            self = .messages(try count())
        case .message, .lastMessage:
            let place = form == .message ? try count(in: 1...Self.deepestMessage) : 1
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
            self = .message(place, text: text, sender: sender, type: type)
        case .undo:
            self = .undo(try count())
        case .undoTop:
            self = .undoTop(try quoted())
        case .line:
            let text = try quoted()
            var cursor: Int?
            if let token = tokens.next() {
                guard case .word("cursor") = token else { throw .unexpectedArgument(token.text, usage: form.usage) }
                cursor = try count()
            }
            self = .line(text, cursor: cursor)
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
        case .error:
            guard let token = tokens.next() else {
                self = .error(nil)
                break
            }
            guard case .word(let name) = token, let kind = DraftlineError.Kind(rawValue: name) else {
                throw .invalidArgument(token.text, expected: .choice(DraftlineError.Kind.allCases.map(\.rawValue)))
            }
            self = .error(kind)
        }
        if let extra = tokens.next() { throw .unexpectedArgument(extra.text, usage: form.usage) }
    }

    /// Whether `line`, a piped line, is an `/expect error` check (well formed or not): the
    /// line `--strict` lets check the error of the line before it.
    public static func checksError(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix(2)
        return line.hasPrefix("/") && words.map(String.init) == ["/expect", Form.error.rawValue]
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
                        guard let (escaped, after) = Self.escape(in: rest, at: index) else {
                            throw .invalidArgument(String(rest), expected: .quotedText)
                        }
                        quoted.unicodeScalars.append(escaped)
                        index = after
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

        /// The character an escape after a backslash stands for (`index` is just after the
        /// backslash), and where the text goes on; `nil` for an escape there is none of.
        static func escape(in text: Substring, at index: Substring.Index) -> (Unicode.Scalar, Substring.Index)? {
            guard index < text.endIndex else { return nil }
            let after = text.index(after: index)
            switch text[index] {
            case "\"": return ("\"", after)
            case "\\": return ("\\", after)
            case "n": return ("\n", after)
            case "t": return ("\t", after)
            case "r": return ("\r", after)
            case "u":
                guard after < text.endIndex, text[after] == "{",
                    let close = text[after...].firstIndex(of: "}")
                else { return nil }
                let digits = text[text.index(after: after)..<close]
                guard (1...6).contains(digits.count), digits.allSatisfy(\.isHexDigit),
                    let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
                else { return nil }
                return (scalar, text.index(after: close))
            default: return nil
            }
        }
    }

    /// Text as an expectation writes it: in double quotes, a quote and a backslash escaped,
    /// a line break, a tab and a carriage return as `\n`, `\t`, `\r`, and any other
    /// control character as `\u{…}`, so the result is one line that reads back as `text`.
    public static func quoted(_ text: String) -> String {
        var written = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": written += "\\\""
            case "\\": written += "\\\\"
            case "\n": written += "\\n"
            case "\t": written += "\\t"
            case "\r": written += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                written += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: written.unicodeScalars.append(scalar)
            }
        }
        return written + "\""
    }
}

extension Expectation {
    /// The `/expect` line that states this, as ``init(parsing:)`` reads it back (after
    /// `/expect `): what `--record` writes after each draft event.
    public var command: String {
        func part(_ word: String, _ value: (some CustomStringConvertible)?) -> String {
            value.map { " \(word) \($0)" } ?? ""
        }
        let text: String
        switch self {
        case .draft(let key, let quoted, let cursor, let media):
            text =
                "draft \(key)" + (quoted.map { " " + Self.quoted($0) } ?? "") + part("cursor", cursor)
                + part("media", media)
        case .noDraft(let key): text = "no-draft \(key)"
        case .drafts(let count): text = "drafts \(count)"
        case .messages(let count): text = "messages \(count)"
        case .message(let place, let quoted, let sender, let type):
            text =
                "message \(place)" + (quoted.map { " " + Self.quoted($0) } ?? "") + part("from", sender)
                + part("type", type)
        case .undo(let count): text = "undo \(count)"
        case .undoTop(let quoted): text = "undo-top " + Self.quoted(quoted)
        case .line(let quoted, let cursor): text = "line " + Self.quoted(quoted) + part("cursor", cursor)
        case .screen(let name): text = "screen \(name)"
        case .error(let kind): text = "error" + (kind.map { " \($0.rawValue)" } ?? "")
        }
        return "/expect " + text
    }
}
