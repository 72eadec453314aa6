import Foundation

/// Writes segments as binary property lists that later sends extend at the end, never
/// rewriting a byte. A binary property list is read from its trailer, and bytes no offset
/// points at are never read: so a send appends its message's objects, a new top array, a
/// new offset table and a new trailer, in one write. Objects are written as Foundation's
/// encoder writes a ``Message``, with 2-byte references and 4-byte offsets.
struct SegmentEncoder {
    /// The bytes written so far (a whole file, or what an append adds).
    private(set) var bytes: [UInt8] = []
    /// Where the bytes start in the file.
    private let base: Int
    /// Each object's offset in the file, by number.
    private(set) var offsets: [Int]

    /// The width of an object reference in segments this encoder starts.
    static let referenceSize = 2
    /// The width of an offset in the tables this encoder writes.
    static let offsetSize = 4

    /// The bytes of a new segment holding `messages` (4-byte references when 2 are too few).
    static func segment(_ messages: ArraySlice<Message>) -> [UInt8] {
        var width = referenceSize
        while true {
            var encoder = SegmentEncoder(base: 0, offsets: [], bytes: Array("bplist00".utf8))
            let references = encoder.add(messages, referenceSize: width)
            if encoder.offsets.count + 1 >= 1 << (8 * width) && width < chatLogReferenceSize {
                width = chatLogReferenceSize
                continue
            }
            encoder.finish(top: references, referenceSize: width)
            return encoder.bytes
        }
    }

    /// The bytes to write at the end of the segment `layout` describes so that it holds
    /// `messages` after its own; `nil` when its references are too narrow for them.
    static func append(_ messages: [Message], to layout: SegmentLayout) -> [UInt8]? {
        var encoder = SegmentEncoder(base: layout.size, offsets: layout.offsets)
        let added = encoder.add(messages, referenceSize: layout.referenceSize)
        let objects = encoder.offsets.count + 1
        guard objects < 1 << (8 * layout.referenceSize) else { return nil }
        encoder.finish(top: layout.entries + added, referenceSize: layout.referenceSize)
        return encoder.bytes
    }

    /// The width of references in a file of the original design's layout (``chatLog()``).
    static let chatLogReferenceSize = 4

    /// An encoder for a file of the original design's layout (an export), a chat at a time.
    static func chatLog() -> SegmentEncoder { SegmentEncoder(base: 0, offsets: [], bytes: Array("bplist00".utf8)) }

    /// Adds one chat's messages and its array; the object numbers of its name and its array.
    mutating func addChat(_ name: String, _ messages: [Message]) -> (key: Int, value: Int) {
        let width = Self.chatLogReferenceSize
        let references = add(messages, referenceSize: width)
        let key = string(name)
        let value = begin()
        header(0xA0, count: references.count)
        for reference in references { append(UInt64(reference), width: width) }
        return (key, value)
    }

    /// Adds a dictionary of strings to strings under `name`; the object numbers of its
    /// name and the dictionary.
    mutating func addNames(_ name: String, _ pairs: [(String, String)]) -> (key: Int, value: Int) {
        let width = Self.chatLogReferenceSize
        let keys = pairs.map { string($0.0) }
        let values = pairs.map { string($0.1) }
        let key = string(name)
        let value = begin()
        header(0xD0, count: pairs.count)
        for reference in keys + values { append(UInt64(reference), width: width) }
        return (key, value)
    }

    /// The whole file: the chats added, as a dictionary at the top, its offsets 4 bytes wide
    /// (8 past 4 GiB); `nil` when it holds more objects than 4-byte references reach.
    mutating func finishChatLog(_ chats: [(key: Int, value: Int)]) -> [UInt8]? {
        let width = Self.chatLogReferenceSize
        let top = begin()
        header(0xD0, count: chats.count)
        for chat in chats { append(UInt64(chat.key), width: width) }
        for chat in chats { append(UInt64(chat.value), width: width) }
        guard offsets.count < 1 << (8 * width) else { return nil }
        writeTable(
            top: top, referenceSize: width, offsetSize: bytes.count < 1 << (8 * Self.offsetSize) ? Self.offsetSize : 8)
        return bytes
    }

    /// Every field, in the order each message's dictionary holds them.
    private static let fields = Message.Field.allCases

    private init(base: Int, offsets: [Int], bytes: [UInt8] = []) {
        self.base = base
        self.offsets = offsets
        self.bytes = bytes
    }

