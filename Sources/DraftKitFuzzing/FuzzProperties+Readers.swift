// The differential property: draftline's own property-list readers against Foundation's
// decoder on the same bytes (`make fuzz`: Fuzz/readers-agree.swift; a seeded pass in the
// test suite), and its segment writer against both.
import DraftKit
import Foundation

extension FuzzProperties {
    /// Wherever an own reader takes a file (an import's, or a segment), Foundation's decoder
    /// takes it too and reads every value the same (strings byte for byte, numbers and dates
    /// bit for bit); a segment's last messages are the end of the whole; a journal record's
    /// reading of one message (by its offset table's entry) is the whole reading's message
    /// there (``oneMessageDifference(_:mustRead:)``); and a segment draftline writes of what
    /// was read (with an append after it) is read back as written by both, each message by
    /// the one-message reader too, and with its append cut short (a torn append) gives the
    /// whole reading's messages, or none. The input is a file as it is (when it starts as a property list
    /// does) or a property list built from the bytes (``readersDocument(_:)``), and a segment
    /// of that file's messages (``segmentDocument(_:)``).
    public static func readersAgree(_ bytes: [UInt8]) -> String? {
        let data = readersDocument(bytes)
        let segment = segmentDocument(bytes)
        if let own = PropertyListReaders.ownSegment(segment) {
            guard let foundation = PropertyListReaders.foundationSegment(segment) else {
                return "the own segment reader took a built segment Foundation's decoder refuses"
            }
            if let difference = difference(own, foundation) { return "the segment readers disagree: \(difference)" }
        }
        for document in Set([data, segment]) {
            if let difference = oneMessageDifference(document, mustRead: false) { return difference }
        }
        var read: [Message] = []
        if let own = PropertyListReaders.ownChatLog(data) {
            let foundation: ChatLogFile
            do throws(ChatLogFile.Problem) {
                foundation = try PropertyListReaders.foundationChatLog(data)
            } catch {
                return "an own reader took a file Foundation's decoder refuses (\(error))"
            }
            if let difference = difference(own, foundation) { return "the import readers disagree: \(difference)" }
            read = own.chats.flatMap(\.messages)
        }
        if let own = PropertyListReaders.ownSegment(data) {
            guard let foundation = PropertyListReaders.foundationSegment(data) else {
                return "the own segment reader took bytes Foundation's decoder refuses"
            }
            if let difference = difference(own, foundation) { return "the segment readers disagree: \(difference)" }
            for count in [0, 1, 2, own.count] {
                guard let last = PropertyListReaders.ownSegment(data, last: count),
                    difference(last, Array(own.suffix(count))) == nil
                else { return "the last \(count) messages of a segment are not the end of the whole" }
            }
            read += own
        }
        // What was read, written as draftline writes a segment and extended by a send.
        let messages = Array(read.prefix(40))
        let split = messages.count / 2
        let written = PropertyListReaders.segmentBytes(Array(messages[..<split]), appending: Array(messages[split...]))
        guard let own = PropertyListReaders.ownSegment(written),
            let foundation = PropertyListReaders.foundationSegment(written)
        else { return "a segment draftline wrote is not read back (own or Foundation)" }
        if let difference = difference(own, messages) {
            return "the own reader reads a written segment otherwise: \(difference)"
        }
        if let difference = difference(foundation, messages) {
            return "Foundation reads a written segment otherwise: \(difference)"
        }
        if let difference = oneMessageDifference(written, mustRead: true) { return "a written segment: \(difference)" }
        // The append cut short, as a reader finds it while another process writes it (or after
        // a kill): the one-message reader reads what the whole reading reads, or leaves it.
        let before = PropertyListReaders.segmentBytes(Array(messages[..<split])).count
        let end = written.count
        for cut in Set([before - 1, before, before + 1, (before + end) / 2, end - 33, end - 1])
        where cut > 0 && cut < end {
            if let difference = oneMessageDifference(written.prefix(cut), mustRead: false) {
                return "a written segment cut after \(cut) of \(written.count) bytes: \(difference)"
            }
        }
        return nil
    }

