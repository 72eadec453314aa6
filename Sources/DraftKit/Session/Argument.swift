/// One argument of a command, as declared: its name in the usage line, how a word becomes
/// a typed `Value`, and what Tab offers for it.
///
/// The kinds (``globalKey(_:)``, ``count(_:in:)``, ``seconds``, ...) are declared in
/// `Argument+Kinds.swift`, each validating its words in one place; ``optional(_:)`` and
/// ``or(_:)`` make any of them optional. A ``CommandSpec`` hands its action the values
/// already parsed, typed by these declarations.
public struct Argument<Value: Sendable>: Sendable {
    /// The name in the usage line: `global_key`, `tweet|topic|task`, `@key`.
    public let name: String
    /// Whether the command can be given without it.
    public let isOptional: Bool
    /// Whether it takes the rest of the line, blanks included (a path, free text).
    public let takesRest: Bool
    /// A word made into a value, or refused with the error that says why.
    let parse: @Sendable (String, Capabilities) throws(DraftlineError) -> Value
    /// The value when the argument is not given (`nil`: it must be given).
    let absent: Value?
    /// What Tab offers, for these users and this front end.
    let candidates: @Sendable ([GlobalKey], Capabilities) -> [String]

    /// An argument that must be given.
    init(
        _ name: String, takesRest: Bool = false,
        candidates: @escaping @Sendable ([GlobalKey], Capabilities) -> [String] = { _, _ in [] },
        parse: @escaping @Sendable (String, Capabilities) throws(DraftlineError) -> Value
    ) {
        self.init(name, isOptional: false, takesRest: takesRest, absent: nil, candidates: candidates, parse: parse)
    }

    private init(
        _ name: String, isOptional: Bool, takesRest: Bool, absent: Value?,
        candidates: @escaping @Sendable ([GlobalKey], Capabilities) -> [String],
        parse: @escaping @Sendable (String, Capabilities) throws(DraftlineError) -> Value
    ) {
        self.name = name
        self.isOptional = isOptional
        self.takesRest = takesRest
        self.absent = absent
        self.candidates = candidates
        self.parse = parse
    }

    /// `argument`, optional: the action gets `nil` when it is not given
    /// (`.optional(.globalKey())`).
    public static func optional<Wrapped>(_ argument: Argument<Wrapped>) -> Self where Value == Wrapped? {
        let parse = argument.parse
        return Self(
            argument.name, isOptional: true, takesRest: argument.takesRest, absent: .some(nil),
            candidates: argument.candidates
        ) { (word: String, capabilities: Capabilities) throws(DraftlineError) -> Wrapped? in
            try parse(word, capabilities)
        }
    }

    /// This argument, optional: the action gets `fallback` when it is not given.
    public func or(_ fallback: Value) -> Argument<Value> {
        Argument(name, isOptional: true, takesRest: takesRest, absent: fallback, candidates: candidates, parse: parse)
    }

    /// A word made into this argument's value, as a command would take it (an option
    /// that takes the same kind of value, such as `--tour-speed`, reads it here).
    public func value(of word: String, capabilities: Capabilities = .pipe) throws(DraftlineError) -> Value {
        try parse(word, capabilities)
    }

    /// As written in the usage line: `<id>`, `[n]`, and choices (`on|off`) as they are.
    public var usage: String {
        if isOptional { return "[\(name)]" }
        return name.contains("|") ? name : "<\(name)>"
    }

    /// Takes this argument's word (or the rest of the line) from `words`.
    ///
    /// An optional argument that refuses its word leaves it to the arguments after it
    /// (`/tour 2` is a speed, `/wait 0.5` a time); if none of them takes it, the first
    /// refusal is the error.
    func take(from words: inout Command.Words, capabilities: Capabilities) throws(DraftlineError) -> Value {
        words.argumentsLeft -= 1
        guard let word = takesRest ? words.peekRest() : words.peek() else {
            if let absent { return absent }
            throw words.refusal ?? .missingArgument(usage: words.usage)
        }
        do {
            let value = try parse(word, capabilities)
            words.consume(rest: takesRest)
            // The word an optional argument before this one refused is taken: no refusal stands.
            words.refusal = nil
            return value
        } catch {
            guard let absent, words.argumentsLeft > 0 else { throw words.refusal ?? error }
            words.refusal = words.refusal ?? error
            return absent
        }
    }

    /// The argument as `/help`, Tab and the man page see it, whatever its type.
    var declared: CommandSpec.DeclaredArgument {
        CommandSpec.DeclaredArgument(usage: usage, isOptional: isOptional, takesRest: takesRest, candidates: candidates)
    }
}
