/// A command, declared once: its name, its arguments, a summary and its action.
///
/// The action receives the arguments already parsed, typed by their declarations: a
/// declaration whose arguments do not match its action's parameters does not compile. The
/// parser, `/help`, Tab completion, the man page and the README's command table all follow
/// from these declarations (``CommandCatalogue``).
public struct CommandSpec: Sendable {
    /// The name typed after `/`.
    public let name: String
    /// The arguments, as `/help`, Tab and the man page see them.
    public let arguments: [DeclaredArgument]
    /// One line on what it does, for `/help`, the man page and the README.
    public let summary: String
    /// The forms an argument that reads a small language of its own takes, each as a usage
    /// line (`/expect`'s), for `/help` and the man page.
    public let forms: [String]
    /// Parses the words after the name into the action's arguments, and binds them.
    let bind: @Sendable (inout Command.Words, Capabilities) throws(DraftlineError) -> Command.Action

    /// Declares a command: its name, its arguments in order, a summary (and its forms), and
    /// the action that gets their values.
    public init<each Value>(
        _ name: String, _ argument: repeat Argument<each Value>, summary: String, forms: [String] = [],
        action: @escaping @Sendable (Session, repeat each Value) throws(DraftlineError) -> Outcome
    ) {
        self.name = name
        self.summary = summary
        self.forms = forms
        var declared: [DeclaredArgument] = []
        for argument in repeat each argument { declared.append(argument.declared) }
        self.arguments = declared
        bind = { (words: inout Command.Words, capabilities: Capabilities) throws(DraftlineError) -> Command.Action in
            let values = (repeat try (each argument).take(from: &words, capabilities: capabilities))
            try words.end()
            return { (session: Session) throws(DraftlineError) -> Outcome in try action(session, repeat each values) }
        }
    }

    /// The usage line: `/comment tweet|topic|task <id> [@key]`.
    public var usage: String { (["/" + name] + arguments.map(\.usage)).joined(separator: " ") }

    /// One argument as `/help`, Tab completion and the man page see it, whatever its type.
    public struct DeclaredArgument: Sendable {
        /// As written in the usage line: `<global_key>`, `[n]`, `on|off`.
        public let usage: String
        public let isOptional: Bool
        /// Whether it takes the rest of the line.
        public let takesRest: Bool
        /// What Tab offers for it.
        let candidates: @Sendable ([GlobalKey], Capabilities) -> [String]
    }
}