    /// How the one-message reader (``PropertyListReaders/ownSegmentMessage(_:at:)``, a journal
    /// record's) differs from the whole reading of a segment (the own reader, else
    /// Foundation's decoder, as a chat is read) on each message and one past the end; `nil`
    /// when wherever it reads, the whole reading takes the bytes and holds as many messages
    /// and the same one there. With `mustRead`, it must read every one (a segment draftline
    /// wrote is never left to the whole reading). Bytes the whole reading refuses give a
    /// message only where another message is what it refuses: their trailer, offset table
    /// and top array hold (``PropertyListReaders/segmentHoldsTogether(_:)``); so a segment cut
    /// short (a torn append) gives none.
    static func oneMessageDifference(_ data: Data, mustRead: Bool) -> String? {
        let whole = PropertyListReaders.ownSegment(data) ?? PropertyListReaders.foundationSegment(data)
        for position in 0...max(whole?.count ?? 0, 2) {
            guard let one = PropertyListReaders.ownSegmentMessage(data, at: position) else {
                if mustRead { return "message \(position) of \(whole?.count ?? 0) is left to the whole reading" }
                continue
            }
            guard let whole else {
                // Refused whole for another message, never for its trailer, table or top array.
                guard PropertyListReaders.segmentHoldsTogether(data) else {
                    return "message \(position) is read from bytes that are no whole segment (\(data.count) bytes)"
                }
                continue
            }
            guard one.count == whole.count else {
                return "the one-message reader counts \(one.count) messages, the whole reading \(whole.count)"
            }
            if let message = one.message {
                guard position < whole.count, difference([message], [whole[position]]) == nil else {
                    let there = position < whole.count ? difference([message], [whole[position]]) : nil
                    return "message \(position) of \(whole.count): \(there ?? "past the end")"
                }
            } else if position < whole.count {
                return "the one-message reader reads no message \(position) of \(whole.count)"
            }
        }
        return nil
    }

    /// How two readings of an import differ; `nil` when they are the same.
    static func difference(_ one: ChatLogFile, _ other: ChatLogFile) -> String? {
        guard one.chats.map(\.chatID).map({ Array($0.utf8) }) == other.chats.map(\.chatID).map({ Array($0.utf8) })
        else { return "chats \(one.chats.map(\.chatID)) against \(other.chats.map(\.chatID))" }
        guard one.kinds == other.kinds else { return "kinds \(one.kinds) against \(other.kinds)" }
        guard one.skippedKeys == other.skippedKeys else {
            return "skipped \(one.skippedKeys) against \(other.skippedKeys)"
        }
        for (mine, theirs) in zip(one.chats, other.chats) {
            if let difference = difference(mine.messages, theirs.messages) { return "\(mine.chatID): \(difference)" }
        }
        return nil
    }

