import Foundation

/// Where things are in a segment's bytes, read from its trailer without decoding a
/// message: what an append needs (``SegmentEncoder/append(_:to:)``).
///
/// Every figure is checked against the bytes (the table ends where the trailer starts,
/// every offset and reference is inside the file), so a file that is not a binary
/// property list whose top object is an array gives `nil`, never a trap.
struct SegmentLayout {
    /// The file's size.
    let size: Int
    /// The width of an object reference.
    let referenceSize: Int
    /// Each object's offset, by number.
    let offsets: [Int]
    /// The top array's entries (the messages' object numbers), in order.
    let entries: [Int]

    /// How many messages the segment holds.
    var count: Int { entries.count }

    /// Reads the layout of `bytes`; `nil` when they are not a binary property list with an
    /// array at the top, or their end is not a trailer (a torn append).
    init?(_ bytes: [UInt8]) {
        let size = bytes.count
        guard size >= 8 + 1 + 32, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let trailer = size - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objects = Self.integer(bytes, at: trailer + 8, width: 8, below: size),
            let top = Self.integer(bytes, at: trailer + 16, width: 8, below: max(objects, 1)),
            let table = Self.integer(bytes, at: trailer + 24, width: 8, below: size),
            objects > 0, table >= 9, objects <= (trailer - table) / offsetSize, table + objects * offsetSize == trailer
        else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(objects)
        for number in 0..<objects {
            guard let offset = Self.integer(bytes, at: table + number * offsetSize, width: offsetSize, below: table),
                offset >= 8
            else { return nil }
            offsets.append(offset)
        }
        // The top object: an array, its count in the marker or in an integer after it.
        var at = offsets[top]
        let marker = bytes[at]
        guard marker & 0xF0 == 0xA0 else { return nil }
        at += 1
        var count = Int(marker & 0x0F)
        if count == 0x0F {
            guard at < table, bytes[at] & 0xF0 == 0x10 else { return nil }
            let width = 1 << Int(bytes[at] & 0x0F)
            guard width <= 8, let value = Self.integer(bytes, at: at + 1, width: width, below: table) else {
                return nil
            }
            count = value
            at += 1 + width
        }
        guard count <= (table - at) / referenceSize else { return nil }
        var entries: [Int] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = Self.integer(bytes, at: at + index * referenceSize, width: referenceSize, below: objects)
            else { return nil }
            entries.append(entry)
        }
        self.size = size
        self.referenceSize = referenceSize
        self.offsets = offsets
        self.entries = entries
    }

    /// The big-endian integer of `width` bytes at `at`, when it is inside the bytes and
    /// below `limit`.
    private static func integer(_ bytes: [UInt8], at: Int, width: Int, below limit: Int) -> Int? {
        guard at >= 0, width <= 8, at + width <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[at..<(at + width)] { value = value << 8 | UInt64(byte) }
        guard value < UInt64(limit) else { return nil }
        return Int(value)
    }

    /// How many places that look like a trailer ``recovered(from:)`` decodes at most.
    static let recoveryCandidates = 8

    /// The longest start of `bytes` that ends with a whole append (a trailer that holds, and
    /// bytes that decode), when the end does not: what is left of a segment whose last
    /// append was torn (a kill during the write, a power cut before its `fsync`). Looks
    /// back from the end, trying only places where a trailer's own figures agree, and at
    /// most ``recoveryCandidates`` of them: a torn append's predecessor is the nearest, and
    /// a file made to agree every few bytes must not cost a full decode at each (the work
    /// stays linear; what is not recovered is in the file moved aside).
    static func recovered(from bytes: [UInt8]) -> (bytes: [UInt8], messages: [Message])? {
        var end = bytes.count - 1
        var tried = 0
        while end >= 8 + 1 + 32 && tried < recoveryCandidates {
            defer { end -= 1 }
            // Quick test first: a trailer's table offset plus its table ends where it starts.
            let trailer = end - 32
            guard bytes[trailer] == 0, bytes[trailer + 1] == 0, (1...8).contains(bytes[trailer + 6]),
                let table = integer(bytes, at: trailer + 24, width: 8, below: trailer),
                let objects = integer(bytes, at: trailer + 8, width: 8, below: end),
                table + objects * Int(bytes[trailer + 6]) == trailer
            else { continue }
            tried += 1
            let prefix = Array(bytes[..<end])
            if SegmentLayout(prefix) != nil, let messages = SegmentCodec.decode(Data(prefix)) {
                return (prefix, messages)
            }
        }
        return nil
    }
}
