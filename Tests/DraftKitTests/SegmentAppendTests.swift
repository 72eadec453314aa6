import DraftlineTestSupport
import Foundation
import Testing

@testable import DraftKit

/// A send extends the last segment in place: segments of the earlier form keep working,
/// any reader opens what the appends leave, and a torn append loses no message before it.
@Suite("Segments extended in place")
struct SegmentAppendTests {
    let alice = ChatID("alice")!

    func message(_ text: String, at seconds: Double = 1_764_500_000.123_456) -> Message {
        Message(
            chatID: "alice", messageID: text, content: text, target: "alice", latitude: 1.5,
            sentAt: Date(timeIntervalSince1970: seconds), sender: "me")
    }

    func segmentPath(_ fixture: Fixture, _ number: Int = 0) -> String {
        fixture.dataDirectory + "/chats/alice/" + String(format: "%08d.plist", number)
    }

    /// The upgrade path: a segment as the previous version wrote it (Foundation's encoder)
    /// takes new messages, both when its narrow references have room (extended) and when
    /// they do not (written anew); Python's plistlib reads every message back, in order.
    @Test(arguments: [3, 12])
    func aSegmentOfTheEarlierFormTakesNewMessages(earlier: Int) throws {
        let fixture = try Fixture()
        let old = (0..<earlier).map { message("old\($0) ü") }
        try fixture.writeSegment(old, chat: "alice", number: 0)
        let history = try PropertyListHistory(directory: fixture.dataDirectory, segmentCapacity: 64)
        for index in 0..<5 { try history.append(message("new\(index)"), to: alice) }
        let expected = old.map(\.content) + (0..<5).map { "new\($0)" }
        #expect(try history.allMessages(in: alice).value == old + (0..<5).map { message("new\($0)") })
        #expect(try fixture.messages(in: "alice").map(\.content) == expected)
        #expect(try PropertyListHistory(directory: fixture.dataDirectory).messageCount(in: alice).value == earlier + 5)
    }

    /// A segment of more objects than 2-byte references reach (thousands of messages, as a
    /// large capacity allows) is written with wider ones: Foundation reads every message.
    @Test func aSegmentTooBigForNarrowReferencesIsWrittenWide() throws {
        let messages = (0..<6_000).map { message("m\($0)") }
        let bytes = SegmentEncoder.segment(messages[...])
        let read = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [[String: Any]]
        #expect(read?.count == 6_000)
        #expect(read?.last?["content"] as? String == "m5999")
    }

    /// Every field survives an append exactly (the send time to the microsecond, CJK and
    /// emoji, a NUL, an empty string), read by Foundation and by plistlib.
    @Test func everyFieldSurvivesAnAppend() throws {
        let fixture = try Fixture()
        let history = try PropertyListHistory(directory: fixture.dataDirectory)
        var odd = message("李美 👩‍👩‍👧 \u{0}tab\tend", at: -1.25)
        odd.address = String(repeating: "x", count: 300)
        odd.longitude = -0.0
        odd.type = ""
        try history.append(message("first"), to: alice)
        try history.append(odd, to: alice)
        #expect(try PropertyListHistory(directory: fixture.dataDirectory).allMessages(in: alice).value.last == odd)
        let read = try #require(try fixture.messages(in: "alice").last)
        #expect(read.content == odd.content && read.address == odd.address)
        #expect(abs(read.sentAt.timeIntervalSince1970 - -1.25) < 1e-6)
    }

