import Foundation
import Synchronization

/// Reads a binary property list in the original design's shape (a dictionary of chat IDs
/// to arrays of message dictionaries) by walking its object table, without Foundation. It
/// takes only files whose every object it reads as Foundation does; anything else gives
/// `nil` and is Foundation's to read (``ChatLogFile``), so the two never disagree. Every
/// offset, count and reference is checked: nothing here can trap on a file.
struct BinaryChatLog {
    /// The chats, in key order, with their messages in file order.
    var chats: [(chatID: String, messages: [Message])] = []
    /// What the file's ``ChatLogFile/kindsKey`` holds: each chat ID's kind as named there.
    var kindNames: [String: String] = [:]

    /// The file's bytes, borrowed for the reading only (``init?(_:)``).
    let bytes: UnsafeRawBufferPointer
    private(set) var offsets: [Int] = []
    private(set) var referenceSize = 1
    /// The end of the objects (where the offset table starts).
    var end = 0
    /// The fields' names in ``Message/Field`` order, each as its length and its first
    /// sixteen bytes in two words (every name is shorter), compared as integers.
    private static let fields = Message.Field.allCases.map { field in
        Array(field.stringValue.utf8).withUnsafeBytes { words($0) } ?? (-1, 0, 0)
    }

    /// Whether a key or a name is the string Foundation's decoder reads as "no value".
    static func isNullMarker(_ text: String) -> Bool { text.utf8.count == 5 && text == "$null" }

    /// A short string's length and its bytes in two words, zero-filled; `nil` past 16 bytes.
    static func words(_ bytes: UnsafeRawBufferPointer) -> (count: Int, low: UInt64, high: UInt64)? {
        guard bytes.count <= 16 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        return (bytes.count, words.0, words.1)
    }

