/// A command, declared once: its name, arguments, summary and action. The parser, `/help`,
/// Tab completion and the man page's command table all derive from these declarations
/// (``CommandCatalogue``), and a declaration cannot be made without its action.
public struct CommandSpec: Sendable {
    /// What a command does with the session and its parsed arguments.
    public typealias Action = @Sendable (Session, Command.Arguments) throws(DraftlineError) -> Outcome

    /// The name typed after `/`.
    public let name: String
    public let arguments: [Argument]
    /// One line on what it does, for `/help` and the man page.
    public let summary: String
    let action: Action

    /// Declares a command that takes these arguments.
    public init(_ name: String, _ arguments: [Argument], _ summary: String, action: @escaping Action) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.action = action
    }

    /// Declares a command that takes no argument.
    public init(_ name: String, _ summary: String, action: @escaping Action) {
        self.init(name, [], summary, action: action)
    }

    /// The usage line: `/comment tweet|topic|task <id> [@key]`.
    public var usage: String { (["/" + name] + arguments.map(\.usage)).joined(separator: " ") }
}

/// A parsed command line: which command, and its arguments.
public struct Command: Sendable {
    /// The declaration.
    public let spec: CommandSpec
    /// The parsed arguments.
    public let arguments: Arguments

    /// The parsed values of a command's arguments, in declaration order (`nil` for an
    /// optional argument not given).
    public struct Arguments: Equatable, Sendable {
        public var values: [Argument.Value?]

        public func key(_ index: Int) -> GlobalKey? {
            if case .key(let key)? = values[index] { return key }
            return nil
        }
        public func kind(_ index: Int) -> CommentKind? {
            if case .kind(let kind)? = values[index] { return kind }
            return nil
        }
        public func id(_ index: Int) -> UInt64? {
            if case .id(let id)? = values[index] { return id }
            return nil
        }
        public func real(_ index: Int) -> Double? {
            if case .real(let real)? = values[index] { return real }
            return nil
        }
        public func count(_ index: Int) -> Int? {
            if case .count(let count)? = values[index] { return count }
            return nil
        }
        public func text(_ index: Int) -> String? {
            if case .text(let text)? = values[index] { return text }
            return nil
        }
        public func flag(_ index: Int) -> Bool? {
            if case .flag(let flag)? = values[index] { return flag }
            return nil
        }
    }

    /// Parses a command line (one that starts with `/`) against the catalogue.
    public init(parsing line: String) throws(DraftlineError) {
        var words = Words(line)
        let first = words.next() ?? line
        guard let spec = CommandCatalogue.spec(named: String(first.dropFirst())) else {
            throw .unknownCommand(first)
        }
        var values: [Argument.Value?] = []
        for argument in spec.arguments {
            let text = argument.takesRest ? words.takeRest() : words.next()
            guard let text, !text.isEmpty else {
                if argument.isOptional {
                    values.append(nil)
                    continue
                }
                throw .missingArgument(usage: spec.usage)
            }
            values.append(try argument.parse(text, usage: spec.usage))
        }
        if let extra = words.next() { throw .unexpectedArgument(extra, usage: spec.usage) }
        self.spec = spec
        self.arguments = Arguments(values: values)
    }

    /// Runs the command in a session.
    func run(in session: Session) throws(DraftlineError) -> Outcome {
        try spec.action(session, arguments)
    }

    /// Splits a command line into words separated by spaces or tabs, and keeps the rest.
    struct Words {
        private var remaining: Substring

        init(_ line: String) { remaining = Substring(line) }

        /// The text after the words taken so far, without its leading blanks; then nothing.
        mutating func takeRest() -> String {
            defer { remaining = "" }
            return String(remaining.drop { $0 == " " || $0 == "\t" })
        }

        mutating func next() -> String? {
            remaining = remaining.drop { $0 == " " || $0 == "\t" }
            guard !remaining.isEmpty else { return nil }
            let word = remaining.prefix { $0 != " " && $0 != "\t" }
            remaining = remaining[word.endIndex...]
            return String(word)
        }
    }
}
