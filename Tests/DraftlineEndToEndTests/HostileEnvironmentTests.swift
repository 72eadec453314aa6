import DraftKit
import DraftKitFuzzing
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// A data directory and an environment that are hostile, with the real binary: each class
/// an attacker or an unlucky user found, and one more per class. Every run has a deadline,
/// so a hang fails the test.
@Suite("A hostile data directory or environment")
struct HostileEnvironmentTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    var data: String { fixture.dataDirectory }

    /// A data directory with alice, bob and carol each holding one message.
    func threeChats() throws {
        let result = try fixture.runPiped("/open alice\nhi alice\n/open bob\nhi bob\n/open carol\nhi carol\n")
        #expect(result.status == 0)
    }

    func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    func run(_ script: String, arguments: [String]? = nil) throws -> (status: Int32, output: String, error: String) {
        try fixture.runPiped(script, arguments: arguments, timeout: 20)
    }

    static func controlBytes(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && FuzzProperties.isTerminalControl($0) }
    }

    // MARK: blocking opens

    @Test func aFIFOWhereASegmentBelongsNeverBlocks() throws {
        try threeChats()
        let segment = data + "/chats/carol/00000000.plist"
        try FileManager.default.removeItem(atPath: segment)
        #expect(mkfifo(segment, 0o600) == 0)
        let result = try run("/open carol\n/chats\n/profile carol\n/open alice\n")
        #expect(result.status == 0)
        #expect(result.error.split(separator: "\n").count == 1, "one warning: \(result.error)")
        #expect(result.error.contains("moved aside"))
        #expect(result.output.contains("hi alice"))
    }

    /// The journal and the chat list's index are caches: a FIFO, a directory or a link in
    /// their place never blocks, is never written through, and costs only what they serve;
    /// each is said once, not silently dropped.
    @Test(arguments: ["fifo", "directory", "link"])
    func somethingElseWhereTheJournalAndTheIndexBelongIsPassedOver(_ kind: String) throws {
        try threeChats()
        let outside = fixture.root + "/outside"
        #expect(FileManager.default.createFile(atPath: outside, contents: Data()))
        for path in [data + "/live/journal", data + "/recent"] {
            try FileManager.default.removeItem(atPath: path)
            switch kind {
            case "fifo": #expect(mkfifo(path, 0o600) == 0)
            case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
            }
        }
        let result = try run("/open bob\nstill sent\nand again\n/chats\n")
        #expect(result.status == 0, "\(result.error)")
        let warnings = result.error.split(separator: "\n")
        #expect(warnings.count == 2, "\(result.error)")
        #expect(warnings.first?.hasPrefix("warning: live delivery stopped: ") == true, "\(result.error)")
        #expect(warnings.last?.hasPrefix("warning: the chat list's index cannot be updated: ") == true)
        #expect(result.output.contains("  bob (Bob Okafor) · you: and again"))
        #expect(result.output.contains("  carol (Carol Müller) · you: hi carol"))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["hi bob", "still sent", "and again"])
        #expect(try String(contentsOfFile: outside, encoding: .utf8).isEmpty)
    }

    @Test func aFIFOWhereContactsBelongGetsOneWarning() throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        #expect(mkfifo(data + "/contacts.plist", 0o600) == 0)
        let result = try run("/open alice\nhello\n")
        #expect(result.status == 0)
        #expect(result.error.contains("contacts.plist cannot be read"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hello"])
    }

    // MARK: unbounded reads

    @Test func aSegmentLinkedToDevZeroIsMovedAsideNotRead() throws {
        try threeChats()
        let segment = data + "/chats/bob/00000000.plist"
        try FileManager.default.removeItem(atPath: segment)
        try FileManager.default.createSymbolicLink(atPath: segment, withDestinationPath: "/dev/zero")
        let result = try run("/open bob\nagain\n")
        #expect(result.status == 0)
        #expect(result.error.contains("moved aside"))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["again"])
    }

    @Test func aHugeSparseSegmentIsRefusedBySize() throws {
        try threeChats()
        let segment = data + "/chats/bob/00000000.plist"
        #expect(truncate(segment, 200 * 1024 * 1024) == 0)  // sparse: no disk used
        let result = try run("/open bob\n")
        #expect(result.status == 0)
        #expect(result.error.contains("moved aside"))
    }

    // MARK: arithmetic on names

    @Test(arguments: ["9223372036854775807.plist", "99999999999.plist", "-1.plist"])
    func aSegmentNumberOutOfRangeIsIgnored(_ name: String) throws {
        try threeChats()
        let chat = data + "/chats/bob"
        try #require(FileManager.default.createFile(atPath: chat + "/" + name, contents: Data("x".utf8)))
        try FileManager.default.removeItem(atPath: chat + "/last")
        try FileManager.default.createSymbolicLink(atPath: chat + "/last", withDestinationPath: name)
        let result = try run("/open bob\nsecond\n/profile bob\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("messages:   2"))
        #expect(FileManager.default.fileExists(atPath: chat + "/" + name), "left where it was")
        try FileManager.default.removeItem(atPath: chat + "/" + name)  // the strict reader takes segments only
        #expect(try fixture.messages(in: "bob").map(\.content) == ["hi bob", "second"])
    }

    // MARK: closed standard descriptors

    @Test(arguments: ["1", "0", "2"])
    func aClosedStandardDescriptorIsNeverALockFile(_ descriptor: String) throws {
        try threeChats()
        let before = FileManager.default.contents(atPath: data + "/lock")
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "exec \"$0\" --data-dir \"$1\" \(descriptor)>&-", Fixture.executable, data],
            environment: fixture.environment(),
            input: Data("/open alice\nsent with \(descriptor) closed\n/nope\n".utf8),
            timeout: 20)
        #expect(result.status == 0)
        #expect(FileManager.default.contents(atPath: data + "/lock") == before, "the lock file changed")
        let sent = try fixture.messages(in: "alice").map(\.content)
        #expect(sent == (descriptor == "0" ? ["hi alice"] : ["hi alice", "sent with \(descriptor) closed"]))
    }

    // MARK: one bad chat, one bad field

    @Test func aDirectoryWhereASegmentBelongsHidesNoOtherChat() throws {
        try threeChats()
        let segment = data + "/chats/bob/00000000.plist"
        try FileManager.default.removeItem(atPath: segment)
        try FileManager.default.createDirectory(atPath: segment, withIntermediateDirectories: false)
        let result = try run("/chats\n")
        #expect(result.status == 0)
        for user in ["alice", "carol"] { #expect(result.output.contains("you: hi \(user)")) }
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }

    @Test func aChatDirectoryThatIsALinkIsNotFollowed() throws {
        try threeChats()
        let elsewhere = fixture.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: data + "/chats/bob")
        try FileManager.default.createSymbolicLink(atPath: data + "/chats/bob", withDestinationPath: elsewhere)
        let result = try run("/chats\n/open bob\nhello\n")
        #expect(result.output.contains("you: hi alice") && result.output.contains("you: hi carol"))
        #expect(result.error.contains("cannot read the history of bob"), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [], "written through a link")
    }

    /// A segment written by another writer, with fields of the wrong type.
    func foreignSegment(_ messages: [[String: Any]]) throws {
        try threeChats()
        let plist = try PropertyListSerialization.data(fromPropertyList: messages, format: .xml, options: 0)
        try plist.write(to: URL(fileURLWithPath: data + "/chats/carol/00000000.plist"))
    }

    @Test func aMistypedFieldGetsItsDefaultAndKeepsItsMessage() throws {
        try foreignSegment([
            ["content": "first", "type": "text"], ["content": "second", "type": "location", "latitude": "40.5"],
        ])
        let result = try run("/open carol\n")
        #expect(result.error == "")
        #expect(result.output.contains("you: first"))
        #expect(result.output.contains("you: [location 0.0, 0.0]"))
    }

    @Test func aContentThatIsANumberShowsEmptyAndTheRestStays() throws {
        try foreignSegment([["content": 42, "type": "text"], ["content": "after", "type": "text"]])
        let result = try run("/open carol\n")
        #expect(result.error == "")
        #expect(result.output.contains("  you: \n  you: after"))
    }

    // MARK: changing what it does not own

    @Test func aFileGivenAsTheDataDirectoryIsRefusedAndKeepsItsMode() throws {
        let notes = fixture.root + "/notes.txt"
        try #require(
            FileManager.default.createFile(
                atPath: notes, contents: Data("mine".utf8), attributes: [.posixPermissions: 0o644]))
        let result = try run("", arguments: ["--data-dir", notes])
        #expect(result.status == 2)
        #expect(result.error.contains("not a directory"))
        #expect(mode(notes) == 0o644)
    }

    @Test(arguments: [0o1777, 0o770, 0o707] as [Int])
    func aSharedDirectoryIsRefusedAndLeftAsItIs(_ permissions: Int) throws {
        let shared = fixture.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        #expect(chmod(shared, mode_t(permissions)) == 0)
        let result = try run("/open alice\nhi\n", arguments: ["--data-dir", shared])
        #expect(result.status == 2)
        #expect(result.error.contains("shared"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(mode(shared) == permissions)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared) == [])
    }

    @Test func aLockThatIsALinkIsRefusedAndItsTargetUntouched() throws {
        try threeChats()
        let outside = fixture.root + "/outside.txt"
        try #require(
            FileManager.default.createFile(
                atPath: outside, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644]))
        try FileManager.default.removeItem(atPath: data + "/lock")
        try FileManager.default.createSymbolicLink(atPath: data + "/lock", withDestinationPath: outside)
        let result = try run("/open alice\n")
        #expect(result.status == 2)
        #expect(result.error.contains("symbolic link"))
        #expect(mode(outside) == 0o644)
    }

    @Test func aDanglingLockLinkCreatesNothing() throws {
        try threeChats()
        let target = fixture.root + "/created-through-link"
        try FileManager.default.removeItem(atPath: data + "/lock")
        try FileManager.default.createSymbolicLink(atPath: data + "/lock", withDestinationPath: target)
        let result = try run("/open alice\n")
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    // MARK: control bytes from the command line, the environment and file names

    @Test func controlBytesInArgumentsAndEnvironmentAreShownHarmlessly() throws {
        let option = try run("", arguments: ["--\u{1B}]0;TITLE\u{07}"])
        #expect(option.status == 2)
        #expect(option.error.contains("^[]0;TITLE^G"))
        #expect(option.error == "draftline: unknown option '--^[]0;TITLE^G'\n(draftline --help shows the usage)\n")
        #expect(Self.controlBytes(option.error).isEmpty)
        let path = try run("", arguments: ["--data-dir", "/etc/passwd/\u{1B}[2Jx"])
        #expect(path.status == 2)
        #expect(path.error.contains("^[[2J"), "\(path.error)")
        #expect(Self.controlBytes(path.error).isEmpty)
        let environment = try Fixture.run(
            Fixture.executable, arguments: [],
            environment: fixture.environment(["HOME": "/etc/passwd/\u{1B}]52;c;eA==\u{07}", "XDG_DATA_HOME": ""]),
            timeout: 20)
        #expect(environment.status == 2)
        let shown = String(decoding: environment.error, as: UTF8.self)
        #expect(shown.contains("^[]52;c;eA==^G"), "\(shown)")
        #expect(Self.controlBytes(shown).isEmpty)
    }

    @Test func aCraftedNameInTheChatsDirectoryIsIgnored() throws {
        try threeChats()
        try FileManager.default.createDirectory(
            atPath: data + "/chats/\u{1B}[2Jevil", withIntermediateDirectories: false)
        let result = try run("/chats\n")
        #expect(result.status == 0)
        #expect(Self.controlBytes(result.output + result.error).isEmpty)
        #expect(!result.output.contains("evil"))
    }

    // MARK: smaller things

    @Test func sizesInRefusalsAreExact() throws {
        let result = try run("/open alice\n" + String(repeating: "x", count: 65_537) + "\n")
        #expect(result.error.contains("it is 65537 bytes and the limit is 64 KiB"), "\(result.error)")
    }

    @Test func aMalformedContactsFileGetsOneWarning() throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try #require(
            FileManager.default.createFile(atPath: data + "/contacts.plist", contents: Data("not a plist".utf8)))
        let result = try run("/open alice\n")
        #expect(result.error.contains("contacts.plist is not a property list"), "\(result.error)")
    }

    @Test(arguments: ["0x10 0x20", "1e400 0", "nan 0"])
    func aCoordinateThatIsNotADecimalNumberIsRefused(_ arguments: String) throws {
        let result = try run("/open alice\n/location \(arguments)\n")
        #expect(result.error.contains("is not a latitude") || result.error.contains("is not a longitude"))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}
