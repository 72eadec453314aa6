import Foundation
import Glibc
import Testing

@testable import DraftKit
@testable import DraftlineREPL

/// A scratch directory, removed at the end of the test.
final class ScratchDirectory {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/draftkit-XXXXXX").utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func names(in relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + relative)) ?? []).sorted()
    }
}

@Suite("History in property-list segments")
struct PropertyListHistoryTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }
    let alice = ChatID("alice")!

    func message(_ text: String) -> Message {
        Message(chatID: "alice", messageID: text, content: text, target: "alice")
    }

    /// The count cache covers exactly the full segments an append moved past, whether one
    /// message at a time or many at once, so counting reads only the last segment.
    @Test func theCountCacheCoversTheSegmentsMovedPast() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        for index in 0..<8 { try history.append(message("m\(index)"), to: alice) }
        let cache = history.segments.countFile(in: try #require(try history.chatDirectory(alice)))
        // Segment 1 is full but still the last: only segment 0 was moved past.
        #expect(cache.read().segments == 1 && cache.read().messages == 4)
        try history.append(message("m8"), to: alice)
        #expect(cache.read().segments == 2 && cache.read().messages == 8)
        try history.appendAll((9..<19).map { message("m\($0)") }, to: alice)
        #expect(cache.read().segments == 4 && cache.read().messages == 16)
        #expect(try history.messageCount(in: alice).value == 19)
        // A write that fails part way: the cache covers only what is on disk.
        let bob = ChatID("bob")!
        let secondSegment = FaultPlan([
            FaultPlan.Rule(failing: 0, with: ENOSPC, onward: true, call: "renameat", pathSuffix: "/bob/00000001.plist")
        ])
        FaultPlan.withActive(secondSegment) {
            #expect(throws: StoreError.self) { try history.appendAll((0..<10).map { message("b\($0)") }, to: bob) }
        }
        let bobCache = history.segments.countFile(in: try #require(try history.chatDirectory(bob)))
        #expect(bobCache.read().segments == 1 && bobCache.read().messages == 4)
        #expect(try history.messageCount(in: bob).value == 4)
    }

    @Test func appendsRollIntoNumberedSegmentsAndReadBackInOrder() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        for index in 0..<10 { try history.append(message("m\(index)"), to: alice) }
        #expect(
            scratch.names(in: "data/chats/alice") == [
                "00000000.plist", "00000001.plist", "00000002.plist", "count", "last",
            ])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: data + "/chats/alice/last") == "00000002.plist")
        #expect(try history.messageCount(in: alice).value == 10)
        #expect(try history.recentMessages(in: alice, limit: 6).value.map(\.content) == (4..<10).map { "m\($0)" })
        #expect(try history.recentMessages(in: alice, limit: 100).value.count == 10)
        // A second instance (another process) finds the last segment without a hint.
        let other = try PropertyListHistory(directory: data, segmentCapacity: 4)
        try other.append(message("m10"), to: alice)
        try history.append(message("m11"), to: alice)
        #expect(try history.recentMessages(in: alice, limit: 3).value.map(\.content) == ["m9", "m10", "m11"])
    }

    @Test func lastSegmentIsFoundByProbingAtManySizes() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 1)
        for count in 1...70 {
            try history.append(message("m\(count)"), to: alice)
            let fresh = try PropertyListHistory(directory: data, segmentCapacity: 1)
            #expect(try fresh.lastSegment(of: alice) == count - 1)
        }
    }

    @Test func staleOrBrokenLastLinkIsNotTrusted() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 2)
        for index in 0..<7 { try history.append(message("m\(index)"), to: alice) }
        let link = data + "/chats/alice/last"
        for target in ["00000001.plist", "00000009.plist", "garbage", "../../../etc/passwd.plist"] {
            try FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let fresh = try PropertyListHistory(directory: data, segmentCapacity: 2)
            #expect(try fresh.lastSegment(of: alice) == 3, "link to \(target)")
        }
        try FileManager.default.removeItem(atPath: link)
        #expect(try PropertyListHistory(directory: data, segmentCapacity: 2).lastSegment(of: alice) == 3)
    }

    @Test func filesWrittenByAnotherWriterAreReadWithDefaults() throws {
        let history = try PropertyListHistory(directory: data)
        try FileManager.default.createDirectory(atPath: data + "/chats/alice", withIntermediateDirectories: true)
        let foreign: [[String: Any]] = [["content": "from elsewhere", "latitude": 1], ["chatID": "alice"]]
        let xml = try PropertyListSerialization.data(fromPropertyList: foreign, format: .xml, options: 0)
        try xml.write(to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
        let messages = try history.recentMessages(in: alice, limit: 10).value
        #expect(
            messages == [Message(content: "from elsewhere", type: "", latitude: 1), Message(chatID: "alice", type: "")])
        try history.append(message("mine"), to: alice)
        #expect(try history.messageCount(in: alice).value == 3)
    }

    @Test(arguments: [Data(), Data("bplist00garbage".utf8), Data("<?xml version=\"1.0\"?><plist><array><dict>".utf8)])
    func damagedSegmentIsMovedAsideUnchanged(_ damage: Data) throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        for index in 0..<6 { try history.append(message("m\(index)"), to: alice) }
        let segment = data + "/chats/alice/00000000.plist"
        try damage.write(to: URL(fileURLWithPath: segment))
        let reading = try history.recentMessages(in: alice, limit: 10)
        #expect(reading.value.map(\.content) == ["m4", "m5"])
        let warnings = reading.warnings
        #expect(warnings.count == 1)
        #expect(
            warnings.first.map(Presenter.describe)?.contains("moved aside as chats/alice/00000000.plist.corrupt-")
                == true)
        let aside = scratch.names(in: "data/chats/alice").filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: data + "/chats/alice/" + aside[0]) == damage)
        // The rest works: sending goes on, and the damaged file is not touched again.
        #expect(try history.append(message("m6"), to: alice).isEmpty)
        let again = try history.recentMessages(in: alice, limit: 10)
        #expect(again.value.map(\.content) == ["m4", "m5", "m6"])
        #expect(again.warnings.isEmpty)
    }

    @Test func damagedLastSegmentDuringASendIsMovedAsideAndTheSendSucceeds() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        try history.append(message("m0"), to: alice)
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
        let warnings = try history.append(message("m1"), to: alice)
        #expect(try history.recentMessages(in: alice, limit: 10).value.map(\.content) == ["m1"])
        #expect(warnings.count == 1, "\(warnings)")
    }

    @Test(arguments: ["write", "fdatasync"])
    func aFailedWriteLeavesTheOldDataAndNoTemporaryFile(_ operation: String) throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 4)
        try history.append(message("m0"), to: alice)
        let before = FileManager.default.contents(atPath: data + "/chats/alice/00000000.plist")
        FaultPlan.withActive(FaultPlan([FaultPlan.Rule(failing: 0, with: ENOSPC, onward: true, call: operation)])) {
            #expect(throws: StoreError.self) { try history.append(self.message("m1"), to: alice) }
        }
        #expect(FileManager.default.contents(atPath: data + "/chats/alice/00000000.plist") == before)
        #expect(scratch.names(in: "data/tmp") == [])
        try history.append(message("m2"), to: alice)
        #expect(try history.recentMessages(in: alice, limit: 10).value.map(\.content) == ["m0", "m2"])
    }

    @Test func diskFullDuringASendKeepsTheDraftAndTheNextSendSucceeds() throws {
        let history = try PropertyListHistory(directory: data)
        let session = Frontend(Session(contacts: ContactBook(), history: history))
        session.handle(.line("/open alice"))
        session.handle(.line("first"))
        let fullDisk = FaultPlan([FaultPlan.Rule(failing: 0, with: ENOSPC, onward: true, call: "write")])
        let output = FaultPlan.withActive(fullDisk) {
            session.handle(.line("second, typed while the disk was full")).lines
        }
        #expect(output.count == 1)
        #expect(output.first?.kind == .error)
        #expect(output.first?.text.contains("No space left on device") == true)
        #expect(session.prefill?.text == "second, typed while the disk was full")
        session.handle(.line(session.prefill!.text))
        #expect(
            try history.recentMessages(in: ChatID("alice")!, limit: 10).value.map(\.content) == [
                "first", "second, typed while the disk was full",
            ])
        #expect(session.prefill == nil)
    }

    /// A process ID that no process has now: a child's, after it ended and was reaped.
    static func deadProcessID() throws -> pid_t {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    @Test func startRemovesTheTemporaryFilesOfEndedProcessesOnly() throws {
        _ = try PropertyListHistory(directory: data)
        let dead = try Self.deadProcessID()
        // getppid(): the process that started the tests, alive while they run.
        for name in ["\(dead)-456.tmp", "\(getppid())-789.tmp", "not-a-pid.tmp"] {
            try #require(FileManager.default.createFile(atPath: data + "/tmp/" + name, contents: Data("half".utf8)))
        }
        _ = try PropertyListHistory(directory: data)
        #expect(scratch.names(in: "data/tmp") == ["\(getppid())-789.tmp"])
    }
}
