import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// The real binary with standard input a pipe.
@Suite("draftline on a pipe")
struct PipeModeTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func scriptedDraftFlowSendsTheFinishedText() throws {
        let script = "/open alice\nBob's ID is \u{18}p\n/profile bob\n/back\n/back\nbob\n"
        let result = try fixture.runPiped(script)
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["Bob's ID is bob"])
        #expect(result.output.contains("draft:      waiting (privateMessage_alice)"))
        #expect(!result.output.contains("\u{1b}"), "pipe mode writes no escape sequences")
        #expect(!result.output.contains("> "), "pipe mode writes no prompt")
    }

    @Test func commandLinesLeaveTheDraftAndOpenOtherAsksForAName() throws {
        let script = "/open alice\nfor alice\u{18}o\nbob\nfor bob\u{18}b\n/history\n/back\n/back\n/open bob\n!\n"
        let result = try fixture.runPiped(script)
        #expect(result.status == 0)
        #expect(try fixture.messages(in: "alice").isEmpty)
        #expect(try fixture.messages(in: "bob").map(\.content) == ["for bob!"])
        #expect(result.output.hasSuffix("1 draft discarded: privateMessage_alice\n"))
    }

    /// A piped line that ends with a key ends there, whichever key: Ctrl-D twice at the end
    /// of a restored draft deletes nothing and sends nothing (it was followed by Enter,
    /// which sent `you: x`); Ctrl-A at a line's end moves the cursor and the next line types
    /// there; a command on a line of its own is typed into the draft `b` and runs (sent
    /// whole, `/open bob` read as `/open bo` typed before the draft: "no user 'bo'").
    @Test func aLineThatEndsWithAKeyIsNotEntered() throws {
        let result = try fixture.runPiped(
            "/open alice\nx\u{18}p\n/back\n\u{4}\u{4}\n\u{15}world\u{1}\nhello \nb\u{18}b\n/open alice\n/open bob\n")
        #expect(result.status == 0)
        #expect(result.error == "", "\(result.error)")
        #expect(!result.output.contains("you: x"))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hello world"])
        #expect(result.output.contains("chat with Bob Okafor"))
    }

    @Test func badLinesGetOneErrorLineEachAndExitZero() throws {
        let result = try fixture.runPiped("/open\n/open Zed!\n/open zed\n/nope\nhello\n")
        #expect(result.status == 0)
        let errors = result.error.split(separator: "\n")
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { $0.hasPrefix("error: ") })
    }

    @Test func lastLineWithoutNewlineAndCRLFAreRead() throws {
        let result = try fixture.runPiped("/open alice\r\nfirst\r\nsecond")
        #expect(result.status == 0)
        #expect(try fixture.messages(in: "alice").map(\.content) == ["first", "second"])
    }

    @Test func usageErrorsExitTwoAndHelpAndVersionExitZero() throws {
        let bad = try fixture.runPiped("", arguments: ["--bogus"])
        #expect(bad.status == 2)
        #expect(bad.error.hasPrefix("draftline: unknown option '--bogus'"))
        let help = try fixture.runPiped("", arguments: ["--help"])
        #expect(help.status == 0 && help.output.hasPrefix("usage: draftline"))
        let version = try fixture.runPiped("", arguments: ["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("draftline "))
    }

    @Test func historyFilesArePrivateAndReadableByPythonPlistlib() throws {
        _ = try fixture.runPiped("/open alice\nhello 你好 😀\n/open bob\nhi\n")
        #expect(FileManager.default.fileExists(atPath: fixture.dataDirectory))
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.dataDirectory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let python = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import plistlib,sys,glob;"
                    + "print('|'.join(m['content'] for f in sorted(glob.glob(sys.argv[1]+'/chats/*/*.plist')) for m in plistlib.load(open(f,'rb'))))",
                fixture.dataDirectory,
            ], environment: fixture.environment(), timeout: 60)
        #expect(python.status == 0)
        #expect(String(decoding: python.output, as: UTF8.self) == "hello 你好 😀|hi\n")
    }
}

