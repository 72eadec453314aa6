import DraftlineTestSupport
import Foundation
import Testing

@testable import DraftKit

/// The binary import's own reader (``BinaryChatLog``) reads every file it takes exactly
/// as Foundation's decoder does, and leaves the rest to it.
@Suite("Binary chat logs read without Foundation's decoder")
struct BinaryChatLogTests {
    /// Chats of messages with missing and loosely typed fields and text in several scripts.
    nonisolated(unsafe) static let file: [String: Any] = {
        func message(_ chat: String, _ number: Int) -> [String: Any] {
            var fields = Message(
                chatID: chat, messageID: "m\(number)", content: "héllo \(number) 你好 😀\ttab", target: chat,
                mineHead: "me", otherHead: chat, type: number % 3 == 0 ? "image" : "text",
                latitude: 52.5 + Double(number),
                longitude: -13.25, sentAt: Date(timeIntervalSinceReferenceDate: 1000.5 * Double(number)),
                sender: number % 2 == 0 ? "me" : chat
            ).dictionary
            if number % 5 == 0 { fields["latitude"] = number }  // an integer where a real belongs
            if number % 7 == 0 { fields.removeValue(forKey: "sentAt") }
            return fields
        }
        var file: [String: Any] = [:]
        for chat in 0..<20 { file["user\(chat)"] = (0..<(chat + 1)).map { message("user\(chat)", 100 * chat + $0) } }
        file["tweet_9"] = [["content": "only a content"], [:]]
        return file
    }()

    static func binary(_ plist: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The two readings of `data`: the reader's (`nil` when it passes) and Foundation's.
    static func readings(_ data: Data) -> (own: BinaryChatLog?, foundation: Result<ChatLogFile, ChatLogFile.Problem>) {
        (BinaryChatLog(data), Result { () throws(ChatLogFile.Problem) in try ChatLogFile(foundation: data) })
    }

    static func same(_ own: BinaryChatLog, _ file: ChatLogFile) -> Bool {
        file.skippedKeys == 0 && own.chats.map(\.chatID) == file.chats.map(\.chatID)
            && own.chats.map(\.messages) == file.chats.map(\.messages)
    }

    @Test func aWellFormedFileIsReadByTheReaderAsFoundationReadsIt() throws {
        let (own, foundation) = Self.readings(try Self.binary(Self.file))
        let reader = try #require(own)
        let file = try foundation.get()
        #expect(Self.same(reader, file))
        #expect(reader.chats.count == 21)
        #expect(reader.chats.first { $0.chatID == "user4" }?.messages.first?.latitude == 400)
        // And through the public door, which takes the reader's way.
        let read = try ChatLogFile(data: Self.binary(Self.file))
        #expect(read.chats.map(\.messages) == file.chats.map(\.messages) && read.skippedKeys == file.skippedKeys)
    }

    @Test func whatTheReaderDoesNotTakeIsLeftToFoundation() throws {
        // A boolean in a string field, a string in a real field, an unknown field: Foundation's
        // defaults apply. Keys that hold no messages (a preferences file's): Foundation skips them.
        let odd: [[String: Any]] = [
            ["alice": [["content": true]]], ["alice": [["latitude": "52"]]], ["alice": [["sentAt": 3.5]]],
            ["alice": [["chatID": Data([1])]]], ["alice": [["extra": ["nested": [true]]]]],
            ["alice": [["content": "a"]], "NSWindow Frame": "0 0 100 100"], ["alice": [["content": "a"]], "empty": []],
            ["alice": [["content": "a"]], "mixed": [["content": "a"], "not a message"]],
        ]
        for plist in odd {
            let data = try Self.binary(plist)
            #expect(BinaryChatLog(data) == nil)
            let file = try ChatLogFile(data: data)
            let foundation = try ChatLogFile(foundation: data)
            #expect(file.chats.map(\.messages) == foundation.chats.map(\.messages))
            #expect(file.skippedKeys == foundation.skippedKeys)
        }
        // XML is never the reader's.
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.file, format: .xml, options: 0)
        #expect(BinaryChatLog(xml) == nil)
    }

