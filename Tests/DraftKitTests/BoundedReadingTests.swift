import DraftlineTestSupport
import Foundation
import Testing

@testable import DraftKit

/// The pieces that keep reading bounded, as data: the nesting check, the journal's
/// slices, the contacts' index, the one grammar of chat names.
@Suite("Bounded reading, piece by piece")
struct BoundedReadingTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }

    // MARK: nesting

    /// Closing tags hidden where Foundation does not see them (comments, CDATA, processing
    /// instructions) do not lower the depth; a tag ends at its first `>`, as Foundation
    /// reads it. Each body is repeated 200 times inside `<plist>`.
    @Test(arguments: [
        ("<array><!--</array>-->", 201), ("<array><![CDATA[</array>]]><string>x</string>", 202),
        ("<array><?pi </array>?>", 201), ("<array/>", 1), ("<array x=\"/>\">", 1), ("</array></array><array>", 1),
        ("<dict><key>k</key><array><string>v</string></array></dict>", 4),
    ])
    func theDepthFollowsFoundationsReadingOfTags(_ body: String, _ depth: Int) {
        let repeated = String(repeating: body, count: 200)
        let bytes = Data(("<?xml version=\"1.0\"?><plist>" + repeated + "</plist>").utf8)
        #expect(PropertyListInput.depth(of: bytes) == depth)
    }

    @Test func aFileWithinTheLimitDecodesAndOnePastItIsRefused() throws {
        let limit = PropertyListInput.maximumDepth
        #expect(throws: Never.self) { try PropertyListInput.check(Fixture.nestedXML(depth: limit - 1)) }
        #expect(throws: PropertyListInput.Refusal.tooDeep) {
            try PropertyListInput.check(Fixture.nestedXML(depth: limit))
        }
        let binary = try PropertyListSerialization.data(fromPropertyList: [[["a"]]], format: .binary, options: 0)
        #expect(PropertyListInput.depth(of: binary) == 0)
    }

    // MARK: the journal's slices

    @Test func theJournalIsReadInBoundedSlicesAndSkipsPastItsLimit() throws {
        let writer = try PropertyListHistory(directory: data)
        let reader = JournalReader(journal: writer.journal)
        let alice = ChatID("alice")!
        for index in 0..<200 { try writer.append(Message(messageID: "m\(index)", content: "m\(index)"), to: alice) }
        var slices: [JournalReader.Slice] = []
        repeat { slices.append(reader.take()) } while slices.last?.hasMore == true && slices.count < 100
        #expect(slices.allSatisfy { $0.records.count <= reader.sliceRecords })
        #expect(slices.flatMap(\.records).map(\.messageID) == (0..<200).map { "m\($0)" })
        #expect(slices.count == 4)
        // Past the limit: one skip, to the end, and the next record still comes.
        reader.backlogLimit = 64 * 1024
        let junk = Data(String(repeating: "not a record\n", count: 20_000).utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/live/journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: junk)
        try handle.close()
        try writer.append(Message(messageID: "after", content: "after"), to: alice)
        let skipped = reader.take()
        #expect(skipped.skipped > 64 * 1024 && skipped.records.isEmpty && !skipped.hasMore)
        try writer.append(Message(messageID: "next", content: "next"), to: alice)
        #expect(reader.take().records.map(\.messageID) == ["next"])
    }

    // MARK: the contacts' index

    /// Every key found by halving, at sizes around the block the search stops at, and no
    /// key that is not there.
    @Test(arguments: [0, 1, 2, 50, 300, 5000])
    func everyContactIsFoundAndNoOtherIs(_ count: Int) throws {
        let keys = (0..<count).map { "user\($0)" }
        try ContactBook.write(
            keys.map { Contact(key: try GlobalKey(validating: $0), name: "Name \($0)\n\\t") }, directory: data)
        for pass in 0..<2 {
            let book = ContactBook.load(directory: data)
            for key in keys {
                #expect(book[try GlobalKey(validating: key)]?.name == "Name \(key)\n\\t", "pass \(pass)")
            }
            #expect(book[try GlobalKey(validating: "user")] == nil)
            #expect(book[try GlobalKey(validating: "zzz")] == nil)
            #expect(book[try GlobalKey(validating: "alice")]?.name == "Alice Chen")
            #expect(try book.keys().count == count + ContactBook.demo.count)
        }
    }

    // MARK: one grammar

    /// Whatever name a chat ID accepts, its people are known: no name that is a chat can
    /// make `people` fail for a private chat.
    @Test func everyPrivateChatNameHasItsPeople() {
        var generator = SeededGenerator(seed: 19)
        let alphabet = Array("ab.-_+9m")
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...140, using: &generator)
            let name = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            guard let chat = ChatID(name) else { continue }
            #expect(chat.people != nil, "\(name)")
        }
        #expect(ChatID(String(repeating: "a", count: 65)) == nil)
        #expect(ChatID(String(repeating: "a", count: 64)) != nil)
        #expect(ChatID("tweet_0", kind: .thread) != nil && ChatID("tweet_01", kind: .thread) == nil)
    }
}
