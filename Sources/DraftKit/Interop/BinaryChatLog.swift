import Foundation

/// Reads a binary property list in the original design's shape (a dictionary of chat IDs
/// to arrays of message dictionaries) by walking its object table, building each message
/// from the objects its dictionary points at, without Foundation's decoder.
///
/// It reads only what it knows Foundation reads the same way: strings (ASCII and
/// UTF-16), reals, integers, dates, arrays and dictionaries with string keys. Wherever the
/// file holds anything else a message's field could be read from (a boolean, a data
/// object, a key that is no string, a string field holding a number, a repeated key,
/// malformed UTF-16, a reference out of the table), it gives `nil` and the caller decodes
/// with Foundation instead (``ChatLogFile``), so the two never disagree. Every offset,
/// count and reference is checked against the bytes: nothing here can trap on a file.
struct BinaryChatLog {
    /// The chats, by key, with their messages; keys whose value is no array of
    /// dictionaries, or an empty one, are counted in `skipped`.
    var chats: [(chatID: String, messages: [Message])] = []
    var skipped = 0

    private let bytes: [UInt8]
    private var offsets: [Int] = []
    private var referenceSize = 1
    /// The end of the objects (where the offset table starts).
    private var end = 0
    /// Message keys by object number: the field's index, or `nil` for a key draftline
    /// does not read; a writer that shares equal strings names each key once.
    private var keyCache: [Int: Int?] = [:]

    private static let fields = Message.CodingKeys.allCases.map(\.rawValue)

    /// Reads `data`; `nil` when it is not a binary property list this reader takes whole.
    init?(_ data: Data) {
        bytes = [UInt8](data)
        guard readTable(), let root = dictionary(topObject) else { return nil }
        var named: [String: [Message]] = [:]
        for (keyObject, valueObject) in root {
            guard let key = string(keyObject), named[key] == nil else { return nil }
            guard let elements = array(valueObject), !elements.isEmpty else {
                named[key] = []
                continue
            }
            var messages: [Message] = []
            messages.reserveCapacity(elements.count)
            var allDictionaries = true
            for element in elements {
                guard let pairs = dictionary(element) else {
                    allDictionaries = false
                    break
                }
                guard let message = message(pairs) else { return nil }
                messages.append(message)
            }
            named[key] = allDictionaries ? messages : []
        }
        for key in named.keys.sorted() {
            guard let messages = named[key], !messages.isEmpty else {
                skipped += 1
                continue
            }
            chats.append((key, messages))
        }
    }

    /// The number of the top object, checked by ``readTable()``.
    private var topObject = 0

    /// Reads the trailer and the offset table; false when they do not hold.
    private mutating func readTable() -> Bool {
        let size = bytes.count
        guard size >= 8 + 1 + 32, bytes.starts(with: Array("bplist00".utf8)) else { return false }
        let trailer = size - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objects = integer(at: trailer + 8, width: 8), let top = integer(at: trailer + 16, width: 8),
            let table = integer(at: trailer + 24, width: 8), objects > 0, top < objects, table >= 9, table < trailer,
            objects <= (trailer - table) / offsetSize
        else { return false }
        offsets.reserveCapacity(objects)
        for number in 0..<objects {
            guard let offset = integer(at: table + number * offsetSize, width: offsetSize), offset >= 8, offset < table
            else { return false }
            offsets.append(offset)
        }
        end = table
        topObject = top
        return true
    }

    /// A message from its dictionary's key and value objects; `nil` where Foundation's
    /// reading is not certain to be the same.
    private mutating func message(_ pairs: [(Int, Int)]) -> Message? {
        var strings = [String](repeating: "", count: 9)
        var reals = [0.0, 0.0]
        var sentAt = Message.unknownTime
        var sender = ""
        var seen = 0
        for (keyObject, valueObject) in pairs {
            let field: Int?
            if let cached = keyCache[keyObject] {
                field = cached
            } else {
                guard let key = string(keyObject) else { return nil }
                field = Self.fields.firstIndex(of: key)
                keyCache[keyObject] = field
            }
            guard let field else { continue }
            guard seen & (1 << field) == 0 else { return nil }
            seen |= 1 << field
            switch field {
            case 0..<9:
                guard let value = string(valueObject) else { return nil }
                strings[field] = value
            case 9, 10:
                guard let value = number(valueObject) else { return nil }
                reals[field - 9] = value
            case 11:
                guard let value = date(valueObject) else { return nil }
                sentAt = value
            default:
                guard let value = string(valueObject) else { return nil }
                sender = value
            }
        }
        return Message(
            chatID: strings[0], messageID: strings[1], content: strings[2], target: strings[3], mineHead: strings[4],
            otherHead: strings[5], type: strings[6], filePath: strings[7], address: strings[8], latitude: reals[0],
            longitude: reals[1], sentAt: sentAt, sender: sender)
    }

