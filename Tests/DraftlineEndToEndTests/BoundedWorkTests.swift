import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Issue 19: work bounded by what is shown, never by what a file claims. Each class an
/// attacker found, through the real binary with a deadline, and one more of each.
@Suite("Bounded work on a hostile data directory")
struct BoundedWorkTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    var data: String { fixture.dataDirectory }

    func run(
        _ script: String, _ arguments: [String] = [], timeout: Double = 20
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        try fixture.runPiped(script, arguments: ["--data-dir", data] + arguments, timeout: timeout)
    }

    func message(_ text: String, sender: String = "alice") -> Message {
        Message(chatID: "alice", messageID: text, content: text, target: "alice", sender: sender)
    }

    // MARK: 1. nesting

    @Test func importingDeeplyNestedXMLIsOneLineAndNoCrash() throws {
        let file = fixture.root + "/deep.xml"
        try Fixture.nestedXML(depth: 10_000).write(to: URL(fileURLWithPath: file))
        let result = try fixture.runPiped("", arguments: ["import", file, "--data-dir", data])
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(result.error.contains("nests deeper than"))
        #expect(!FileManager.default.fileExists(atPath: data), "nothing made")
    }

    /// The same bytes where a segment, the contacts or the line history belong.
    @Test(arguments: ["segment", "contacts", "line-history"])
    func deeplyNestedXMLWhereDataBelongsIsSetAsideOrWarnedOf(_ place: String) throws {
        #expect(try run("/open alice\nhi\n").status == 0)
        let deep = Fixture.nestedXML(depth: 10_000)
        switch place {
        case "segment":
            try deep.write(to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
            let result = try run("/open alice\n/open alice\n/profile alice\n")
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1 && result.error.contains("moved aside"))
        case "contacts":
            try deep.write(to: URL(fileURLWithPath: data + "/contacts.plist"))
            let result = try run("/open alice\n/chats\n")
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.contains("contacts.plist is not a property list"))
        default:
            try deep.write(to: URL(fileURLWithPath: data + "/line-history.plist"))
            let terminal = try fixture.startTerminal()
            try terminal.waitForPrompt("draftline> ")
            try terminal.open("alice")
            #expect(try terminal.quit() == .exited(0))
        }
    }

    // MARK: 2. one grammar of chat names

    /// A private chat named by 70 characters (a user key holds 64) is no chat: the journal
    /// line and the directory that name it are passed over by every running draftline.
    @Test func aChatNameLongerThanAKeyIsPassedOverEverywhere() throws {
        let long = String(repeating: "a", count: 70)
        try fixture.writeSegment([message("hidden")], chat: long, number: 0)
        let piped = try fixture.startPiped()
        try piped.write("/open alice\n")
        try piped.waitFor("(no messages yet)")
        try fixture.append(Data("c\t\(long)\t0\t0\t-\n".utf8), to: "live/journal")
        try fixture.append(Data("c\t\(long)\t99\n".utf8), to: "recent")
        try piped.write("/wait 1 1\n/chats\n/chats all\nstill here\n/quit\n")
        #expect(try piped.waitForExit() == .exited(0), "\(piped.text)")
        #expect(piped.text.contains("you: still here"))
        #expect(!piped.text.contains("hidden"))
    }

    /// The same name in an import: skipped as not a chat ID, the rest imported.
    @Test func anImportedChatNameLongerThanAKeyIsSkipped() throws {
        let long = String(repeating: "b", count: 70)
        let file = fixture.root + "/log.plist"
        let log = [long: [["content": "x"]], "carol": [["content": "hi carol"]]]
        try PropertyListSerialization.data(fromPropertyList: log, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: file))
        let result = try fixture.runPiped("", arguments: ["import", file, "--data-dir", data])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("not chat IDs, skipped: \(long)"))
        #expect(try run("/chats all\n").output.contains("hi carol"))
    }

    // MARK: 3. sparse segment numbers

    /// Segments 0, 1, 2, 4 … 2^26 and no `last` link: opening, the profile's count and the
    /// history follow the files that exist.
    @Test func sparseSegmentNumbersCostTheFilesThatExist() throws {
        var numbers = [0]
        for power in 0...26 { numbers.append(1 << power) }
        for (index, number) in numbers.enumerated() {
            try fixture.writeSegment([message("m\(index)")], chat: "alice", number: number)
        }
        let started = PseudoTerminal.now()
        let result = try run("/open alice\n/profile alice\n/open alice\n/history 1000\n", timeout: 20)
        #expect(result.status == 0, "\(result.error)")
        #expect(PseudoTerminal.now() - started < 10)
        #expect(result.output.contains("messages:   \(numbers.count)"))
        let shown = result.output.split(separator: "\n").filter { $0.hasPrefix("  alice: m") }
        #expect(shown.suffix(numbers.count).map { String($0.dropFirst(9)) } == numbers.indices.map { "m\($0)" })
    }

    /// The variant: an export of such a chat reads each file once, in order.
    @Test func anExportOfSparseSegmentsReadsEachFileOnce() throws {
        for (index, number) in [0, 5, 99_999_999].enumerated() {
            try fixture.writeSegment([message("m\(index)")], chat: "alice", number: number)
        }
        let out = fixture.root + "/out.plist"
        let result = try fixture.runPiped("", arguments: ["export", out, "--data-dir", data], timeout: 20)
        #expect(result.status == 0, "\(result.error)")
        let exported =
            try PropertyListSerialization.propertyList(
                from: Data(contentsOf: URL(fileURLWithPath: out)), format: nil) as? [String: Any]
        let alice = exported?["alice"] as? [[String: Any]]
        #expect(alice?.compactMap { $0["content"] as? String } == ["m0", "m1", "m2"])
    }

    // MARK: 4. the index's unterminated tail

    @Test(arguments: ["zeros", "fragments"])
    func anUnterminatedTailOfTheIndexIsReadInLinearTime(_ tail: String) throws {
        #expect(try run("/open alice\nhi alice\n/open bob\nhi bob\n").status == 0)
        let junk: Data
        if tail == "zeros" {
            junk = Data(count: 8 << 20)
        } else {
            // Something like entries, but never a newline.
            junk = Data(String(repeating: "c\tcarol\t1700000000000\t", count: (8 << 20) / 22).utf8)
        }
        try fixture.append(junk, to: "recent")
        let started = PseudoTerminal.now()
        let result = try run("/chats\n/chats 2\n", timeout: 20)
        #expect(PseudoTerminal.now() - started < 10)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("bob (Bob Okafor) · you: hi bob"))
        #expect(!result.output.contains("carol"))
    }

    // MARK: 6. records that point past a segment's end

    /// A 16 MB segment and 2,000 journal records pointing past its end: each record costs
    /// a look at the file, never another decoding of it.
    @Test func recordsPastASegmentsEndNeverDecodeItAgain() throws {
        try fixture.writeSegment([message(String(repeating: "x", count: 16 << 20))], chat: "alice", number: 0)
        let piped = try fixture.startPiped()
        try piped.write("/open bob\n")
        try piped.waitFor("(no messages yet)")
        let before = piped.cpuSeconds ?? 0
        let records = (0..<2000).map { "c\talice\t0\t\(1 + $0 % 5)\t-\n" }.joined()
        try fixture.append(Data(records.utf8), to: "live/journal")
        try piped.write("/wait 1 2\n")
        try piped.waitFor("waited 2 s: 0 of 1 message arrived", timeout: 30)
        let spent = (piped.cpuSeconds ?? .infinity) - before
        #expect(spent < 3, "\(spent) s of CPU")
        try piped.write("/quit\n")
        #expect(try piped.waitForExit() == .exited(0), "\(piped.text)")
    }

    // MARK: what opening noticed

    /// A directory of the old layout whose thread cannot be moved (threads/ has one of that
    /// name already): one warning at start, said, not lost, and both histories kept.
    @Test func whatOpeningNoticesIsShownOnce() throws {
        try fixture.writeSegment([message("old thread")], chat: "tweet_1", number: 0)
        try fixture.writeSegment([message("new thread")], chat: "tweet_1", number: 0, kind: "threads")
        let result = try run("/chats all\n")
        #expect(result.status == 0)
        #expect(
            result.error.split(separator: "\n") == [
                "warning: chats/tweet_1 was left where it is: threads/tweet_1 exists already"
            ])
        #expect(try fixture.messages(in: "tweet_1").map(\.content) == ["old thread"])
        #expect(try fixture.messages(in: "tweet_1", thread: true).map(\.content) == ["new thread"])
    }
}