    /// How two lists of messages differ, field by field; `nil` when they are the same.
    static func difference(_ one: [Message], _ other: [Message]) -> String? {
        guard one.count == other.count else { return "\(one.count) messages against \(other.count)" }
        func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }
        for (index, (a, b)) in zip(one, other).enumerated() {
            let strings = [
                (a.chatID, b.chatID), (a.messageID, b.messageID), (a.content, b.content), (a.target, b.target),
                (a.mineHead, b.mineHead), (a.otherHead, b.otherHead), (a.type, b.type), (a.filePath, b.filePath),
                (a.address, b.address), (a.sender, b.sender),
            ]
            if let (x, y) = strings.first(where: { !$0.0.utf8.elementsEqual($0.1.utf8) }) {
                return "message \(index): \(x.debugDescription) against \(y.debugDescription)"
            }
            guard same(a.latitude, b.latitude), same(a.longitude, b.longitude),
                same(a.sentAt.timeIntervalSinceReferenceDate, b.sentAt.timeIntervalSinceReferenceDate)
            else { return "message \(index): numbers \(a) against \(b)" }
        }
        return nil
    }

    // MARK: - Documents from bytes

    /// The bytes as a file when they start as a property list does (`bplist`, `<`, a
    /// byte-order mark, a space); else a chat log built from them (``chatLogTree(_:)``),
    /// binary or XML by the first byte.
    public static func readersDocument(_ bytes: [UInt8]) -> Data {
        guard let first = bytes.first,
            ![UInt8(ascii: "b"), UInt8(ascii: "<"), 0xEF, 0xFE, 0xFF, 0x20, 0x0A].contains(first)
        else { return Data(bytes) }
        var source = ByteSource(bytes: Array(bytes.dropFirst()), plain: first & 2 == 0)
        let tree = chatLogTree(&source)
        return first & 1 == 0 ? tree.binary : tree.xmlDocument
    }

    /// A segment of the messages of ``readersDocument(_:)``'s file, when it is built from
    /// the bytes (every array's messages, in order, in one array: binary); the file as it is
    /// otherwise.
    public static func segmentDocument(_ bytes: [UInt8]) -> Data {
        guard let first = bytes.first,
            ![UInt8(ascii: "b"), UInt8(ascii: "<"), 0xEF, 0xFE, 0xFF, 0x20, 0x0A].contains(first)
        else { return Data(bytes) }
        var source = ByteSource(bytes: Array(bytes.dropFirst()), plain: first & 2 == 0)
        guard case .dictionary(let pairs) = chatLogTree(&source) else { return Data() }
        let messages = pairs.flatMap { pair -> [PropertyListTree] in
            guard case .array(let items) = pair.1 else { return [] }
            return items
        }
        return PropertyListTree.array(messages).binary
    }

    /// Bytes read one at a time as choices; zeros once they run out.
    struct ByteSource {
        let bytes: [UInt8]
        /// Whether to build what the own readers take (distinct keys, message fields of
        /// their types), with hostile values still among them, so that most inputs are
        /// compared value by value; else anything.
        var plain = false
        var at = 0

        mutating func next() -> Int {
            defer { at += 1 }
            return at < bytes.count ? Int(bytes[at]) : 0
        }

        mutating func pick<T>(_ choices: [T]) -> T { choices[next() % choices.count] }
    }

    static let keys = [
        "alice", "bob", "tweet_1", "draftline.kinds", "draftline:kinds", "$null", "$nullx", "caf\u{E9}",
        "cafe\u{301}", "NSWindow Frame", "",
    ]
    static let fields = [
        "chatID", "messageID", "content", "target", "mineHead", "otherHead", "type", "filePath", "address",
        "latitude", "longitude", "sentAt", "sender", "$null", "CF$UID", "other",
    ]
    static let texts = [
        "", "hi", "$null", "$nullify", " $null", "a\r\nb", "a\rb", "&", "<", "]]>", "caf\u{E9}", "cafe\u{301}",
        "\u{212B}", "你好", "😀", "\u{0}", "\u{1B}[2J", "chat", "thread", "alice",
        // Longer than a journal record's first read of an object (64 bytes), ASCII and UTF-16.
        String(repeating: "long line ", count: 30), String(repeating: "lång rad ", count: 30),
    ]
    static let numbers: [Double] = [
        0, -0.0, 40, 52.520008, .nan, .infinity, -.infinity, 1e300, .leastNonzeroMagnitude, -1e15, 252_423_993_600,
        -63_113_904_000,
        978_307_200,
    ]
    static let rawXML = [
        "<string>$null</string>", "<string>$nullx</string>", "<date>0000-01-01T00:00:00Z</date>",
        "<date>10000-01-01T00:00:00Z</date>", "<date>2020-02-30T00:00:00Z</date>", "<date>1582-10-10T00:00:00Z</date>",
        "<real>nan</real>", "<real>1e400</real>", "<real>0x10</real>", "<integer>0x10</integer>",
        "<integer> 12</integer>", "<integer>99999999999999999999</integer>", "<string>a<!-- c -->b</string>",
        "<string><![CDATA[x<y]]></string>", "<string>&#13;&#x1F600;</string>", "<string>a&#0;b</string>", "<true/>",
        "<data>AAAA</data>", "<string/>", "<dict/>", "<array/>", "<!-- c -->", "<?pi x?>",
    ]

    /// A chat log's shape, every part chosen by the bytes: keys that collide or read as no
    /// value, messages with odd fields, values of every type and reading.
    static func chatLogTree(_ source: inout ByteSource) -> PropertyListTree {
        var pairs: [(PropertyListTree, PropertyListTree)] = []
        var used: Set<String> = []
        for _ in 0..<(1 + source.next() % 4) {
            let key = source.pick(keys)
            let value: PropertyListTree
            if source.plain {
                guard used.insert(key).inserted else { continue }
                value =
                    key.hasPrefix("draftline")
                    ? .dictionary([
                        (.string(source.pick(["alice", "tweet_1"])), .string(source.pick(["chat", "thread"])))
                    ])
                    : .array((0..<(1 + source.next() % 3)).map { _ in message(&source) })
                pairs.append((.string(key), value))
                continue
            }
            switch source.next() % 8 {
            case 0:
                value = .dictionary(
                    (0..<(source.next() % 3)).map { _ in (.string(source.pick(keys)), .string(source.pick(texts))) })
            case 1: value = .boolean(true)
            case 2: value = .string(source.pick(texts))
            default: value = .array((0..<(1 + source.next() % 3)).map { _ in message(&source) })
            }
            pairs.append((source.next() % 5 == 0 ? .wide(key) : .string(key), value))
        }
        return .dictionary(pairs)
    }

    static func message(_ source: inout ByteSource) -> PropertyListTree {
        var pairs: [(PropertyListTree, PropertyListTree)] = []
        var used: Set<String> = []
        for _ in 0..<(source.next() % 7) {
            let field = source.pick(fields)
            let value: PropertyListTree
            if source.plain {
                guard used.insert(field).inserted, fields.firstIndex(of: field)! < 13 else { continue }
                switch field {
                case "latitude", "longitude":
                    value = source.next() % 4 == 0 ? .integer(Int64(source.next()) - 128) : .real(source.pick(numbers))
                case "sentAt": value = .date(source.pick(numbers) - Double(source.next() % 2) * 978_307_200)
                default: value = source.next() % 4 == 0 ? .wide(source.pick(texts)) : .string(source.pick(texts))
                }
                pairs.append((.string(field), value))
                continue
            }
            switch source.next() % 10 {
            case 0: value = .xml(source.pick(rawXML))
            case 1: value = .wide(source.pick(texts))
            case 2: value = .real(source.pick(numbers))
            case 3: value = .date(source.pick(numbers) - 978_307_200)
            case 4: value = .integer(Int64(source.next()) - 128)
            case 5: value = .date(source.pick(numbers))
            default:
                switch field {
                case "latitude", "longitude": value = .real(source.pick(numbers))
                case "sentAt": value = .date(source.pick(numbers))
                default: value = .string(source.pick(texts))
                }
            }
            pairs.append((.string(field), value))
        }
        return .dictionary(pairs)
    }
}
