import Foundation

/// Property-list bytes from outside checked before Foundation sees them, then decoded.
/// Foundation's XML scanner recurses once per nested element (about 10,000 nested arrays
/// kill the process), so XML nested deeper than ``maximumDepth`` is refused; its binary
/// scanner traps on a collection whose count times the reference size is 2^63 or more
/// (`scanArrayOrSet`), so a binary one passes only when the own reader walks it whole.
enum PropertyListInput {
    /// The deepest nesting of XML elements accepted (messages nest four deep).
    static let maximumDepth = 128

    /// Why bytes were refused before decoding.
    enum Refusal: Error, Equatable {
        /// XML whose elements nest deeper than ``maximumDepth``.
        case tooDeep
        /// A binary property list the own reader cannot walk from its top object.
        case notWhole
    }

    /// Decodes a value, after ``check(_:)``.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try check(data)
        return try PropertyListDecoder().decode(type, from: data)
    }

    /// Throws when the bytes are XML nested deeper than ``maximumDepth``, or a binary
    /// property list that does not hold together as Foundation's scanner needs.
    static func check(_ data: Data) throws(Refusal) {
        if data.starts(with: Array("bplist".utf8)) {
            guard BinaryChatLog.expandedSize(data, limit: 0) != nil else { throw .notWhole }
        }
        guard depth(of: data) <= maximumDepth else { throw .tooDeep }
    }

    /// The deepest nesting of elements in the bytes read as XML (0 for a binary property
    /// list). Wide text is converted to UTF-8 first, as Foundation does: scanned as it is, it
    /// could hide tags.
    static func depth(of data: Data) -> Int {
        if data.starts(with: Array("bplist".utf8)) { return 0 }
        if let (encoding, mark) = wideEncoding(of: data) {
            guard var text = String(bytes: data.dropFirst(mark), encoding: encoding) else { return 0 }
            return text.withUTF8 { depth(of: $0) }
        }
        return data.withUnsafeBytes { depth(of: $0.bindMemory(to: UInt8.self)) }
    }

    /// The encoding and the length of a byte-order mark Foundation converts from before it
    /// parses (`detectEncoding`): UTF-32 and UTF-16, as it tells them apart.
    static func wideEncoding(of data: Data) -> (String.Encoding, Int)? {
        let head = Array(data.prefix(4)) + [1, 1, 1, 1]
        switch (head[0], head[1], head[2], head[3]) {
        case (0, 0, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _) where data.count >= 2: return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _) where data.count >= 2: return (.utf16LittleEndian, 2)
        default: return nil
        }
    }

    /// The deepest nesting of elements in UTF-8 bytes, as Foundation's scanner reads tags (a
    /// tag ends at its first `>`). Comments, sections and instructions end at the earliest
    /// place Foundation could end them: the scan may count tags Foundation skips, never skip
    /// tags it reads.
    static func depth(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let lt = UInt8(ascii: "<")
        let gt = UInt8(ascii: ">")
        var depth = 0
        var deepest = 0
        var index = 0
        /// The index after the first `terminator` at or after `from`, or the end.
        func skip(past terminator: [UInt8], from: Int) -> Int {
            var at = from
            while at + terminator.count <= bytes.count {
                if bytes[at] == terminator[0] && bytes[at..<(at + terminator.count)].elementsEqual(terminator) {
                    return at + terminator.count
                }
                at += 1
            }
            return bytes.count
        }
        func starts(_ prefix: String, at: Int) -> Bool {
            let utf8 = Array(prefix.utf8)
            return at + utf8.count <= bytes.count && bytes[at..<(at + utf8.count)].elementsEqual(utf8)
        }
        while index < bytes.count {
            guard bytes[index] == lt else {
                index += 1
                continue
            }
            let next = index + 1
            if starts("!--", at: next) {
                index = skip(past: Array("-->".utf8), from: next + 3)
            } else if starts("![CDATA[", at: next) {
                index = skip(past: Array("]]>".utf8), from: next + 8)
            } else if starts("?", at: next) {
                index = skip(past: Array("?>".utf8), from: next)
            } else if starts("!", at: next) {
                index = skip(past: [gt], from: next)
            } else if starts("/", at: next) {
                depth = max(0, depth - 1)
                index = skip(past: [gt], from: next)
            } else {
                let end = skip(past: [gt], from: next)
                let isEmpty =
                    end - 2 > index && end <= bytes.count && bytes[end - 1] == gt
                    && bytes[end - 2] == UInt8(ascii: "/")
                if !isEmpty {
                    depth += 1
                    deepest = max(deepest, depth)
                }
                index = end
            }
        }
        return deepest
    }
}
