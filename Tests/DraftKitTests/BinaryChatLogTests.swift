import DraftlineTestSupport
import Foundation
import Testing

@testable import DraftKit

/// The binary import's own reader (``BinaryChatLog``) reads every file it takes exactly
/// as Foundation's decoder does, and leaves the rest to it.
@Suite("Binary chat logs read without Foundation's decoder")
struct BinaryChatLogTests {
    /// A preferences-like file: chats of well-formed messages, messages with missing,
    /// extra and loosely typed fields, text in several scripts, and keys that hold no
    /// messages.
    static let file: [String: Any] = {
        func message(_ chat: String, _ number: Int) -> [String: Any] {
            var fields = Message(
                chatID: chat, messageID: "m\(number)", content: "héllo \(number) 你好 😀\ttab", target: chat,
                mineHead: "me", otherHead: chat, type: number % 3 == 0 ? "image" : "text", latitude: 52.5 + Double(number),
                longitude: -13.25, sentAt: Date(timeIntervalSinceReferenceDate: 1000.5 * Double(number)),
                sender: number % 2 == 0 ? "me" : chat
            ).dictionary
            if number % 5 == 0 { fields["latitude"] = number }  // an integer where a real belongs
            if number % 7 == 0 { fields.removeValue(forKey: "sentAt") }
            if number % 4 == 0 { fields["extra"] = ["nested": [true, Data([1, 2])]] }
            return fields
        }
        var file: [String: Any] = [:]
        for chat in 0..<20 { file["user\(chat)"] = (0..<(chat + 1)).map { message("user\(chat)", 100 * chat + $0) } }
        file["tweet_9"] = [["content": "only a content"], [:]]
        file["NSWindow Frame"] = "0 0 100 100"
        file["flags"] = [true, false]
        file["empty"] = [Any]()
        file["mixed"] = [["content": "a"], "not a message"]
        return file
    }()

    static func binary(_ plist: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// The two readings of `data`: the reader's (`nil` when it passes) and Foundation's.
    static func readings(_ data: Data) -> (own: BinaryChatLog?, foundation: Result<ChatLogFile, TransferError>) {
        (BinaryChatLog(data), Result { () throws(TransferError) in try ChatLogFile(foundation: data) })
    }

    static func same(_ own: BinaryChatLog, _ file: ChatLogFile) -> Bool {
        own.skipped == file.skippedKeys && own.chats.map(\.chatID) == file.chats.map(\.chatID)
            && own.chats.map(\.messages) == file.chats.map(\.messages)
    }

    @Test func aWellFormedFileIsReadByTheReaderAsFoundationReadsIt() throws {
        let (own, foundation) = Self.readings(try Self.binary(Self.file))
        let reader = try #require(own)
        let file = try foundation.get()
        #expect(Self.same(reader, file))
        #expect(reader.chats.count == 21 && reader.skipped == 4)
        #expect(reader.chats.first { $0.chatID == "user4" }?.messages.first?.latitude == 400)
        // And through the public door, which takes the reader's way.
        let read = try ChatLogFile(data: Self.binary(Self.file))
        #expect(read.chats.map(\.messages) == file.chats.map(\.messages) && read.skippedKeys == file.skippedKeys)
    }

    @Test func whatTheReaderDoesNotTakeIsLeftToFoundation() throws {
        // A boolean in a string field, a string in a real field: Foundation's defaults apply.
        for odd in [["content": true], ["latitude": "52"], ["sentAt": 3.5], ["chatID": Data([1])]] as [[String: Any]] {
            let data = try Self.binary(["alice": [odd]])
            #expect(BinaryChatLog(data) == nil)
            let file = try ChatLogFile(data: data)
            #expect(file.chats.map(\.messages) == (try ChatLogFile(foundation: data)).chats.map(\.messages))
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
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let (own, foundation) = Self.readings(Data(bytes))
            guard let own else { continue }
            taken += 1
            switch foundation {
            case .success(let file):
                #expect(Self.same(own, file), "reader and Foundation disagree")
            case .failure(let error):
                // Nothing usable either way is the same answer.
                #expect(own.chats.isEmpty, "the reader took a file Foundation refuses (\(error))")
            }
        }
        #expect(taken > 100)
    }
}
