/// String objects of a binary property list, ASCII or UTF-16 (``BinaryChatLog``).
extension BinaryChatLog {
    /// A string object (ASCII, or UTF-16 whose surrogates pair up); `nil` for anything else.
    func string(_ object: Int) -> String? {
        guard let (kind, count, at) = header(object) else { return nil }
        switch kind {
        case 0x5:
            guard count <= end - at else { return nil }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])
            // Eight bytes at a time: a segment may hold one message of many megabytes.
            var index = 0
            while index + 8 <= count {
                guard slice.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                    return nil
                }
                index += 8
            }
            while index < count {
                guard slice[index] < 0x80 else { return nil }
                index += 1
            }
            return String(decoding: slice.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        case 0x6:
            guard count <= (end - at) / 2 else { return nil }
            return Self.utf16(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + 2 * count)]))
        default:
            return nil
        }
    }

    /// Big-endian UTF-16 as a string, transcoded straight to UTF-8; `nil` when a surrogate
    /// does not pair up (Foundation's decoder does not read those the same way).
    static func utf16(_ units: UnsafeRawBufferPointer) -> String? {
        let count = units.count / 2
        var valid = true
        let text = String(unsafeUninitializedCapacity: 3 * count) { output in
            var written = 0
            var index = 0
            func unit(_ index: Int) -> UInt32 { UInt32(units[2 * index]) << 8 | UInt32(units[2 * index + 1]) }
            while index < count {
                var scalar = unit(index)
                index += 1
                if scalar & 0xF800 == 0xD800 {
                    // A lead surrogate and its trail: one scalar of four bytes.
                    guard scalar < 0xDC00, index < count, unit(index) & 0xFC00 == 0xDC00 else {
                        valid = false
                        return 0
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(index) - 0xDC00)
                    index += 1
                }
                switch scalar {
                case ..<0x80:
                    output[written] = UInt8(scalar)
                    written += 1
                case ..<0x800:
                    output[written] = UInt8(0xC0 | scalar >> 6)
                    output[written + 1] = UInt8(0x80 | scalar & 0x3F)
                    written += 2
                case ..<0x10000:
                    output[written] = UInt8(0xE0 | scalar >> 12)
                    output[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    output[written + 2] = UInt8(0x80 | scalar & 0x3F)
                    written += 3
                default:
                    output[written] = UInt8(0xF0 | scalar >> 18)
                    output[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                    output[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    output[written + 3] = UInt8(0x80 | scalar & 0x3F)
                    written += 4
                }
            }
            return written
        }
        return valid ? text : nil
    }
}
