/// The kinds of argument commands take, each validating its words here and nowhere else.
extension Argument where Value == GlobalKey {
    /// A user's `global_key`; Tab offers the known users.
    public static func globalKey(_ name: String = "global_key") -> Self {
        Self(name, candidates: { users, _ in users.map(\.rawValue) }) { word, _ throws(DraftlineError) in
            try GlobalKey(validating: word)
        }
    }

    /// `@global_key`: the user a comment replies to.
    public static let replyTarget = Self("@key", candidates: { users, _ in users.map { "@" + $0.rawValue } }) {
        word, _ throws(DraftlineError) in
        guard word.hasPrefix("@") else { throw .invalidArgument(word, expected: .replyTarget) }
        return try GlobalKey(validating: String(word.dropFirst()))
    }
}

extension Argument where Value == CommentKind {
    /// `tweet`, `topic` or `task`.
    public static let commentKind = Self(
        CommentKind.allCases.map(\.rawValue).joined(separator: "|"),
        candidates: { _, _ in CommentKind.allCases.map(\.rawValue) }
    ) { word, _ throws(DraftlineError) in
        guard let kind = CommentKind(rawValue: word) else { throw .invalidArgument(word, expected: .commentKind) }
        return kind
    }
}

extension Argument where Value == UInt64 {
    /// A comment's ID: a whole number that fits 64 bits, as every thread's name holds
    /// (``IdentifierGrammar/isThread(_:)``), so every thread is reachable.
    public static let commentID = Self("id") { word, _ throws(DraftlineError) in
        guard word.wholeMatch(of: #/[0-9]+/#) != nil, let id = UInt64(word) else {
            throw .invalidArgument(word, expected: .commentID)
        }
        return id
    }
}

extension Argument where Value == Int {
    /// A whole number in `range`.
    public static func count(_ name: String, in range: ClosedRange<Int>) -> Self {
        Self(name) { word, _ throws(DraftlineError) in
            guard let count = NumberGrammar.whole(word, in: range) else {
                throw .invalidArgument(word, expected: .count(range))
            }
            return count
        }
    }

    /// An attachment's number in the current draft's list, from 1.
    public static let attachmentNumber = Self("n") { word, _ throws(DraftlineError) in
        guard let number = NumberGrammar.whole(word, in: 1...Int.max) else {
            throw .invalidArgument(word, expected: .attachmentNumber)
        }
        return number
    }
}

extension Argument where Value == Int? {
    /// A whole number in `range`, or `all` (`nil`: no limit).
    public static func countOrAll(_ name: String, in range: ClosedRange<Int>) -> Self {
        Self(name, candidates: { _, _ in ["all"] }) { word, _ throws(DraftlineError) in
            if word == "all" { return nil }
            guard let count = NumberGrammar.whole(word, in: range) else {
                throw .invalidArgument(word, expected: .countOrAll(range))
            }
            return count
        }
    }
}

extension Argument where Value == Double {
    /// A latitude in decimal degrees, -90 to 90.
    public static let latitude = decimal("lat", in: -90...90, kind: .latitude)
    /// A longitude in decimal degrees, -180 to 180.
    public static let longitude = decimal("lon", in: -180...180, kind: .longitude)
    /// A speed: above 0 and at most ``ArgumentKind/maximumSpeed`` (2 is twice as fast).
    public static let speed = decimal("speed", in: 0...ArgumentKind.maximumSpeed, above: 0, kind: .speed)
    /// Seconds: above 0 and at most ``ArgumentKind/maximumSeconds``.
    public static let seconds = decimal("seconds", in: 0...ArgumentKind.maximumSeconds, above: 0, kind: .seconds)

    private static func decimal(
        _ name: String, in range: ClosedRange<Double>, above floor: Double? = nil, kind: ArgumentKind
    ) -> Self {
        Self(name) { word, _ throws(DraftlineError) in
            guard let value = NumberGrammar.decimal(word, in: range), floor.map({ value > $0 }) ?? true else {
                throw .invalidArgument(word, expected: kind)
            }
            return value
        }
    }
}

extension Argument where Value == Bool {
    /// A word that must be exactly `word` to be taken: optional, `true` when given.
    public static func keyword(_ word: String) -> Self {
        Self(word, candidates: { _, _ in [word] }) { given, _ throws(DraftlineError) in
            guard given == word else { throw .invalidArgument(given, expected: .choice([word])) }
            return true
        }.or(false)
    }

    /// `on` or `off`.
    public static let onOff = Self("on|off", candidates: { _, _ in ["on", "off"] }) { word, _ throws(DraftlineError) in
        switch word {
        case "on": return true
        case "off": return false
        default: throw .invalidArgument(word, expected: .onOff)
        }
    }
}

extension Argument where Value == String {
    /// The rest of the line, as a file path.
    public static let path = Self("path", takesRest: true) { word, _ throws(DraftlineError) in word }

    /// The rest of the line, as free text.
    public static func text(_ name: String) -> Self {
        Self(name, takesRest: true) { word, _ throws(DraftlineError) in word }
    }

    /// One of the tour's chapters this front end can play.
    public static let tourChapter = Self("chapter", candidates: { _, capabilities in capabilities.tourChapters }) {
        word, capabilities throws(DraftlineError) in
        guard capabilities.tourChapters.contains(word) else {
            throw .invalidArgument(word, expected: .tourChapter(capabilities.tourChapters))
        }
        return word
    }
}

extension Argument where Value == Expectation {
    /// What `/expect` checks: the rest of the line, parsed strictly (``Expectation``).
    public static let expectation = Self(
        "check", takesRest: true, candidates: { _, _ in Expectation.Form.allCases.map(\.rawValue) }
    ) { text, _ throws(DraftlineError) in try Expectation(parsing: text) }
}