extension PipeModeTests {
    /// A data directory laid out as draftline 0.1.0 left it (comment threads in `chats/`,
    /// no `format` file), written by Python's plistlib.
    @Test func aDataDirectoryFromTheFirstLayoutKeepsWorking() throws {
        let script = """
            import os, plistlib, sys
            data = sys.argv[1]
            for chat, texts in [("alice", ["hi alice"]), ("tweet_5", ["first comment", "second comment"])]:
                os.makedirs(os.path.join(data, "chats", chat))
                messages = [{"chatID": chat, "messageID": t, "content": t, "target": "", "mineHead": "me",
                             "otherHead": "", "type": "text", "filePath": "", "address": "",
                             "latitude": 0.0, "longitude": 0.0} for t in texts]
                with open(os.path.join(data, "chats", chat, "00000000.plist"), "wb") as f:
                    plistlib.dump(messages, f, fmt=plistlib.FMT_BINARY)
                os.symlink("00000000.plist", os.path.join(data, "chats", chat, "last"))
            """
        let made = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, fixture.dataDirectory],
            environment: fixture.environment(), timeout: 60)
        #expect(made.status == 0, "\(String(decoding: made.error, as: UTF8.self))")
        let result = try fixture.runPiped("/comment tweet 5\nthird comment\n/open alice\n/chats\n")
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(result.output.contains("  you: first comment\n  you: second comment\n"))
        #expect(result.output.contains("  you: hi alice\n"))
        #expect(result.output.contains("  tweet 5 · you: third comment"))
        #expect(
            try fixture.messages(in: "tweet_5", thread: true).map(\.content) == [
                "first comment", "second comment", "third comment",
            ])
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hi alice"])
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory + "/chats/tweet_5"))
    }
}

@Suite("The chat list and the draft map on a pipe")
struct PipeChatListTests {
    @Test func chatsAndDraftsShowWhatIsWaiting() throws {
        let fixture = try Fixture()
        let script = """
            /open bob
            hello bob
            /open alice
            half a thought\u{18}b
            /comment topic 8
            /location 48.8584 2.2945 Tour Eiffel
            /chats
            /drafts
            """
        let result = try fixture.runPiped(script + "\n")
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let chats = try #require(
            lines.firstIndex { $0.contains("topic 8 · you: [location 48.8584, 2.2945 Tour Eiffel]") })
        #expect(lines[chats + 1].contains("alice (Alice Chen) · (no messages)"))
        #expect(lines[chats + 2] == "      Draft: half a thought")
        #expect(lines[chats + 3].contains("bob (Bob Okafor) · you: hello bob"))
        #expect(lines.contains("drafts in memory (1):"))
        #expect(lines.contains { $0.hasPrefix("  privateMessage_alice  \"half a thought\"  cursor 14  media 0  age ") })
    }
}

/// draftline as a QA instrument: expectations, --strict, a pinned clock.
@Suite("Checked expectations on a pipe")
struct ExpectationTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func expectationsSayWhatHeldAndWhatWasFound() throws {
        let script = [
            "/open alice", "hello", "/expect last-message \"hello\"", "/expect last-message \"nope\"", "more\u{18}b",
            "/expect draft privateMessage_alice \"more\"", "/expect no-draft privateMessage_bob", "/expect screen home",
            "/expect draft privateMessage_alice media 1", "/expect sideways",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.status == 1)
        for held in [
            "ok: last message is \"hello\"", "ok: draft privateMessage_alice is \"more\"",
            "ok: no draft for privateMessage_bob", "ok: screen is home",
        ] {
            #expect(result.output.contains(held), "\(held)")
        }
        #expect(
            result.error.split(separator: "\n") == [
                "error: expectation failed: last message is \"nope\"; found \"hello\"",
                "error: expectation failed: draft privateMessage_alice media 1; found media 0",
                "error: 'sideways': use draft, no-draft, drafts, messages, message, last-message, undo, undo-top, line, screen, error",
            ])
    }

    @Test func strictEndsTheRunAtTheFirstFailureWithStatusOne() throws {
        let result = try fixture.runPiped(
            "/open alice\n/expect screen bob\nnot sent\n", arguments: ["--data-dir", fixture.dataDirectory, "--strict"])
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("draftline: stopped at line 2 (--strict)\n"))
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    @Test(arguments: [
        ("12x", "must be a whole number"), ("-5", "must be a whole number"), ("1e9", "must be a whole number"),
        ("", "must be a whole number"), ("99999999999999999999", "is after the year 9999"),
        ("253402300800", "is after the year 9999"),
    ])
    func aMalformedSourceDateEpochIsAUsageError(_ value: String, _ why: String) throws {
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory],
            environment: fixture.environment(["SOURCE_DATE_EPOCH": value]), timeout: 20)
        #expect(result.status == 2)
        #expect(String(decoding: result.error, as: UTF8.self).contains("SOURCE_DATE_EPOCH"))
        #expect(String(decoding: result.error, as: UTF8.self).contains(why))
    }

    @Test func aPinnedClockDatesEveryMessageAndAge() throws {
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory],
            environment: fixture.environment(["SOURCE_DATE_EPOCH": "1700000000"]),
            input: Data("/open alice\none\ntwo\nleft\u{18}b\n/drafts\n".utf8), timeout: 20)
        #expect(String(decoding: result.output, as: UTF8.self).contains("age 0s"))
        let stored = try fixture.messages(in: "alice")
        #expect(stored.map(\.sentAt) == Array(repeating: Date(timeIntervalSince1970: 1_700_000_000), count: 2))
        #expect(stored.map(\.messageID) == ["1700000000000-me-1.1", "1700000000000-me-1.2"])
    }
}