    /// Reads `data`; `nil` when this reader does not take it whole, or its messages would
    /// weigh more than `limit` bytes once made (a file that names one object many times).
    init?(_ data: Data, limit: Int = .max) {
        guard let read = data.withUnsafeBytes({ BinaryChatLog(bytes: $0, reading: .file, limit: limit) }) else {
            return nil
        }
        chats = read.chats
        kindNames = read.kindNames
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The last `count` messages of a segment, the others not read; `nil` where Foundation's
    /// decoder must decide.
    static func segment(_ data: Data, last count: Int = .max) -> [Message]? {
        data.withUnsafeBytes { BinaryChatLog(bytes: $0, reading: .segment(last: count))?.chats.first?.messages }
    }

    /// The last message of a segment, the others not read; `.some(nil)` for an empty
    /// segment, `nil` where Foundation's decoder must decide.
    static func lastMessage(_ data: Data) -> Message?? {
        segment(data, last: 1).map(\.last)
    }

    /// What a reading takes: a whole file of chats, or a segment's last messages.
    private enum Reading {
        case file
        case segment(last: Int)
    }

    private init?(bytes: UnsafeRawBufferPointer, reading: Reading, limit: Int = .max) {
        self.bytes = bytes
        guard readTable() else { return nil }
        if case .segment(let count) = reading {
            guard let elements = array(topObject), let messages = messages(Array(elements.suffix(max(0, count))))
            else { return nil }
            chats = [("", messages)]
            return
        }
        guard let root = dictionary(topObject) else { return nil }
        var named: [String: [Int]] = [:]
        // Every key once (a repeated one, the kinds' too, is Foundation's to read: it takes
        // the last); no key or kind Foundation reads as "no value" (`$null`).
        var seen: Set<String> = []
        var sawKinds = false
        for (keyObject, valueObject) in root {
            guard let key = string(keyObject), !Self.isNullMarker(key), seen.insert(key).inserted else { return nil }
            if ChatLogFile.isKindsKey(key), let pairs = dictionary(valueObject) {
                // draftline's own key: string to string throughout, else Foundation's to read;
                // both spellings at once are Foundation's too.
                guard !sawKinds else { return nil }
                sawKinds = true
                for (chat, kind) in pairs {
                    guard let chat = string(chat), let kind = string(kind), kindNames[chat] == nil,
                        !Self.isNullMarker(chat), !Self.isNullMarker(kind)
                    else { return nil }
                    kindNames[chat] = kind
                }
                continue
            }
            // Only files whose every object it reads: a key of any other kind is Foundation's.
            guard let elements = array(valueObject), !elements.isEmpty else { return nil }
            named[key] = elements
        }
        guard !named.isEmpty else { return nil }
        // The chats' messages on every core, each worker with a reader of its own.
        let keys = named.keys.sorted()
        let reader = self
        let made = Budget(limit)
        let messages = Parallel.map(keys.count) { reader.messages(named[keys[$0]] ?? [], budget: made) }
        var chats: [(chatID: String, messages: [Message])] = []
        for (key, read) in zip(keys, messages) {
            guard let read else { return nil }
            chats.append((key, read))
        }
        self.chats = chats
    }

    /// The messages of an array's elements, each a message dictionary.
    private func messages(_ elements: [Int], budget: Budget? = nil) -> [Message]? {
        var messages: [Message] = []
        messages.reserveCapacity(elements.count)
        for element in elements {
            guard let message = message(element), budget?.spend(message.weight) ?? true else { return nil }
            messages.append(message)
        }
        return messages
    }

    /// Bytes made so far by every worker of one reading, against a limit.
    final class Budget: Sendable {
        let limit: Int
        private let spent = Atomic<Int>(0)

        init(_ limit: Int) { self.limit = limit }

        /// Counts `bytes` made; false once the total is past the limit.
        func spend(_ bytes: Int) -> Bool {
            spent.add(bytes, ordering: .relaxed).newValue <= limit
        }
    }

    /// The number of the top object, checked by ``readTable()``.
    private(set) var topObject = 0

    /// Reads only the trailer and the offset table of `bytes` (``expandedSize(_:limit:)``).
    init?(table bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        guard readTable() else { return nil }
    }

    /// A reader of objects gathered from a file (``message(size:at:reading:)``).
    init(gathered bytes: UnsafeRawBufferPointer, offsets: [Int], referenceSize: Int, top: Int) {
        self.bytes = bytes
        self.offsets = offsets
        self.referenceSize = referenceSize
        end = bytes.count
        topObject = top
    }

    /// Reads the trailer and the offset table; false when they do not hold.
    private mutating func readTable() -> Bool {
        guard let trailer = Trailer(bytes),
            let offsets = Self.offsets(UnsafeRawBufferPointer(rebasing: bytes[trailer.table...]), trailer)
        else { return false }
        referenceSize = trailer.referenceSize
        self.offsets = offsets
        end = trailer.table
        topObject = trailer.top
        return true
    }

    /// Each object's offset from the table at the start of `table`; `nil` unless every one
    /// is inside the objects, as Foundation checks them all before it reads one.
    static func offsets(_ table: UnsafeRawBufferPointer, _ trailer: Trailer) -> [Int]? {
        guard table.count >= trailer.objects * trailer.offsetSize else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(trailer.objects)
        for number in 0..<trailer.objects {
            var offset: UInt64 = 0
            for index in (number * trailer.offsetSize)..<((number + 1) * trailer.offsetSize) {
                offset = offset << 8 | UInt64(table[index])
            }
            guard offset >= 8, offset < UInt64(trailer.table) else { return nil }
            offsets.append(Int(offset))
        }
        return offsets
    }

    /// A binary property list's trailer, its last 32 bytes: the one place one is read.
    struct Trailer {
        let offsetSize: Int
        let referenceSize: Int
        let objects: Int
        let top: Int
        /// Where the offset table starts (the objects end).
        let table: Int

        /// The trailer at the end of `bytes`; `nil` unless its figures agree with one another
        /// and with the size, and the bytes start as a binary property list.
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= 8 + 1 + 32 else { return nil }
            self.init(
                size: bytes.count, head: UnsafeRawBufferPointer(rebasing: bytes[..<8]),
                tail: UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 32)...]))
        }

        /// The trailer `tail` (last 32 bytes) of a file of `size` bytes starting with `head` (8).
        init?(size: Int, head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer) {
            guard size >= 8 + 1 + 32, head.count == 8, tail.count == 32 else { return nil }
            let trailer = size - 32
            func figure(_ at: Int) -> Int? {
                var value: UInt64 = 0
                for index in at..<(at + 8) { value = value << 8 | UInt64(tail[index]) }
                return value <= UInt64(Int.max) ? Int(value) : nil
            }
            offsetSize = Int(tail[6])
            referenceSize = Int(tail[7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), let objects = figure(8),
                let top = figure(16), let table = figure(24), objects > 0, top < objects,
                table >= 9, table < trailer, objects <= (trailer - table) / offsetSize,
                table + objects * offsetSize == trailer,
                head.loadUnaligned(as: UInt64.self) == UInt64(bigEndian: 0x6270_6C69_7374_3030)  // "bplist00"
            else { return nil }
            self.objects = objects
            self.top = top
            self.table = table
        }
    }

    /// A message from its dictionary object; `nil` where Foundation's reading is not
    /// certain to be the same.
    func message(_ object: Int) -> Message? {
        guard let (kind, count, at) = header(object), kind == 0xD, count <= Int.max / 2,
            count <= (end - at) / referenceSize / 2
        else { return nil }
        var message = Message(type: "")
        var seen = 0
        for pair in 0..<count {
            guard let keyObject = integer(at: at + pair * referenceSize, width: referenceSize),
                let valueObject = integer(at: at + (count + pair) * referenceSize, width: referenceSize),
                let field = field(keyObject)
            else { return nil }
            guard seen & (1 << field.rawValue) == 0, let value = value(valueObject, field.kind) else { return nil }
            seen |= 1 << field.rawValue
            message[field] = value
        }
        return message
    }

    /// The field a key object names, compared as two words and a length: a writer that shares
    /// no string (Foundation's) makes every message name its keys again.
    private func field(_ object: Int) -> Message.Field? {
        guard let (kind, count, at) = header(object), kind == 0x5, count <= end - at,
            let key = Self.words(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])),
            let index = Self.fields.firstIndex(where: {
                $0.count == key.count && $0.low == key.low && $0.high == key.high
            })
        else { return nil }
        return Message.Field(rawValue: index)
    }

    /// A field's value of `kind` from its object; `nil` for an object of another kind.
    private func value(_ object: Int, _ kind: Message.Kind) -> Message.Value? {
        switch kind {
        case .text: string(object).map { .text($0) }
        case .number: number(object).map { .number($0) }
        case .date: date(object).map { .date($0) }
        }
    }

    // MARK: - Objects

    /// An object's marker, its count and where its contents start.
    func header(_ object: Int) -> (kind: UInt8, count: Int, at: Int)? {
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

    func references(_ count: Int, at: Int) -> [Int]? {
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
    func array(_ object: Int) -> [Int]? {
        guard let (kind, count, at) = header(object), kind == 0xA else { return nil }
        return references(count, at: at)
    }

    /// A dictionary's key and value objects; `nil` for any other object.
    func dictionary(_ object: Int) -> [(Int, Int)]? {
        guard let (kind, count, at) = header(object), kind == 0xD, count <= Int.max / 2,
            let all = references(2 * count, at: at)
        else { return nil }
        return (0..<count).map { (all[$0], all[count + $0]) }
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

    /// The big-endian bits of `width` bytes at `at`, when they lie before the table.
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
