/// One IRC line as data: its tags, where it comes from, the command and its parameters.
///
/// ``init(parsing:)`` reads whatever a server sends without failing on it (invalid UTF-8
/// becomes U+FFFD, as does a NUL byte); ``serialized()`` writes a line a server will take
/// or throws why it would not.
public struct IRCMessage: Equatable, Sendable {
    public var tags: MessageTags
    public var source: IRCSource?
    /// The command, upper-cased (`PRIVMSG`), or a three-digit numeric (`001`).
    public var command: String
    public var parameters: [String]

    public init(tags: MessageTags = MessageTags(), source: IRCSource? = nil, _ command: String, _ parameters: String...)
    {
        self.init(tags: tags, source: source, command: command, parameters: parameters)
    }

    public init(tags: MessageTags = MessageTags(), source: IRCSource? = nil, command: String, parameters: [String]) {
        self.tags = tags
        self.source = source
        self.command = command
        self.parameters = parameters
    }

    /// Why a message cannot go on the wire.
    public enum SerializationError: Error, Equatable, Sendable {
        /// The command is empty or holds something other than letters and digits.
        case invalidCommand(String)
        /// A parameter holds CR, LF or NUL (which would end the line, or be refused).
        case forbiddenCharacter(parameter: Int)
        /// A parameter before the last is empty, holds a space or starts with `:`.
        case invalidMiddleParameter(Int)
        /// A tag's key is not one the specification allows.
        case invalidTagKey(String)
        /// The line without its tags is longer than 510 bytes (512 with CRLF).
        case tooLong(bytes: Int)
        /// The tags are longer than a client may send (4094 bytes).
        case tagsTooLong(bytes: Int)
    }

    /// The most bytes of a line without its tags, CR and LF excluded.
    public static let maximumBodyBytes = 510
    /// The most bytes of the tags a client may send, `@` and space excluded.
    public static let maximumClientTagBytes = 4094

    /// Commands whose last parameter is text, always written after a `:`.
    private static let textCommands: Set<String> = ["PRIVMSG", "NOTICE", "TAGMSG", "PONG", "PING", "QUIT", "PART"]

    /// The line as it goes on the wire, without CRLF.
    public func serialized() throws(SerializationError) -> String {
        guard !command.isEmpty, command.utf8.allSatisfy({ Self.isAlphanumeric($0) }) else {
            throw .invalidCommand(command)
        }
        var body = ""
        if let source { body += ":\(source) " }
        body += command
        for (index, parameter) in parameters.enumerated() {
            guard !parameter.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .forbiddenCharacter(parameter: index)
            }
            let isLast = index == parameters.count - 1
            let plain = !parameter.isEmpty && !parameter.hasPrefix(":") && !parameter.utf8.contains(0x20)
            if isLast && (!plain || Self.textCommands.contains(command) && parameters.count > 1) {
                body += " :" + parameter
            } else {
                guard plain else { throw .invalidMiddleParameter(index) }
                body += " " + parameter
            }
        }
        guard body.utf8.count <= Self.maximumBodyBytes else { throw .tooLong(bytes: body.utf8.count) }
        guard !tags.isEmpty else { return body }
        if let bad = tags.pairs.first(where: { !MessageTags.isValidKey($0.key) }) { throw .invalidTagKey(bad.key) }
        let tagText = tags.serialized
        guard tagText.utf8.count <= Self.maximumClientTagBytes else { throw .tagsTooLong(bytes: tagText.utf8.count) }
        return "@\(tagText) \(body)"
    }

    /// The line's bytes with CRLF.
    public func wireBytes() throws(SerializationError) -> [UInt8] {
        Array(try serialized().utf8) + [0x0D, 0x0A]
    }

    /// Reads one line (without its LF or CRLF) as a server sent it; `nil` when it holds no
    /// command.
    public init?(parsing bytes: some Collection<UInt8>) {
        self.init(parsing: Self.decode(bytes))
    }

    /// Reads one line of text (without its line end); `nil` when it holds no command.
    ///
    /// The line is cut on its bytes (spaces, `:`, `@`), never on characters: a combining
    /// mark after a space does not hide the space.
    public init?(parsing line: String) {
        let bytes = line.utf8
        var position = bytes.startIndex
        func skipSpaces() {
            while position < bytes.endIndex && bytes[position] == 0x20 { position = bytes.index(after: position) }
        }
        func word() -> Substring {
            skipSpaces()
            let start = position
            while position < bytes.endIndex && bytes[position] != 0x20 { position = bytes.index(after: position) }
            return Substring(bytes[start..<position])
        }
        var tags = MessageTags()
        var source: IRCSource?
        skipSpaces()
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: "@") {
            tags = MessageTags(parsing: word().dropFirst())
            skipSpaces()
        }
        if position < bytes.endIndex && bytes[position] == UInt8(ascii: ":") {
            source = IRCSource(parsing: word().dropFirst())
        }
        let command = word()
        guard !command.isEmpty else { return nil }
        var parameters: [String] = []
        while true {
            skipSpaces()
            guard position < bytes.endIndex else { break }
            if bytes[position] == UInt8(ascii: ":") {
                parameters.append(String(Substring(bytes[bytes.index(after: position)...])))
                break
            }
            parameters.append(String(word()))
        }
        self.init(tags: tags, source: source, command: command.uppercased(), parameters: parameters)
    }

    /// Bytes as text, leniently: invalid UTF-8 and NUL bytes become U+FFFD.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        guard bytes.contains(0) else { return String(decoding: bytes, as: UTF8.self) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if byte == 0 { cleaned += [0xEF, 0xBF, 0xBD] } else { cleaned.append(byte) }
        }
        return String(decoding: cleaned, as: UTF8.self)
    }

    /// The parameter at `index`, or `""` when the line has fewer.
    public subscript(parameter index: Int) -> String {
        index < parameters.count ? parameters[index] : ""
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
