import Foundation

/// Where things are in a segment's bytes, read from its trailer without decoding a message:
/// what an append needs (``SegmentEncoder/append(_:to:)``).
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

    /// Reads the layout of `bytes`; `nil` unless they are a binary property list with an array
    /// at the top, ending with its trailer (not a torn append).
    init?(_ bytes: [UInt8]) {
        guard
            let (referenceSize, offsets, entries) = bytes.withUnsafeBytes({ raw -> (Int, [Int], [Int])? in
                guard let table = BinaryChatLog(table: raw), let entries = table.array(table.topObject),
                    entries.allSatisfy({ $0 < table.offsets.count })
                else { return nil }
                return (table.referenceSize, table.offsets, entries)
            })
        else { return nil }
        self.size = bytes.count
        self.referenceSize = referenceSize
        self.offsets = offsets
        self.entries = entries
    }

    /// How many places that look like a trailer ``recovered(from:)`` decodes at most.
    static let recoveryCandidates = 8

    /// The longest start of `bytes` that ends with a whole append: what is left of a segment
    /// whose last append was torn. Only the last ``recoveryCandidates`` places where a
    /// trailer's own figures agree are decoded: a file made to agree every few bytes must not
    /// cost a full decode at each.
    static func recovered(from bytes: [UInt8]) -> (bytes: [UInt8], messages: [Message])? {
        var end = bytes.count - 1
        var tried = 0
        while end >= 8 + 1 + 32 && tried < recoveryCandidates {
            defer { end -= 1 }
            // Only where a trailer's own figures agree (each test costs a few bytes' reading).
            guard bytes.withUnsafeBytes({ BinaryChatLog.Trailer(UnsafeRawBufferPointer(rebasing: $0[..<end])) }) != nil
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