/// `--trace-file`: every draft and message event, read back by Python's json module.
@Suite("The trace file")
struct TraceFileTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let script = "/open alice\nBob's ID is \u{18}p\n/back\nbob\n/open bob\nlater\u{18}b\n/quit\n"

    @Test func everyEventIsOneJSONObjectALine() throws {
        let path = fixture.root + "/trace.jsonl"
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory, "--trace-file", path],
            environment: fixture.environment(["SOURCE_DATE_EPOCH": "1700000000"]), input: Data(Self.script.utf8),
            timeout: 20)
        #expect(result.status == 0)
        let python = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import json,sys\nfor line in open(sys.argv[1]):\n e=json.loads(line)\n"
                    + " print(e['event'], e.get('key', e.get('chat')), repr(e['text']), e.get('cursor', '-'),"
                    + " e.get('media', '-'), e['screen'], e['time'][:4])",
                path,
            ], environment: fixture.environment(), timeout: 20)
        #expect(python.status == 0, "\(String(decoding: python.error, as: UTF8.self))")
        let year = "2023"  // the pinned clock: 2023-11-14T22:13:20Z
        #expect(
            String(decoding: python.output, as: UTF8.self).split(separator: "\n") == [
                "saved privateMessage_alice \"Bob's ID is \" 12 0 profile alice \(year)",
                "restored privateMessage_alice \"Bob's ID is \" 12 0 alice \(year)",
                "removed privateMessage_alice \"Bob's ID is \" 12 0 alice \(year)",
                "sent alice \"Bob's ID is bob\" - - alice \(year)",
                "saved privateMessage_bob 'later' 5 0 alice \(year)",
                "discarded privateMessage_bob 'later' 5 0 alice \(year)",
            ])
    }

    @Test func theDebuglogFormatIsTheOriginalsOwnLogLines() throws {
        let path = fixture.root + "/trace.log"
        let result = try fixture.runPiped(
            Self.script,
            arguments: ["--data-dir", fixture.dataDirectory, "--trace-file", path, "--trace-format", "debuglog"])
        #expect(result.status == 0)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == """
                inputStr_get:(null)
                inputKey_save:privateMessage_alice
                inputStr_get:Bob's ID is 
                inputKey_delegate:privateMessage_alice
                inputKey_save:privateMessage_alice
                inputStr_get:(null)
                inputKey_save:privateMessage_bob
                inputStr_get:(null)

                """)
    }

    @Test(arguments: ["/nonexistent/trace", "DIR", "FIFO", "LINK"])
    func anUnwritableTraceFileIsAUsageError(_ kind: String) throws {
        var path = kind
        switch kind {
        case "DIR": path = fixture.root
        case "FIFO":
            path = fixture.root + "/fifo"
            #expect(mkfifo(path, 0o600) == 0)
        case "LINK":
            path = fixture.root + "/link"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: fixture.root + "/target")
        default: break
        }
        let result = try fixture.runPiped(
            "/open alice\nhi\n", arguments: ["--data-dir", fixture.dataDirectory, "--trace-file", path])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("draftline: cannot write the trace file"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.root + "/target"))
    }
}
