// A property list written by hand, as a hostile or foreign writer would write it: repeated
// keys, `$null`, any date, ASCII or UTF-16 at will. Shared by the differential fuzz target
// (`make fuzz`), its seeded pass and the end-to-end tests.
import Foundation

/// A property list as a tree, written to binary or XML bytes exactly as given (no key is
/// merged, no value checked), each object once.
public indirect enum PropertyListTree: Equatable, Sendable {
    /// A string: ASCII in a binary file when every character is, else UTF-16.
    case string(String)
    /// A string written as UTF-16 in a binary file whatever its characters.
    case wide(String)
    case real(Double)
    case integer(Int64)
    /// A date: seconds since 2001 (a binary file's own figure; XML writes the whole second).
    case date(Double)
    case boolean(Bool)
    case array([PropertyListTree])
    /// Key and value pairs in order, repeats kept.
    case dictionary([(PropertyListTree, PropertyListTree)])
    /// XML text put in as it is (a comment, an instruction); nothing in a binary file.
    case xml(String)

    public static func == (lhs: PropertyListTree, rhs: PropertyListTree) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.wide(let a), .wide(let b)), (.xml(let a), .xml(let b)):
            return a.utf8.elementsEqual(b.utf8)
        case (.real(let a), .real(let b)), (.date(let a), .date(let b)): return a.bitPattern == b.bitPattern
        case (.integer(let a), .integer(let b)): return a == b
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// A dictionary of string keys.
    public static func dictionary(_ pairs: [(String, PropertyListTree)]) -> PropertyListTree {
        .dictionary(pairs.map { (.string($0.0), $0.1) })
    }

    // MARK: - Binary

    /// The tree as a binary property list (`bplist00`): 8-byte offsets and references.
    public var binary: Data {
        var objects: [[UInt8]] = []
        func add(_ node: PropertyListTree) -> Int {
            let number = objects.count
            objects.append([])
            var bytes: [UInt8] = []
            func header(_ marker: UInt8, _ count: Int) {
                if count < 15 {
                    bytes.append(marker | UInt8(count))
                } else {
                    bytes += [marker | 0x0F, 0x13] + Self.bigEndian(UInt64(count), width: 8)
                }
            }
            switch node {
            case .string(let text) where text.utf8.allSatisfy({ $0 < 0x80 }):
                header(0x50, text.utf8.count)
                bytes += text.utf8
            case .string(let text), .wide(let text):
                let units = Array(text.utf16)
                header(0x60, units.count)
                for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            case .real(let value): bytes = [0x23] + Self.bigEndian(value.bitPattern, width: 8)
            case .date(let value): bytes = [0x33] + Self.bigEndian(value.bitPattern, width: 8)
            case .integer(let value): bytes = [0x13] + Self.bigEndian(UInt64(bitPattern: value), width: 8)
            case .boolean(let value): bytes = [value ? 0x09 : 0x08]
            case .array(let elements):
                let references = elements.map(add)
                header(0xA0, references.count)
                for reference in references { bytes += Self.bigEndian(UInt64(reference), width: 8) }
            case .dictionary(let pairs):
                let keys = pairs.map { add($0.0) }
                let values = pairs.map { add($0.1) }
                header(0xD0, pairs.count)
                for reference in keys + values { bytes += Self.bigEndian(UInt64(reference), width: 8) }
            case .xml: bytes = [0x00]
            }
            objects[number] = bytes
            return number
        }
        _ = add(self)
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(file.count)
            file += object
        }
        let table = file.count
        for offset in offsets { file += Self.bigEndian(UInt64(offset), width: 8) }
        file +=
            [0, 0, 0, 0, 0, 0, 8, 8] + Self.bigEndian(UInt64(objects.count), width: 8)
            + Self.bigEndian(0, width: 8) + Self.bigEndian(UInt64(table), width: 8)
        return Data(file)
    }

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    // MARK: - XML

    /// The tree as an XML property list, UTF-8, with the usual declaration and `<plist>`.
    public var xmlDocument: Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n" + xmlText + "\n</plist>\n").utf8)
    }

    /// The tree's element, its text escaped (`&`, `<`, `>`) and nothing else changed.
    public var xmlText: String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        switch self {
        case .string(let text), .wide(let text): return "<string>\(escaped(text))</string>"
        case .real(let value): return "<real>\(value)</real>"
        case .integer(let value): return "<integer>\(value)</integer>"
        case .date(let value):
            let formatter = ISO8601DateFormatter()
            return "<date>\(formatter.string(from: Date(timeIntervalSinceReferenceDate: value)))</date>"
        case .boolean(let value): return value ? "<true/>" : "<false/>"
        case .array(let elements): return "<array>" + elements.map(\.xmlText).joined() + "</array>"
        case .dictionary(let pairs):
            return "<dict>"
                + pairs.map { key, value in
                    let name: String
                    switch key {
                    case .string(let text), .wide(let text): name = "<key>\(escaped(text))</key>"
                    default: name = key.xmlText
                    }
                    return name + value.xmlText
                }.joined() + "</dict>"
        case .xml(let raw): return raw
        }
    }
}