    /// An append cut off at every byte boundary (a kill during the write, a power cut
    /// before its sync), and one whose new bytes are zeros (a power cut after the file grew,
    /// before its data was written), loses none of the messages acknowledged before it: the
    /// next read moves the file as found aside and puts back what was whole, readable by
    /// plistlib, and the next send works. Until then plistlib refuses the torn file, never
    /// reads other messages from it (what Storage.md says an outside reader sees).
    @Test func anAppendCutAtEveryByteLosesNoAcknowledgedMessage() throws {
        let fixture = try Fixture()
        let history = try PropertyListHistory(directory: fixture.dataDirectory)
        let acknowledged = (0..<3).map { message("m\($0)") }
        for item in acknowledged { try history.append(item, to: alice) }
        let before = try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture)))
        try history.append(message("torn"), to: alice)
        let after = try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture)))
        #expect(after.prefix(before.count) == before)
        let added = after.count - before.count
        var torn = (1..<added).map { after.prefix(before.count + $0) }
        torn += [1, added / 2, added].map { before + Data(count: $0) }
        // What an outside reader sees of each, before draftline reads it again.
        let scratch = fixture.root + "/torn"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        for (number, bytes) in torn.enumerated() {
            try bytes.write(to: URL(fileURLWithPath: scratch + "/\(number).plist"))
        }
        #expect(try Self.plistlibReadings(of: torn.count, in: scratch, fixture: fixture).allSatisfy { $0 == nil })
        for (number, bytes) in torn.enumerated() {
            try bytes.write(to: URL(fileURLWithPath: segmentPath(fixture)))
            let reopened = try PropertyListHistory(directory: fixture.dataDirectory)
            let read = try reopened.allMessages(in: alice)
            #expect(read.value == acknowledged, "torn file \(number)")
            #expect(read.warnings.count == 1, "torn file \(number): \(read.warnings)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture))) == before, "torn file \(number)")
            try reopened.append(message("next"), to: alice)
            #expect(try reopened.allMessages(in: alice).value.map(\.content) == ["m0", "m1", "m2", "next"])
            for name in try FileManager.default.contentsOfDirectory(atPath: fixture.dataDirectory + "/chats/alice")
            where name.contains(".corrupt-") || name == "count" {
                try FileManager.default.removeItem(atPath: fixture.dataDirectory + "/chats/alice/" + name)
            }
        }
        // The last one repaired and sent to, as plistlib reads it.
        #expect(try fixture.messages(in: "alice").map(\.content) == ["m0", "m1", "m2", "next"])
    }

    /// What plistlib reads of each file `0.plist` ... in a directory: the message texts, or
    /// `nil` when it refuses the file. One Python process for them all.
    static func plistlibReadings(of count: Int, in directory: String, fixture: Fixture) throws -> [[String]?] {
        let script = """
            import json, plistlib, sys
            out = []
            for number in range(int(sys.argv[2])):
                try:
                    with open("%s/%d.plist" % (sys.argv[1], number), "rb") as f:
                        out.append([m.get("content", "") for m in plistlib.load(f)])
                except Exception:
                    out.append(None)
            json.dump(out, sys.stdout)
            """
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, directory, String(count)],
            environment: fixture.environment(), timeout: 60)
        let list = try JSONSerialization.jsonObject(with: result.output) as? [Any] ?? []
        return list.map { $0 as? [String] }
    }

    /// A segment hard-linked from outside the data directory is never written through: the
    /// send writes the segment anew (a file of its own), and the outside name keeps its bytes.
    @Test func aHardLinkedSegmentIsNotWrittenThrough() throws {
        let fixture = try Fixture()
        let history = try PropertyListHistory(directory: fixture.dataDirectory)
        try history.append(message("a"), to: alice)
        let outside = fixture.root + "/outside.plist"
        try #require(link(segmentPath(fixture), outside) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: outside))
        try history.append(message("b"), to: alice)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == before)
        #expect(try fixture.messages(in: "alice").map(\.content) == ["a", "b"])
    }

    /// Repairing a torn segment decodes at most a few candidate ends, however many places
    /// a crafted file makes look like a trailer: here a real segment followed by 64 fake
    /// trailers is not repaired past them (what is not repaired stays in the file moved
    /// aside), while one within reach is.
    @Test func repairTriesABoundedNumberOfEnds() throws {
        let fixture = try Fixture()
        let history = try PropertyListHistory(directory: fixture.dataDirectory)
        try history.append(message("a"), to: alice)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture))))
        // A block whose last 32 bytes pass the quick trailer test at the offset it lands on.
        func fakeTrailers(_ count: Int, after start: Int) -> [UInt8] {
            (0..<count).flatMap { index -> [UInt8] in
                let end = start + (index + 1) * 32
                let table = end - 32 - 1
                return [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
                    + (0..<8).map { UInt8(truncatingIfNeeded: table >> (8 * (7 - $0))) }
            }
        }
        #expect(SegmentLayout.recovered(from: whole + fakeTrailers(3, after: whole.count) + [9])?.bytes == whole)
        #expect(SegmentLayout.recovered(from: whole + fakeTrailers(64, after: whole.count) + [9]) == nil)
    }

    /// A send adds bytes at the end and rewrites none: the file keeps its inode, and its old
    /// bytes are a prefix of the new ones.
    @Test func aSendOnlyAddsBytes() throws {
        let fixture = try Fixture()
        let history = try PropertyListHistory(directory: fixture.dataDirectory)
        try history.append(message("a"), to: alice)
        let inode = try FileManager.default.attributesOfItem(atPath: segmentPath(fixture))[.systemFileNumber] as? Int
        let before = try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture)))
        history.timings.reset()
        try history.append(message("b"), to: alice)
        let after = try Data(contentsOf: URL(fileURLWithPath: segmentPath(fixture)))
        #expect(after.starts(with: before) && after.count > before.count)
        #expect(
            try FileManager.default.attributesOfItem(atPath: segmentPath(fixture))[.systemFileNumber] as? Int == inode)
        #expect(history.timings.rename == 0)
    }
}
