import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// `draftline import` and `draftline export` against the original design's own code:
/// `save()` and `getAllMsg(chatID:)` on a UserDefaults suite (`original-chat-log`).
@Suite("The original design's file, in and out")
struct InteropTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static var originalChatLog: String {
        URL(fileURLWithPath: Fixture.executable).deletingLastPathComponent()
            .appendingPathComponent("original-chat-log").path
    }

    /// Runs the original design's code with its UserDefaults in `config`.
    func original(_ arguments: [String], config: String, input: Data = Data()) throws -> Data {
        let result = try Fixture.run(
            Self.originalChatLog, arguments: arguments, environment: fixture.environment(["XDG_CONFIG_HOME": config]),
            input: input, timeout: 60)
        guard result.status == 0 else {
            throw PseudoTerminal.Failure(
                description: "original-chat-log: \(String(decoding: result.error, as: UTF8.self))")
        }
        return result.output
    }

    func draftline(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try fixture.runPiped("", arguments: arguments + ["--data-dir", fixture.dataDirectory])
    }

    /// The messages the original saves: three chats, text in several scripts, an image, a
    /// location, comments on a tweet. Three of alice's have no `messageID` (positions 1, 4
    /// and 7, between messages that have one), so an import that numbered ID-less messages
    /// among the new ones only would number them differently the second time.
    nonisolated(unsafe) static let saved: [[String: Any]] = {
        var list: [[String: Any]] = []
        func message(_ chat: String, _ number: Int, _ content: String, type: String = "text") -> [String: Any] {
            [
                "chatID": chat, "messageID": "170000000\(number)-\(number)", "content": content, "target": chat,
                "mineHead": "me", "otherHead": chat, "type": type, "filePath": "", "address": "", "latitude": 0.0,
                "longitude": 0.0,
            ]
        }
        for index in 0..<12 {
            var item = message("alice", index, "hi alice \(index) 你好 😀\ttab")
            if Self.withoutID.contains(index) { item["messageID"] = nil }
            list.append(item)
        }
        var image = message("bob", 20, "", type: "image")
        image["filePath"] = "/photos/lake.png"
        list.append(image)
        var place = message("bob", 21, "", type: "location")
        place["latitude"] = 52.520008
        place["longitude"] = 13.404954
        place["address"] = "Alexanderplatz, Berlin"
        list.append(place)
        for index in 0..<6 { list.append(message("tweet_5", 30 + index, "comment \(index)")) }
        return list
    }()

    /// alice's messages saved without a `messageID`.
    static let withoutID: Set<Int> = [1, 4, 7]

    @Test func aFileSavedByTheOriginalComesInAndGoesBackOutWithEveryFieldEqual() throws {
        let config = fixture.root + "/config"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        _ = try original(
            ["save", "chatlog"], config: config, input: JSONSerialization.data(withJSONObject: Self.saved))
        let file = config + "/chatlog.plist"
        #expect(FileManager.default.fileExists(atPath: file))

        let first = try draftline(["import", file])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output == "imported 20 messages into 3 chats from \(file)\n")
        let again = try draftline(["import", file])
        #expect(again.output == "imported 0 messages into 0 chats from \(file) (20 already there)\n")
        let alice = try fixture.messages(in: "alice")
        #expect(alice.map(\.content) == (0..<12).map { "hi alice \($0) 你好 😀\ttab" })
        #expect(Set(alice.map(\.messageID)).count == 12)
        #expect(alice.indices.filter { alice[$0].messageID.hasPrefix("imported-\($0)-") } == Self.withoutID.sorted())
        #expect(try fixture.messages(in: "tweet_5", thread: true).count == 6)
        // Every field as stored, read by plistlib key by key (not through Message, whose
        // field table draftline's own writer and readers share).
        for chat in ["alice", "bob", "tweet_5"] {
            let stored = try fixture.storedDictionaries(in: chat, thread: chat == "tweet_5")
            let expected = Self.saved.filter { $0["chatID"] as? String == chat }
            #expect(stored.count == expected.count)
            for (got, want) in zip(stored, expected) {
                Self.expectEveryField(got, want, chat)
                #expect(got["sentAt"] as? Double == 0)
            }
        }
        // draftline shows them: the original's messages were all the user's own.
        let shown = try fixture.runPiped("/open bob\n")
        #expect(shown.output.contains("  you: [location 52.520008, 13.404954 Alexanderplatz, Berlin]"))

        let exported = fixture.root + "/out/export.plist"
        try FileManager.default.createDirectory(atPath: fixture.root + "/out", withIntermediateDirectories: true)
        let export = try draftline(["export", exported])
        #expect(export.status == 0, "\(export.error)")
        #expect(export.output == "exported 20 messages in 3 chats to \(exported)\n")
        var info = stat()
        #expect(stat(exported, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root + "/out") == ["export.plist"])

        // The original reads the export as its own domain: each dictionary as the domain
        // holds it (not through its model, which always has the eleven keys) is the one it
        // saved, every key and value, plus draftline's `sender` and `sentAt` (and the ID
        // the import gave a message that had none).
        let back = fixture.root + "/back"
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: exported, toPath: back + "/returned.plist")
        for chat in ["alice", "bob", "tweet_5"] {
            let read = try original(["raw", "returned", chat], config: back)
            let messages = try #require(JSONSerialization.jsonObject(with: read) as? [[String: Any]])
            let expected = Self.saved.filter { $0["chatID"] as? String == chat }
            #expect(messages.count == expected.count)
            for (got, want) in zip(messages, expected) {
                Self.expectEveryField(got, want, chat)
                #expect((got["sentAt"] as? [String: Double])?["date"] == 0)
            }
        }
        // And plistlib reads every field of the export as saved, key by key.
        let readBack = try fixture.propertyList(at: exported)
        for chat in ["alice", "bob", "tweet_5"] {
            let messages = readBack[chat] as? [[String: Any]] ?? []
            let expected = Self.saved.filter { $0["chatID"] as? String == chat }
            #expect(messages.count == expected.count)
            for (got, want) in zip(messages, expected) {
                Self.expectEveryField(got, want, chat)
                #expect(got["sentAt"] as? String == "1970-01-01 00:00:00")
            }
        }
        // And so does Python's plistlib.
        let python = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); k=d.pop('draftline:kinds'); "
                    + "print(sorted(d), sum(map(len, d.values())), sorted(k.items()))",
                exported,
            ], environment: fixture.environment(), timeout: 60)
        #expect(
            String(decoding: python.output, as: UTF8.self)
                == "['alice', 'bob', 'tweet_5'] 20 [('alice', 'chat'), ('bob', 'chat'), ('tweet_5', 'thread')]\n")
    }

    /// Expects a message dictionary to hold every key and value `want` holds (numbers as
    /// numbers, the others as strings), and draftline's `sender` (`me`) and `sentAt` beside
    /// them (and the `messageID` an import gives a message that has none).
    static func expectEveryField(_ got: [String: Any], _ want: [String: Any], _ chat: String) {
        let added = want["messageID"] == nil ? ["messageID", "sender", "sentAt"] : ["sender", "sentAt"]
        #expect(Set(got.keys) == Set(want.keys).union(added), "\(chat): \(got.keys.sorted())")
        for key in want.keys {
            if let number = want[key] as? Double {
                #expect((got[key] as? NSNumber)?.doubleValue == number, "\(chat) \(key)")
            } else {
                #expect(got[key] as? String == want[key] as? String, "\(chat) \(key)")
            }
        }
        #expect(got["sender"] as? String == "me")
    }

    @Test func aPreferencesFilesOtherKeysAreSkippedAndMissingFieldsTakeTheOriginalsDefaults() throws {
        let file = fixture.root + "/prefs.plist"
        let script = """
            import plistlib, sys
            plistlib.dump({"NSWindow Frame main": "0 0 800 600", "launches": 12, "recent": [1, 2],
                           "carol": [{"content": "no id, no type", "latitude": 3},
                                     {"messageID": "m-2", "content": 42, "longitude": "east"}]},
                          open(sys.argv[1], "wb"), fmt=plistlib.FMT_XML)
            """
        _ = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, file], environment: fixture.environment(), timeout: 60)
        let result = try draftline(["import", file])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output
                == "imported 2 messages into 1 chat from \(file) (3 keys that hold no messages skipped)\n")
        let stored = try fixture.messages(in: "carol")
        #expect(stored.map(\.content) == ["no id, no type", ""])
        #expect(stored[0].latitude == 3 && stored[0].type == "" && stored[0].messageID.hasPrefix("imported-0-"))
        #expect(stored[1].messageID == "m-2" && stored[1].longitude == 0)
        // The derived ID is stable: importing again adds nothing.
        #expect(
            try draftline(["import", file]).output.contains("(2 already there; 3 keys that hold no messages skipped)"))
        #expect(try fixture.messages(in: "carol").count == 2)
    }

    @Test(arguments: [
        ("not a plist", "not a property list (XML or binary): nothing was imported"),
        ("<?xml version=\"1.0\"?><plist><array><string>x</string></array></plist>", "is not a dictionary"),
        ("<?xml version=\"1.0\"?><plist><dict><key>a</key><integer>1</integer></dict></plist>", "none of its 1 key"),
    ])
    func aFileThatHoldsNoChatsIsOneLineAndChangesNothing(_ contents: String, _ message: String) throws {
        let file = fixture.root + "/bad.plist"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(contents.utf8)))
        let result = try draftline(["import", file])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("draftline import: ") && result.error.contains(message), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory), "no data directory was made")
        let missing = try draftline(["import", fixture.root + "/nowhere.plist"])
        #expect(missing.status == 2 && missing.error.contains("no such file"))
    }

    /// A chat brought in by an import opens, though its user is in no contacts list: every
    /// chat `/chats` lists can be opened, its profile shown, and sent to. A user with no
    /// history and no contact is still unknown.
    @Test func anImportedChatOfAUserWhoIsNoContactOpens() throws {
        let file = fixture.root + "/quinn.plist"
        let script = """
            import plistlib, sys
            plistlib.dump({"quinn": [{"messageID": "q-%d" % i, "content": "to quinn %d" % i, "mineHead": "me"}
                                     for i in range(3)]}, open(sys.argv[1], "wb"))
            """
        _ = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, file], environment: fixture.environment(), timeout: 60)
        #expect(try draftline(["import", file]).status == 0)
        let result = try fixture.runPiped("/open quinn\nnew one\n/profile quinn\n/open zed\n/quit\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("you: to quinn 2") && result.output.contains("you: new one"), "\(result.output)")
        #expect(result.output.contains("messages:   4"), "\(result.output)")
        #expect(result.error.contains("no user 'zed'"), "\(result.error)")
        #expect(
            try fixture.messages(in: "quinn").map(\.content) == ["to quinn 0", "to quinn 1", "to quinn 2", "new one"])
    }

    @Test func exportWithChatWritesOneChatAndAnUnknownOneIsAnError() throws {
        _ = try fixture.runPiped("/open alice\nfor alice\n/open bob\nfor bob\n")
        let file = fixture.root + "/bob.plist"
        let result = try draftline(["export", file, "--chat", "bob"])
        #expect(result.output == "exported 1 message in 1 chat to \(file)\n")
        let unknown = try draftline(["export", fixture.root + "/x.plist", "--chat", "zed"])
        #expect(unknown.status == 2 && unknown.error.contains("no chat 'zed'"))
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/x.plist"))
        #expect(try draftline(["import"]).status == 2)
        #expect(try draftline(["--chat", "bob"]).status == 2)
    }
}
