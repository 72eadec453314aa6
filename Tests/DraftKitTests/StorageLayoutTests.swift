import Foundation
import Glibc
import Testing

@testable import DraftKit

/// The property-list layout: threads apart from private chats, directories written by the
/// previous layout, exact counts, and one damaged chat among many.
@Suite("The storage layout")
struct StorageLayoutTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }

    /// Writes a chat the way draftline wrote it before threads had their own directory:
    /// `chats/<name>/NNNNNNNN.plist` segments of binary message arrays, a `last` link,
    /// and no `format` file.
    func writeVersion1Chat(_ name: String, _ texts: [String], capacity: Int = 16) throws {
        let directory = data + "/chats/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let segments = stride(from: 0, to: texts.count, by: capacity).map {
            Array(texts[$0..<min($0 + capacity, texts.count)])
        }
        for (index, segment) in segments.enumerated() {
            let messages = segment.map { Message(chatID: name, messageID: $0, content: $0, target: "", mineHead: "me") }
            try encoder.encode(messages).write(
                to: URL(fileURLWithPath: directory + String(format: "/%08d.plist", index)))
        }
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/last", withDestinationPath: String(format: "%08d.plist", segments.count - 1))
    }

    @Test func aVersion1DirectoryIsUpgradedInPlaceAndReadsAsBefore() throws {
        try writeVersion1Chat("alice", ["hi alice"])
        try writeVersion1Chat("tweet_123", (0..<20).map { "comment \($0)" })
        try writeVersion1Chat("task_9", ["a task comment"])
        let history = try PropertyListHistory(directory: data)
        #expect(scratch.names(in: "data/chats") == ["alice"])
        #expect(scratch.names(in: "data/threads") == ["task_9", "tweet_123"])
        #expect(try String(contentsOfFile: data + "/format", encoding: .utf8) == "2\n")
        let thread = ChatID("tweet_123", kind: .thread)!
        #expect(
            try history.recentMessages(in: thread, limit: 3).value.map(\.content) == [
                "comment 17", "comment 18", "comment 19",
            ])
        #expect(try history.messageCount(in: thread).value == 20)
        #expect(try history.recentMessages(in: ChatID("alice")!, limit: 9).value.map(\.content) == ["hi alice"])
        // Opening it again changes nothing.
        _ = try PropertyListHistory(directory: data)
        #expect(scratch.names(in: "data/threads") == ["task_9", "tweet_123"])
    }

    @Test func aVersion1ChatOfAUserWithAThreadShapedNameStaysPrivate() throws {
        try writeVersion1Chat("tweet_1", ["to the user tweet_1"])
        _ = try PropertyListHistory(directory: data, isUser: { $0 == "tweet_1" })
        #expect(scratch.names(in: "data/chats") == ["tweet_1"])
        #expect(scratch.names(in: "data/threads") == [])
    }

    @Test func theDataDirectoryAsksTheContactsWhoIsAUser() throws {
        try writeVersion1Chat("topic_5", ["a user's chat"])
        try writeVersion1Chat("topic_6", ["a thread"])
        try FileManager.default.createDirectory(atPath: data + "/tmp", withIntermediateDirectories: true)
        try ContactBook.write(
            [Contact(key: try GlobalKey(validating: "topic_5"), name: "Topic Five")], directory: data)
        _ = try DataDirectory(path: data)
        #expect(scratch.names(in: "data/chats") == ["topic_5"])
        #expect(scratch.names(in: "data/threads") == ["topic_6"])
    }

    @Test func countsAreExactAfterACapacityChange() throws {
        let small = try PropertyListHistory(directory: data, segmentCapacity: 4)
        let alice = ChatID("alice")!
        for index in 0..<6 { try small.append(Message(content: "m\(index)"), to: alice) }
        let large = try PropertyListHistory(directory: data, segmentCapacity: 16)
        #expect(try large.messageCount(in: alice).value == 6)
        try large.append(Message(content: "m6"), to: alice)
        #expect(try large.messageCount(in: alice).value == 7)
        #expect(try small.messageCount(in: alice).value == 7)
        for index in 7..<30 { try small.append(Message(content: "m\(index)"), to: alice) }
        #expect(try large.messageCount(in: alice).value == 30)
        #expect(try large.recentMessages(in: alice, limit: 100).value.count == 30)
    }

    @Test func countsAreExactAfterARepair() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        let alice = ChatID("alice")!
        for index in 0..<10 { try history.append(Message(content: "m\(index)"), to: alice) }
        #expect(try history.messageCount(in: alice).value == 10)  // the count file now covers two segments
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
        let readable = try history.recentMessages(in: alice, limit: 100).value.count
        #expect(readable == 6)
        #expect(try history.messageCount(in: alice).value == readable)
    }

    @Test(arguments: ["directory", "fifo", "dev-zero", "huge-name"])
    func oneDamagedChatNeverHidesTheOthers(_ damage: String) throws {
        let history = try PropertyListHistory(directory: data)
        for name in ["alice", "bob", "carol"] { try history.append(Message(content: "hi \(name)"), to: ChatID(name)!) }
        let segment = data + "/chats/bob/00000000.plist"
        try FileManager.default.removeItem(atPath: segment)
        try? FileManager.default.removeItem(atPath: data + "/chats/bob/last")
        switch damage {
        case "directory": try FileManager.default.createDirectory(atPath: segment, withIntermediateDirectories: false)
        case "fifo": #expect(mkfifo(segment, 0o600) == 0)
        case "dev-zero": try FileManager.default.createSymbolicLink(atPath: segment, withDestinationPath: "/dev/zero")
        default:
            try #require(FileManager.default.createFile(atPath: segment, contents: Data()))
            try FileManager.default.createSymbolicLink(
                atPath: data + "/chats/bob/last", withDestinationPath: "9223372036854775807.plist")
        }
        let listing = try history.chats()
        var warnings = listing.warnings
        let summaries = listing.value
        #expect(summaries.map(\.chatID.rawValue).sorted() == ["alice", "bob", "carol"])
        #expect(summaries.filter { $0.lastMessage != nil }.map(\.chatID.rawValue).sorted() == ["alice", "carol"])
        let alice = try history.recentMessages(in: ChatID("alice")!, limit: 5)
        #expect(alice.value.map(\.content) == ["hi alice"])
        let count = try history.messageCount(in: ChatID("bob")!)
        #expect(count.value == 0)
        warnings +=
            alice.warnings + count.warnings + (try history.append(Message(content: "bob again"), to: ChatID("bob")!))
        let bob = try history.recentMessages(in: ChatID("bob")!, limit: 5)
        #expect(bob.value.map(\.content) == ["bob again"])
        warnings += bob.warnings
        #expect(warnings.count == 1, "\(warnings)")
    }

    @Test(arguments: [Int.max, -1, 1 << 40])
    func aCountFileWithFiguresOutOfRangeIsNotBelieved(_ figure: Int) throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        let alice = ChatID("alice")!
        for index in 0..<9 { try history.append(Message(content: "m\(index)"), to: alice) }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(["segments": 2, "messages": figure]).write(
            to: URL(fileURLWithPath: data + "/chats/alice/count"))
        #expect(try PropertyListHistory(directory: data, segmentCapacity: 4).messageCount(in: alice).value == 9)
        try encoder.encode(["segments": figure, "messages": 8]).write(
            to: URL(fileURLWithPath: data + "/chats/alice/count"))
        #expect(try PropertyListHistory(directory: data, segmentCapacity: 4).messageCount(in: alice).value == 9)
    }
}