    // MARK: - Objects

    /// An object's marker and where its contents start, with its count (from the marker's
    /// low nibble, or the integer after it).
    private func header(_ object: Int) -> (kind: UInt8, count: Int, at: Int)? {
        guard object >= 0, object < offsets.count else { return nil }
        let start = offsets[object]
        let marker = bytes[start]
        var count = Int(marker & 0x0F)
        var at = start + 1
        let kind = marker >> 4
        if count == 0x0F, kind >= 4 {
            guard at < end, bytes[at] & 0xF0 == 0x10 else { return nil }
            let width = 1 << Int(bytes[at] & 0x0F)
            guard width <= 8, let value = integer(at: at + 1, width: width) else { return nil }
            count = value
            at += 1 + width
        }
        return (kind, count, at)
    }

    private func references(_ count: Int, at: Int) -> [Int]? {
        guard count <= (end - at) / referenceSize else { return nil }
        var result: [Int] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let value = integer(at: at + index * referenceSize, width: referenceSize) else { return nil }
            result.append(value)
        }
        return result
    }

    /// An array's element objects; `nil` for any other object.
    private func array(_ object: Int) -> [Int]? {
        guard let (kind, count, at) = header(object), kind == 0xA else { return nil }
        return references(count, at: at)
    }

    /// A dictionary's key and value objects; `nil` for any other object.
    private func dictionary(_ object: Int) -> [(Int, Int)]? {
        guard let (kind, count, at) = header(object), kind == 0xD, count <= Int.max / 2,
            let all = references(2 * count, at: at)
        else { return nil }
        return (0..<count).map { (all[$0], all[count + $0]) }
    }

    /// A string object (ASCII, or UTF-16 whose surrogates pair up); `nil` for anything else.
    private func string(_ object: Int) -> String? {
        guard let (kind, count, at) = header(object) else { return nil }
        switch kind {
        case 0x5:
            guard count <= end - at else { return nil }
            let slice = bytes[at..<(at + count)]
            guard slice.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: slice, as: UTF8.self)
        case 0x6:
            guard count <= (end - at) / 2 else { return nil }
            var units: [UInt16] = []
            units.reserveCapacity(count)
            for index in 0..<count { units.append(UInt16(bytes[at + 2 * index]) << 8 | UInt16(bytes[at + 2 * index + 1])) }
            var index = 0
            while index < count {
                let unit = units[index]
                if UTF16.isLeadSurrogate(unit) {
                    guard index + 1 < count, UTF16.isTrailSurrogate(units[index + 1]) else { return nil }
                    index += 2
                } else {
                    guard !UTF16.isTrailSurrogate(unit) else { return nil }
                    index += 1
                }
            }
            return String(decoding: units, as: UTF16.self)
        default:
            return nil
        }
    }

    /// A real (4 or 8 bytes) or an integer (1, 2, 4 or 8 bytes) as a `Double`.
    private func number(_ object: Int) -> Double? {
        guard let (kind, exponent, at) = header(object) else { return nil }
        let width = 1 << exponent
        switch (kind, width) {
        case (0x2, 4):
            return integer(at: at, width: 4).map { Double(Float(bitPattern: UInt32($0))) }
        case (0x2, 8):
            return raw(at: at, width: 8).map { Double(bitPattern: $0) }
        case (0x1, 1), (0x1, 2), (0x1, 4):
            return integer(at: at, width: width).map { Double($0) }
        case (0x1, 8):
            return raw(at: at, width: 8).map { Double(Int64(bitPattern: $0)) }
        default:
            return nil
        }
    }

    /// A date object: seconds since 2001, eight bytes.
    private func date(_ object: Int) -> Date? {
        guard let (kind, exponent, at) = header(object), kind == 0x3, exponent == 3,
            let bits = raw(at: at, width: 8)
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
    }

    /// The big-endian bits of `width` bytes at `at`, when they lie before the table (or, for
    /// the trailer's own figures, inside the file).
    private func raw(at: Int, width: Int) -> UInt64? {
        let limit = end > 0 ? end : bytes.count
        guard at >= 0, width <= 8, at <= limit - width else { return nil }
        var value: UInt64 = 0
        for index in at..<(at + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// ``raw(at:width:)`` as a non-negative `Int`.
    private func integer(at: Int, width: Int) -> Int? {
        guard let value = raw(at: at, width: width), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }
}
