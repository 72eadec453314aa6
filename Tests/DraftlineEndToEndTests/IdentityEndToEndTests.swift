import DraftlineTestSupport
import Foundation
import Testing

/// `--as KEY` names someone the other side can `/open` (SPEC §4, §5): an identity that is
/// not `me` or a contact is refused in one line that names the users there are and how to
/// add one, before anything is written; once added to `contacts.plist`, it talks to the
/// other side. Run through the binary on pipes.
@Suite("An identity the other side can open")
struct IdentityEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func draftline(_ input: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try fixture.runPiped(input, arguments: ["--data-dir", fixture.dataDirectory] + arguments)
    }

    /// Every path under the data directory with its size and modification time.
    func snapshot() -> [String: String] {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: fixture.dataDirectory)
        while let name = walker?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: fixture.dataDirectory + "/" + name)
            files[name] = "\(attributes?[.size] ?? 0) \(attributes?[.modificationDate] ?? 0)"
        }
        return files
    }

    func refusal(_ names: String, _ note: String = "") -> String {
        "draftline: --as 'tweet_5': no such user here; the users are \(names)\(note). To be someone else, add them "
            + "to \(fixture.dataDirectory)/contacts.plist (an array of {global_key, name})\n"
    }

    @Test func anIdentityThatIsNoUserIsRefusedBeforeAnythingIsWritten() throws {
        let trace = fixture.root + "/trace.jsonl"
        let result = try draftline("/open alice\nhello\n", ["--as", "tweet_5", "--trace-file", trace])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error == refusal("alice, bob, carol, dmitri, me, mei"))
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory))
        #expect(!FileManager.default.fileExists(atPath: trace))
    }

    @Test func anIdentityAddedToTheContactsTalksWithTheOtherSide() throws {
        try fixture.writeContacts(["tweet_5"], into: fixture.dataDirectory)
        let sent = try draftline("/open alice\nhello alice\n", ["--as", "tweet_5", "--strict"])
        #expect(sent.status == 0, "\(sent.error)")
        let seen = try draftline(
            "/open tweet_5\n/expect last-message \"hello alice\" from tweet_5\nhello tweet_5\n",
            ["--as", "alice", "--strict"])
        #expect(seen.status == 0, "\(seen.output)\(seen.error)")
        #expect(seen.output.contains("── chat with TWEET_5 (tweet_5) ──"), "\(seen.output)")
        let stored = try fixture.messages(in: "alice+tweet_5")
        #expect(stored.map(\.content) == ["hello alice", "hello tweet_5"])
        #expect(stored.map(\.sender) == ["tweet_5", "alice"])
    }

    @Test func theRefusalNamesTheDirectorysUsersCountsTheRestAndChangesNothing() throws {
        try fixture.writeContacts((0..<20).map { String(format: "u%02d", $0) }, into: fixture.dataDirectory)
        #expect(try draftline("/open u00\nhi\n", []).status == 0)
        let before = snapshot()
        let result = try draftline("/open u00\nhello\n", ["--as", "tweet_5"])
        #expect(result.status == 2)
        #expect(result.error == refusal("alice, bob, carol, dmitri, me, mei, u00, u01, u02, u03, u04, u05 and 14 more"))
        #expect(snapshot() == before)
        #expect(try fixture.messages(in: "u00").map(\.content) == ["hi"])
    }

    /// A `contacts.plist` that cannot be used leaves the demo contacts: the refusal says why.
    @Test func aBrokenContactsFileIsNamedInTheRefusal() throws {
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        try #require(
            FileManager.default.createFile(
                atPath: fixture.dataDirectory + "/contacts.plist", contents: Data("not a plist".utf8)))
        let result = try draftline("/open alice\nhello\n", ["--as", "tweet_5"])
        #expect(result.status == 2)
        #expect(
            result.error
                == refusal(
                    "alice, bob, carol, dmitri, me, mei",
                    " (contacts.plist is not a property list holding an array: only the demo contacts are here)"))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}