    /// Adds the coding keys once and each message's dictionary; returns the dictionaries'
    /// object numbers.
    private mutating func add(_ messages: some Collection<Message>, referenceSize: Int) -> [Int] {
        // Room ahead, growing geometrically: an export adds chat after chat to one encoder.
        let fields = Self.fields.count
        let byteNeed = bytes.count + 64 * fields * (messages.count + 1)
        let offsetNeed = offsets.count + (2 * messages.count + 1) * fields
        if bytes.capacity < byteNeed { bytes.reserveCapacity(max(byteNeed, 2 * bytes.capacity)) }
        if offsets.capacity < offsetNeed { offsets.reserveCapacity(max(offsetNeed, 2 * offsets.capacity)) }
        let keys = Self.fields.map { string($0.stringValue) }
        var values: [Int] = []
        values.reserveCapacity(keys.count)
        return messages.map { message in
            values.removeAll(keepingCapacity: true)
            for field in Self.fields {
                switch message[field] {
                case .text(let text): values.append(string(text))
                case .number(let number): values.append(real(number, marker: 0x23))
                case .date(let date): values.append(real(date.timeIntervalSinceReferenceDate, marker: 0x33))
                }
            }
            let number = begin()
            header(0xD0, count: keys.count)
            for reference in keys { append(UInt64(reference), width: referenceSize) }
            for reference in values { append(UInt64(reference), width: referenceSize) }
            return number
        }
    }

    /// Writes the top array, the offset table and the trailer.
    private mutating func finish(top entries: [Int], referenceSize: Int) {
        let top = begin()
        header(0xA0, count: entries.count)
        for reference in entries { append(UInt64(reference), width: referenceSize) }
        writeTable(top: top, referenceSize: referenceSize)
    }

    /// Writes the offset table and the trailer, `top` the top object's number.
    private mutating func writeTable(top: Int, referenceSize: Int, offsetSize: Int = Self.offsetSize) {
        let table = base + bytes.count
        for offset in offsets { append(UInt64(offset), width: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(UInt64(offsets.count), width: 8)
        append(UInt64(top), width: 8)
        append(UInt64(table), width: 8)
    }

    /// Starts an object here; its number.
    private mutating func begin() -> Int {
        offsets.append(base + bytes.count)
        return offsets.count - 1
    }

    /// A string object: ASCII when every character is, else UTF-16, big-endian.
    private mutating func string(_ text: String) -> Int {
        let number = begin()
        var text = text
        text.withUTF8 { utf8 in
            // UTF-16 units: one for each scalar's first byte, two for a four-byte scalar.
            var units = 0
            var ascii = true
            for byte in utf8 {
                if byte >= 0x80 { ascii = false }
                if byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
            }
            // `$null` in UTF-16: Foundation's decoder reads the ASCII one as "no value".
            guard !ascii || (utf8.count == 5 && utf8.elementsEqual("$null".utf8)) else {
                header(0x50, count: utf8.count)
                bytes.append(contentsOf: utf8)
                return
            }
            header(0x60, count: units)
            // The units are written into room made for them at once, not a byte at a time.
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: 2 * units))
            bytes.withUnsafeMutableBufferPointer { output in
                var at = start
                func put(_ unit: UInt32) {
                    output[at] = UInt8(truncatingIfNeeded: unit >> 8)
                    output[at + 1] = UInt8(truncatingIfNeeded: unit)
                    at += 2
                }
                var index = 0
                while index < utf8.count {
                    let lead = UInt32(utf8[index])
                    var scalar: UInt32
                    switch lead {
                    case ..<0x80:
                        scalar = lead
                        index += 1
                    case ..<0xE0:
                        scalar = (lead & 0x1F) << 6 | UInt32(utf8[index + 1] & 0x3F)
                        index += 2
                    case ..<0xF0:
                        scalar =
                            (lead & 0x0F) << 12 | UInt32(utf8[index + 1] & 0x3F) << 6 | UInt32(utf8[index + 2] & 0x3F)
                        index += 3
                    default:
                        scalar =
                            (lead & 0x07) << 18 | UInt32(utf8[index + 1] & 0x3F) << 12
                            | UInt32(utf8[index + 2] & 0x3F) << 6 | UInt32(utf8[index + 3] & 0x3F)
                        index += 4
                    }
                    if scalar >= 0x10000 {
                        scalar -= 0x10000
                        put(0xD800 | scalar >> 10)
                        scalar = 0xDC00 | scalar & 0x3FF
                    }
                    put(scalar)
                }
            }
        }
        return number
    }

    /// A real (`0x23`) or a date (`0x33`, seconds since 2001): eight bytes, big-endian.
    private mutating func real(_ value: Double, marker: UInt8) -> Int {
        let number = begin()
        bytes.append(marker)
        append(value.bitPattern, width: 8)
        return number
    }

    /// An object's marker with its count: in the low nibble below 15, else an integer after.
    private mutating func header(_ marker: UInt8, count: Int) {
        if count < 15 {
            bytes.append(marker | UInt8(count))
            return
        }
        bytes.append(marker | 0x0F)
        switch count {
        case ..<0x100:
            bytes.append(0x10)
            append(UInt64(count), width: 1)
        case ..<0x1_0000:
            bytes.append(0x11)
            append(UInt64(count), width: 2)
        default:
            bytes.append(0x12)
            append(UInt64(count), width: 4)
        }
    }

    /// The low `width` bytes of `value`, big-endian.
    private mutating func append(_ value: UInt64, width: Int) {
        var shift = 8 * (width - 1)
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}
