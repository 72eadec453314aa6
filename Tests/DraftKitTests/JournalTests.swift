import DraftlineTestSupport
import Foundation
import Glibc
import Testing

@testable import DraftKit

/// The journal: how one process learns what another stored. Two history objects on one
/// directory stand for two processes.
@Suite("The journal that carries messages between processes")
struct JournalTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }
    let pair = ChatID("alice+bob")!

    func message(_ text: String, from sender: String = "bob") -> Message {
        Message(chatID: pair.rawValue, messageID: "id-" + text, content: text, target: "alice", sender: sender)
    }

    @Test func whatOneStoresTheOtherTakesOnceInOrderAcrossSegments() throws {
        let writer = try PropertyListHistory(directory: data, segmentCapacity: 3)
        try writer.append(message("before"), to: pair)
        let reader = try PropertyListHistory(directory: data, segmentCapacity: 3)
        let feed = reader.follow(notifications: true)
        #expect(feed.descriptor >= 0)
        #expect(feed.takeAll().isEmpty)  // what was there before the feed is history, not news
        for index in 0..<8 { try writer.append(message("m\(index)"), to: pair) }
        try writer.appendAll([message("x"), message("y")], to: ChatID("carol")!)
        var ready = pollfd(fd: feed.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5000) == 1)
        let arrivals = feed.takeAll()
        #expect(arrivals.map(\.message.content) == (0..<8).map { "m\($0)" } + ["x", "y"])
        #expect(arrivals.map(\.chat.rawValue) == Array(repeating: "alice+bob", count: 8) + ["carol", "carol"])
        #expect(feed.takeAll().isEmpty)
        // Drained: the descriptor is quiet until the next append.
        ready.revents = 0
        #expect(poll(&ready, 1, 0) == 0)
    }

    @Test func aRotatedJournalLosesNothing() throws {
        let writer = try PropertyListHistory(directory: data)
        writer.journal.rotationSize = 200
        let feed = try PropertyListHistory(directory: data).follow(notifications: false)
        #expect(feed.descriptor == -1)
        var taken: [String] = []
        for index in 0..<40 {
            try writer.append(message("m\(index)"), to: pair)
            if index % 7 == 0 { taken += feed.takeAll().map(\.message.content) }
        }
        taken += feed.takeAll().map(\.message.content)
        #expect(taken == (0..<40).map { "m\($0)" })
        #expect(scratch.names(in: "data/live") == ["journal", "journal.1"])
    }

    @Test func linesThatAreNotRecordsAndRecordsOfNothingAreSkipped() throws {
        let writer = try PropertyListHistory(directory: data)
        let feed = try PropertyListHistory(directory: data).follow(notifications: false)
        try writer.append(message("real"), to: pair)
        let junk = [
            "garbage\n", "c\t../../etc\t0\t0\tx\n", "c\talice+bob\t0\t99\tid-real\n",
            "c\talice+bob\t0\t0\tsomeone-else\n", "t\talice+bob\t0\t0\t-\n", "c\tcarol\t0\t0\t-\n",
            String(repeating: "z", count: 5000) + "\n", "c\talice+bob\t0\t",
        ].joined()
        let handle = try #require(FileHandle(forWritingAtPath: data + "/live/journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(junk.utf8))
        try handle.close()
        // The last line has no newline yet: it waits for one.
        #expect(feed.takeAll().map(\.message.content) == ["real"])
        try writer.append(message("next"), to: pair)
        // The writer ends the unfinished line first: it stays junk, and the record after
        // it parses.
        #expect(feed.takeAll().map(\.message.content) == ["next"])
    }

    @Test func aFIFOOrALinkWhereTheJournalBelongsNeitherHangsNorIsFollowed() throws {
        let history = try PropertyListHistory(directory: data)
        #expect(mkfifo(data + "/live/journal", 0o600) == 0)
        let feed = try PropertyListHistory(directory: data).follow(notifications: true)
        // Storing still works; the journal is refused, so nothing is announced.
        try history.append(message("stored"), to: pair)
        #expect(feed.takeAll().isEmpty)
        #expect(try history.recentMessages(in: pair, limit: 5).value.map(\.content) == ["stored"])
        unlink(data + "/live/journal")
        let outside = scratch.path + "/outside"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data()))
        #expect(symlink(outside, data + "/live/journal") == 0)
        try history.append(message("again"), to: pair)
        #expect(try String(contentsOfFile: outside, encoding: .utf8).isEmpty)
        #expect(feed.takeAll().isEmpty)
    }

    /// A record read while the other process appends the next message to the same segment
    /// (its one `write` half done, as a reader sees it: the kernel makes a write visible a
    /// page at a time) brings its message: the feed reads what was whole before the append,
    /// which holds it (a record is written after its append), and the next message once its
    /// append is whole. A lost arrival otherwise: 'b-83' in one run of
    /// LiveConversationEndToEndTests' 200 messages each way.
    @Test func aRecordReadWhileTheNextAppendIsHalfWrittenBringsItsMessage() throws {
        let writer = try PropertyListHistory(directory: data, segmentCapacity: 1000)
        let segment = URL(fileURLWithPath: data + "/chats/alice+bob/00000000.plist")
        let journal = data + "/live/journal"
        try writer.append(message("first"), to: pair)
        let start = try Data(contentsOf: URL(fileURLWithPath: journal)).count
        try writer.append(message("whole"), to: pair)
        let before = try Data(contentsOf: segment)
        let whole = try Data(contentsOf: URL(fileURLWithPath: journal)).suffix(from: start)
        try writer.append(message("half"), to: pair)
        let after = try Data(contentsOf: segment)
        let half = try Data(contentsOf: URL(fileURLWithPath: journal)).suffix(from: start + whole.count)
        #expect(after.prefix(before.count) == before, "an append only adds bytes")
        func addToJournal(_ record: Data) throws {
            let handle = try #require(FileHandle(forWritingAtPath: journal))
            try handle.seekToEnd()
            try handle.write(contentsOf: record)
            try handle.close()
        }
        // Each cut as a reader finds it mid-write: the segment's new end cut after `cut`
        // bytes, the half-written message's record not yet journalled. A fresh feed each time.
        let reader = try PropertyListHistory(directory: data)
        for cut in 1..<(after.count - before.count) {
            #expect(truncate(journal, off_t(start)) == 0)
            let feed = reader.follow(notifications: false)
            try after.prefix(before.count + cut).write(to: segment)
            try addToJournal(whole)
            #expect(feed.takeAll().map(\.message.content) == ["whole"], "cut after \(cut) bytes")
            try after.write(to: segment)
            try addToJournal(half)
            #expect(feed.takeAll().map(\.message.content) == ["half"], "cut after \(cut) bytes")
        }
    }

    @Test func aBulkLoadCanSkipTheJournal() throws {
        let history = try PropertyListHistory(directory: data)
        let feed = try PropertyListHistory(directory: data).follow(notifications: false)
        try history.appendAll((0..<50).map { message("m\($0)") }, to: pair, durable: false, announce: false)
        #expect(feed.takeAll().isEmpty)
    }
}