    /// Damaged files: wherever the reader takes one, Foundation reads the same messages.
    @Test func aDamagedFileIsEitherLeftToFoundationOrReadAsFoundationReadsIt() throws {
        let original = [UInt8](try Self.binary(Self.file))
        var generator = SeededGenerator(seed: 23)
        var taken = 0
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let (own, foundation) = Self.readings(Data(bytes))
            guard let own else { continue }
            taken += 1
            switch foundation {
            case .success(let file):
                #expect(Self.same(own, file), "reader and Foundation disagree on a damaged file")
            case .failure(let error):
                // Nothing usable either way is the same answer.
                Issue.record("the reader took a damaged file Foundation refuses (\(error))")
            }
        }
        #expect(taken > 50)
    }

    /// An export (written a chat at a time, ``SegmentEncoder/chatLog()``) reads back, by
    /// Foundation and by the reader, with every field of every message equal.
    @Test func anExportReadsBackWithEveryFieldEqual() throws {
        let history = InMemoryHistory()
        let source = try ChatLogFile(foundation: Self.binary(Self.file))
        _ = try HistoryTransfer(history: history).importChats(source)
        let folder = NSTemporaryDirectory() + "/binary-chat-log-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let summary = try HistoryTransfer(history: history).export(
            to: OutputPath(folder + "/out.plist", dataDirectory: nil))
        #expect(summary.messages == source.chats.map(\.messages.count).reduce(0, +))
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/out.plist"))
        let foundation = try ChatLogFile(foundation: data)
        let own = try #require(BinaryChatLog(data))
        // The thread comes back under its name; every message as imported (IDs derived where missing).
        let stored = try history.chatIDs().map { chat in (chat.rawValue, try history.allMessages(in: chat).value) }
        let expected = stored.sorted { $0.0 < $1.0 }
        #expect(foundation.chats.map(\.chatID) == expected.map(\.0))
        #expect(foundation.chats.map(\.messages) == expected.map(\.1))
        #expect(Self.same(own, foundation))
        // And each chat's kind under draftline's own key, read the same both ways.
        #expect(foundation.kinds["tweet_9"] == .thread && foundation.kinds["user3"] == .privateChat)
        #expect(try ChatLogFile(data: data).kinds == foundation.kinds)
    }

    /// The chat list's reading (a segment's last message alone) and a chat's opening (its
    /// last messages), from the object table, as Foundation's decoder reads them, in a
    /// segment written whole, extended by sends, empty, or damaged.
    @Test func aSegmentsLastMessageIsReadAsFoundationReadsIt() throws {
        let messages = try #require(Self.file["user7"] as? [[String: Any]]).map(Message.init(dictionary:))
        var bytes = SegmentEncoder.segment(messages[0..<3])
        func foundationLast(_ bytes: [UInt8]) -> Message?? {
            (try? PropertyListInput.decode([Message].self, from: Data(bytes))).map { $0.last }
        }
        #expect(BinaryChatLog.lastMessage(Data(bytes)) == .some(messages[2]))
        for next in messages[3...] {
            let layout = try #require(SegmentLayout(bytes))
            bytes += try #require(SegmentEncoder.append([next], to: layout))
            #expect(BinaryChatLog.lastMessage(Data(bytes)) == .some(next))
            #expect(foundationLast(bytes) == .some(next))
        }
        #expect(BinaryChatLog.lastMessage(Data(SegmentEncoder.segment([]))) == .some(nil))
        // Opening a chat: its last k messages alone, as the whole decoded and cut.
        for count in 0...(messages.count + 1) {
            #expect(BinaryChatLog.segment(Data(bytes), last: count) == Array(messages.suffix(count)))
        }
        var generator = SeededGenerator(seed: 0x1A57)
        var compared = 0
        for _ in 0..<1500 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            // Where both read it, they agree; the reader may read a last message whose
            // segment is damaged elsewhere (the chat's own reading sets that aside).
            guard let own = BinaryChatLog.lastMessage(Data(damaged)), let foundation = foundationLast(damaged) else {
                continue
            }
            compared += 1
            #expect(own == foundation, "reader and Foundation disagree on a damaged segment's last message")
        }
        #expect(compared > 50)
    }

    /// A binary property list whose chat `alice` holds `copies` references to one message,
    /// whose `content` is a string of `bytes` bytes: what Python's `plistlib` writes for a
    /// list of one dictionary repeated, and 30 GB once read at 30,000 copies of 1 MB.
    static func shared(copies: Int, bytes: Int) -> Data {
        func be(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        func header(_ marker: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x13] + be(count, 8)
        }
        let objects: [[UInt8]] = [
            header(0xD0, 1) + be(1, 4) + be(2, 4),  // {"alice": array}
            header(0x50, 5) + Array("alice".utf8),
            header(0xA0, copies) + Array(repeating: be(3, 4), count: copies).flatMap { $0 },
            header(0xD0, 1) + be(4, 4) + be(5, 4),  // {"content": text}
            header(0x50, 7) + Array("content".utf8),
            header(0x50, bytes) + Array(repeating: UInt8(ascii: "x"), count: bytes),
        ]
        var file = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(file.count)
            file += object
        }
        let table = file.count
        for offset in offsets { file += be(offset, 8) }
        file += [0, 0, 0, 0, 0, 0, 8, 4] + be(objects.count, 8) + be(0, 8) + be(table, 8)
        return Data(file)
    }

    /// Shared objects are measured before anything is made: a 1 MB file that reads as
    /// 30 GB is refused in one line, at once; a little sharing reads as Foundation reads it.
    @Test func aFileWhoseObjectsAreSharedBeyondReasonIsRefusedBeforeItIsRead() throws {
        let huge = Self.shared(copies: 30_000, bytes: 1 << 20)
        #expect(huge.count < 1_200_000)
        #expect(throws: ChatLogFile.Problem.tooLarge(megabytes: ChatLogFile.expansionLimit(of: huge.count) >> 20)) {
            try ChatLogFile(data: huge)
        }
        let modest = Self.shared(copies: 3, bytes: 40)
        let read = try ChatLogFile(data: modest)
        #expect(
            read.chats.first?.messages.map(\.content) == Array(repeating: String(repeating: "x", count: 40), count: 3))
        #expect(try ChatLogFile(foundation: modest).chats.map(\.messages) == read.chats.map(\.messages))
        // The files Foundation and plistlib write of real chats are far inside the limit.
        let file = try Self.binary(Self.file)
        let size = try #require(BinaryChatLog.expandedSize(file, limit: .max - 1))
        #expect(size < 4 * file.count)
    }
}
