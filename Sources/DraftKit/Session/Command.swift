/// A command line parsed against the catalogue: which command, with its arguments checked
/// and bound to its action.
public struct Command: Sendable {
    /// The action with its arguments bound: what running the command does.
    typealias Action = @Sendable (Session) throws(DraftlineError) -> Outcome

    /// The declaration.
    public let spec: CommandSpec
    private let action: Action

    /// Parses a command line (one that starts with `/`) against the catalogue, for a front
    /// end that can do what `capabilities` say (the tour's chapters). Line breaks at its
    /// end are none of it: a command pasted with the newline copied after it is the command.
    public init(parsing line: String, capabilities: Capabilities) throws(DraftlineError) {
        var words = Words(String(line.reversed().drop(while: \.isNewline).reversed()))
        let first = words.peek() ?? line
        words.consume(rest: false)
        guard let spec = CommandCatalogue.spec(named: String(first.dropFirst())) else {
            throw .unknownCommand(first)
        }
        words.usage = spec.usage
        words.argumentsLeft = spec.arguments.count
        self.spec = spec
        self.action = try spec.bind(&words, capabilities)
    }

    /// Runs the command in a session.
    public func run(in session: Session) throws(DraftlineError) -> Outcome { try action(session) }

    /// The words of a command line, separated by spaces or tabs, taken one argument at a
    /// time; an optional argument that refused its word leaves it for the next.
    struct Words {
        private var remaining: Substring
        /// The command's usage line, for the errors.
        var usage = ""
        /// How many arguments have yet to take their words.
        var argumentsLeft = 0
        /// The first refusal of an optional argument that left its word to the next: the
        /// error when no later argument takes it either.
        var refusal: DraftlineError?

        init(_ line: String) { remaining = Substring(line) }

        private var trimmed: Substring { remaining.drop { $0 == " " || $0 == "\t" } }

        /// The next word, not taken yet.
        func peek() -> String? {
            let word = trimmed.prefix { $0 != " " && $0 != "\t" }
            return word.isEmpty ? nil : String(word)
        }

        /// The rest of the line without its leading blanks, not taken yet.
        func peekRest() -> String? { trimmed.isEmpty ? nil : String(trimmed) }

        /// Takes the next word, or the rest of the line.
        mutating func consume(rest: Bool) {
            let trimmed = self.trimmed
            remaining = rest ? trimmed[trimmed.endIndex...] : trimmed.drop { $0 != " " && $0 != "\t" }
        }

        /// Checks that no word is left over.
        func end() throws(DraftlineError) {
            guard let extra = peek() else { return }
            throw refusal ?? .unexpectedArgument(extra, usage: usage)
        }
    }
}
