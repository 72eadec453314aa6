/// One argument of a command, as declared: its name in the usage line, what it accepts,
/// and what Tab offers for it.
public struct Argument: Sendable {
    /// What an argument accepts.
    public enum Kind: Equatable, Sendable {
        /// A known-format global_key.
        case globalKey
        /// `tweet`, `topic` or `task`.
        case commentKind
        /// A positive whole number.
        case commentID
        /// `@global_key`.
        case replyTarget
        /// The rest of the line, as a file path.
        case path
        /// One word, checked by the command (an attachment's number).
        case word
        /// A latitude, -90 to 90.
        case latitude
        /// A longitude, -180 to 180.
        case longitude
        /// The rest of the line, as free text.
        case text
        /// A whole number in a range.
        case count(ClosedRange<Int>)
        /// `on` or `off`.
        case onOff
        /// A speed above 0 and at most 1000.
        case speed
        /// Seconds: above 0, at most an hour.
        case seconds
        /// One of these words.
        case choice([String])
    }

    /// A parsed value.
    public enum Value: Equatable, Sendable {
        case key(GlobalKey), kind(CommentKind), id(UInt64), real(Double), count(Int), text(String), flag(Bool)
    }

    /// The name shown in the usage line: `global_key`, `tweet|topic|task`, `@key`.
    public let name: String
    public let kind: Kind
    public let isOptional: Bool

    public init(_ name: String, _ kind: Kind, optional: Bool = false) {
        self.name = name
        self.kind = kind
        self.isOptional = optional
    }

    /// As written in the usage line: `<id>`, `[n]`, and choices (`on|off`) as they are.
    public var usage: String {
        if isOptional { return "[\(name)]" }
        return name.contains("|") ? name : "<\(name)>"
    }

    /// Whether the argument takes the rest of the line, blanks included.
    public var takesRest: Bool { kind == .path || kind == .text }

    /// Parses one word (or the rest of the line) for this argument.
    func parse(_ text: String, usage: String) throws(DraftlineError) -> Value {
        switch kind {
        case .globalKey:
            return .key(try GlobalKey(validating: text))
        case .commentKind:
            guard let kind = CommentKind(rawValue: text) else { throw .unexpectedArgument(text, usage: usage) }
            return .kind(kind)
        case .commentID:
            guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = UInt64(text), id > 0 else {
                throw .invalidCommentID(text)
            }
            return .id(id)
        case .replyTarget:
            guard text.hasPrefix("@") else { throw .invalidReplyTarget(text) }
            return .key(try GlobalKey(validating: String(text.dropFirst())))
        case .path, .word, .text:
            return .text(text)
        case .latitude:
            return .real(try Self.coordinate(text, name: "latitude", range: -90...90))
        case .longitude:
            return .real(try Self.coordinate(text, name: "longitude", range: -180...180))
        case .count(let range):
            guard let count = Int(text), range.contains(count) else { throw .invalidCount(text, range: range) }
            return .count(count)
        case .onOff:
            switch text {
            case "on": return .flag(true)
            case "off": return .flag(false)
            default: throw .invalidSwitch(text)
            }
        case .speed:
            guard let speed = Double(text), speed.isFinite, speed > 0, speed <= 1000 else {
                throw .invalidSpeed(text)
            }
            return .real(speed)
        case .seconds:
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw .invalidSeconds(text)
            }
            return .real(seconds)
        case .choice(let words):
            guard words.contains(text) else { throw .unexpectedArgument(text, usage: usage) }
            return .text(text)
        }
    }

    /// What Tab offers for this argument.
    func candidates(users: [GlobalKey]) -> [String] {
        switch kind {
        case .globalKey: return users.map(\.rawValue)
        case .replyTarget: return users.map { "@" + $0.rawValue }
        case .commentKind: return CommentKind.allCases.map(\.rawValue)
        case .onOff: return ["on", "off"]
        case .choice(let words): return words
        default: return []
        }
    }

    /// A coordinate in decimal notation (no hexadecimal, no `inf` or `nan`) within range.
    private static func coordinate(
        _ text: String, name: String, range: ClosedRange<Double>
    ) throws(DraftlineError) -> Double {
        let decimal = text.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "e")
                || $0 == UInt8(ascii: "E")
        }
        guard decimal, let value = Double(text), value.isFinite, range.contains(value) else {
            throw .invalidCoordinate(text, name: name, range: range)
        }
        return value
    }
}
