import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// An export and an import give back exactly what was there (SPEC §4): the chat's kind,
/// the sender, every field; and an export to any spelling of a path reports what it did.
/// Each test runs the built binary, one process per step.
@Suite("Export and import give back what was there")
struct RoundTripTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Runs draftline in `directory` (its working directory) with these arguments, on a
    /// pipe, with the clock pinned.
    func draftline(
        _ arguments: [String], input: String = "", in directory: String? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let command = ["cd \"$1\" && shift && exec \"$@\"", "sh", directory ?? fixture.root, Fixture.executable]
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c"] + command + arguments,
            environment: fixture.environment(["SOURCE_DATE_EPOCH": "1700000000"]), input: Data(input.utf8),
            timeout: 60)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    /// Writes `contacts.plist` into a data directory, with Python's `plistlib`.
    func writeContacts(_ keys: [String], into data: String) throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let script = """
            import plistlib, sys
            plistlib.dump([{"global_key": k, "name": k.upper()} for k in sys.argv[2:]], open(sys.argv[1], "wb"))
            """
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, data + "/contacts.plist"] + keys,
            environment: fixture.environment(), timeout: 60)
        #expect(result.status == 0)
    }

    /// The top-level keys and values of a property list, read by Python's `plistlib`.
    func plist(_ path: String) throws -> [String: Any] {
        let script = """
            import json, plistlib, sys
            json.dump(plistlib.load(open(sys.argv[1], "rb")), sys.stdout, default=str)
            """
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, path], environment: fixture.environment(), timeout: 60)
        return try #require(JSONSerialization.jsonObject(with: result.output) as? [String: Any])
    }

    /// 20.3: a bare name, `./name`, a name through a relative link to a directory and
    /// `../name` are each written and reported as written (status 0, one line).
    @Test(arguments: ["out.plist", "./out.plist", "linked/out.plist", "../up.plist"])
    func anExportToARelativePathIsReportedAsWritten(_ path: String) throws {
        let data = fixture.root + "/data"
        _ = try draftline(["--data-dir", data], input: "/open alice\nhello\n")
        let work = fixture.root + "/work"
        try FileManager.default.createDirectory(atPath: work + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work + "/linked", withDestinationPath: "real")
        let result = try draftline(["export", path, "--data-dir", data], in: work)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "exported 1 message in 1 chat to \(path)\n")
        #expect(result.error.isEmpty)
        let written = URL(fileURLWithPath: work + "/" + path).standardizedFileURL.path
        #expect(try plist(written)["alice"] != nil)
    }

    /// 20.4: a private chat with a user named like a thread (`tweet_1`) comes back as that
    /// private chat, not as a thread; a file without the recorded kinds is decided by the
    /// contacts, as the layout upgrade decides.
    @Test func aPrivateChatWithAUserNamedLikeAThreadComesBackAsThatChat() throws {
        let (first, second) = (fixture.root + "/first", fixture.root + "/second")
        try writeContacts(["tweet_1"], into: first)
        _ = try draftline(["--data-dir", first], input: "/open tweet_1\nfor the user\n")
        let file = fixture.root + "/out.plist"
        #expect(try draftline(["export", file, "--data-dir", first]).status == 0)
        #expect(try plist(file)["draftline:kinds"] as? [String: String] == ["tweet_1": "chat"])

        let imported = try draftline(["import", file, "--data-dir", second])
        #expect(imported.output == "imported 1 message into 1 chat from \(file)\n", "\(imported.error)")
        #expect(FileManager.default.fileExists(atPath: second + "/chats/tweet_1"))
        #expect(!FileManager.default.fileExists(atPath: second + "/threads/tweet_1"))
        // The kinds decided it: this directory has no such contact (until now, to open it).
        try writeContacts(["tweet_1"], into: second)
        let shown = try draftline(["--data-dir", second], input: "/open tweet_1\n")
        #expect(shown.output.contains("  you: for the user"), "\(shown.output)")

        // Without the kinds (a file the original wrote): the contacts decide.
        let bare = fixture.root + "/bare.plist"
        let script = """
            import plistlib, sys
            m = lambda c, t: {"chatID": c, "messageID": "m-" + c, "content": t, "mineHead": "me", "type": "text"}
            plistlib.dump({"tweet_1": [m("tweet_1", "user")], "tweet_2": [m("tweet_2", "thread")]}, open(sys.argv[1], "wb"))
            """
        _ = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, bare], environment: fixture.environment(), timeout: 60)
        let third = fixture.root + "/third"
        try writeContacts(["tweet_1"], into: third)
        #expect(try draftline(["import", bare, "--data-dir", third]).status == 0)
        #expect(FileManager.default.fileExists(atPath: third + "/chats/tweet_1"))
        #expect(FileManager.default.fileExists(atPath: third + "/threads/tweet_2"))
    }

    /// 20.5: the sender survives an import and a second export; a message whose `mineHead`
    /// is alice is shown as alice's, and as `you:` only to alice.
    @Test func theSenderSurvivesImportAndExportAndIsShownByName() throws {
        let file = fixture.root + "/in.plist"
        let script = """
            import plistlib, sys
            m = lambda i, head, **extra: dict({"chatID": "alice", "messageID": "m-%d" % i, "content": "text %d" % i,
                                               "target": "alice", "mineHead": head, "otherHead": "me", "type": "text"}, **extra)
            plistlib.dump({"alice": [m(1, "alice"), m(2, "me"), m(3, "https://a.example/avatar.png"),
                                     m(4, "me", sender="bob")]}, open(sys.argv[1], "wb"))
            """
        _ = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, file], environment: fixture.environment(), timeout: 60)
        let data = fixture.root + "/data"
        #expect(try draftline(["import", file, "--data-dir", data]).status == 0)
        #expect(try fixture.messages(in: "alice").map(\.sender) == ["alice", "me", "me", "bob"])

        let shown = try draftline(["--data-dir", data], input: "/open alice\n").output
        #expect(shown.contains("  alice: text 1\n  you: text 2\n  you: text 3\n  bob: text 4\n"), "\(shown)")
        let asAlice = try draftline(["--data-dir", data, "--as", "alice"], input: "/open me\n").output
        #expect(asAlice.contains("  you: text 1\n  me: text 2\n"), "\(asAlice)")

        let again = fixture.root + "/again.plist"
        #expect(try draftline(["export", again, "--data-dir", data]).status == 0)
        let messages = try #require(try plist(again)["alice"] as? [[String: Any]])
        #expect(messages.map { $0["sender"] as? String } == ["alice", "me", "me", "bob"])
        #expect(messages.map { $0["mineHead"] as? String } == ["alice", "me", "https://a.example/avatar.png", "me"])
    }
}
