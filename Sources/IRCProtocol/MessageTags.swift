/// A line's IRCv3 message tags (`@time=…;msgid=…;+typing=active`), in the order given.
///
/// Values are kept unescaped; ``serialized`` escapes them as the message-tags
/// specification says (`\:` for `;`, `\s` for a space, `\\`, `\r`, `\n`). A key given twice
/// keeps its last value, and a tag without a value (or with an empty one) has the value
/// `""`.
public struct MessageTags: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// The tags, keys unique, in the order first given.
    public private(set) var pairs: [(key: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The value of a tag, `nil` when the line has none by that key.
    public subscript(key: String) -> String? {
        get { pairs.first { $0.key == key }?.value }
        set {
            let index = pairs.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): pairs[index].value = value
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let value?): pairs.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// Whether there are no tags.
    public var isEmpty: Bool { pairs.isEmpty }

    /// Reads the tags part of a line, without its `@`: `key[=value]` pairs joined by `;`.
    /// Unknown escapes stand for the character itself; a trailing lone `\` is dropped.
    public init(parsing text: Substring) {
        for item in text.pieces(separatedBy: UInt8(ascii: ";")) {
            let parts = item.pieces(separatedBy: UInt8(ascii: "="), maxPieces: 2)
            guard let key = parts.first, !key.isEmpty else { continue }
            self[String(key)] = parts.count > 1 ? Self.unescape(parts[1]) : ""
        }
    }

    /// The tags as they go on the wire, without the `@` and the space after them.
    public var serialized: String {
        pairs.map { $0.value.isEmpty ? $0.key : "\($0.key)=\(Self.escape($0.value))" }.joined(separator: ";")
    }

    /// Whether `key` may be sent: an optional `+` (a client-only tag), an optional vendor
    /// (`example.com/`), then letters, digits and `-`.
    public static func isValidKey(_ key: String) -> Bool {
        var name = key[...]
        if name.first == "+" { name = name.dropFirst() }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        return !name.isEmpty
            && key.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                    UInt8(ascii: "."):
                    return true
                default: return false
                }
            }
    }

    /// A value with `;`, space, `\`, CR and LF escaped.
    public static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case ";": escaped += "\\:"
            case " ": escaped += "\\s"
            case "\\": escaped += "\\\\"
            case "\r": escaped += "\\r"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// An escaped value as it was meant.
    public static func unescape(_ value: Substring) -> String {
        var result = ""
        var escaping = false
        for scalar in value.unicodeScalars {
            if escaping {
                escaping = false
                switch scalar {
                case ":": result += ";"
                case "s": result += " "
                case "r": result += "\r"
                case "n": result += "\n"
                default: result.unicodeScalars.append(scalar)
                }
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func == (lhs: MessageTags, rhs: MessageTags) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
    }
}
