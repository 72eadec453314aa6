import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// `/expect` through the binary on a pipe: a draft's text, cursor and media; the open
/// chat's stored messages (count, last text, sender, type); strict quoting; one line per
/// mismatch.
@Suite("/expect on a pipe")
struct ExpectEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Runs a script (one line each) as bob and returns its output and error lines.
    func run(_ lines: [String], strict: Bool = false) throws -> (status: Int32, output: [String], error: [String]) {
        let result = try fixture.runPiped(
            lines.joined(separator: "\n") + "\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--as", "bob"] + (strict ? ["--strict"] : []))
        return (
            result.status, result.output.split(separator: "\n").map(String.init),
            result.error.split(separator: "\n").map(String.init)
        )
    }

    @Test func aDraftsTextCursorAndMediaAreCheckedAndAMismatchIsOneLine() throws {
        let file = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("png".utf8)))
        // "Hello world", the cursor moved to 6 (Ctrl-A, six Ctrl-F), left with ^X b.
        let result = try run([
            "/open alice", "/attach \(file)", "Hello world\u{01}" + String(repeating: "\u{06}", count: 6) + "\u{18}b",
            "/expect draft privateMessage_alice \"Hello world\" cursor 6 media 1",
            "/expect draft privateMessage_alice cursor 6", "/expect draft privateMessage_alice media 1",
            "/expect draft privateMessage_alice \"Hello world\" cursor 11",
            "/expect draft privateMessage_alice \"Hello\" media 2", "/expect no-draft privateMessage_alice",
            "/expect draft privateMessage_carol",
        ])
        #expect(result.status == 1)
        #expect(result.output.contains("ok: draft privateMessage_alice is \"Hello world\" cursor 6 media 1"))
        #expect(result.output.contains("ok: draft privateMessage_alice cursor 6"))
        #expect(result.output.contains("ok: draft privateMessage_alice media 1"))
        #expect(
            result.error == [
                "error: expectation failed: draft privateMessage_alice is \"Hello world\" cursor 11; "
                    + "found \"Hello world\" cursor 6",
                "error: expectation failed: draft privateMessage_alice is \"Hello\" media 2; found \"Hello world\" media 1",
                "error: expectation failed: no draft for privateMessage_alice; found \"Hello world\" cursor 6 media 1",
                "error: expectation failed: draft privateMessage_carol exists; found no draft",
            ])
    }

    @Test func theOpenChatsStoredMessagesAreCheckedCountTextSenderAndType() throws {
        let result = try run([
            "/open alice", "/expect messages 0", "/expect last-message", "first", "/location 52.5 13.25 Pier 3",
            "/expect messages 2", "/expect last-message \"\" from bob type location",
            "/expect last-message from alice", "/expect last-message type text", "/expect messages 3",
            "/back", "/expect messages 2",
        ])
        #expect(result.output.contains("ok: the chat holds 0 messages"))
        #expect(result.output.contains("ok: the chat holds 2 messages"))
        #expect(result.output.contains("ok: last message is \"\" from bob type location"))
        #expect(
            result.error == [
                "error: expectation failed: last message exists; found no message",
                "error: expectation failed: last message from alice; found from bob",
                "error: expectation failed: last message type text; found type location",
                "error: expectation failed: the chat holds 3 messages; found 2",
                "error: no chat is open: /open <global_key> first",
            ])
        // What /expect counted is what an independent reader finds on disk.
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.map(\.author) == ["bob", "bob"])
        #expect(stored.map(\.type) == ["text", "location"])
    }

    @Test func quotedTextIsParsedStrictlyAndUnknownWordsAreErrors() throws {
        let result = try run([
            "/open alice", #"say "hi" \ ok"# + "\u{18}b",
            #"/expect draft privateMessage_alice "say \"hi\" \\ ok""#,
            #"/expect draft privateMessage_alice "Hello world" cursor 6 please"#,
            #"/expect draft privateMessage_alice "unterminated"#, #"/expect draft privateMessage_alice "a\qb""#,
            #"/expect draft privateMessage_alice say"#, #"/expect draft privateMessage_alice "a"b"#,
            "/expect no-draft privateMessage_bob now", "/expect screen home now", "/expect draft nobody_here",
            "/expect messages many", "/expect draft privateMessage_alice cursor",
        ])
        #expect(result.output.contains(#"ok: draft privateMessage_alice is "say \"hi\" \\ ok""#))
        #expect(
            result.error == [
                #"error: unexpected 'please': usage is /expect draft <key> ["text"] [cursor n] [media n]"#,
                #"error: '"unterminated' is not quoted text: "# + Self.quoting,
                #"error: '"a\qb"' is not quoted text: "# + Self.quoting,
                #"error: unexpected 'say': usage is /expect draft <key> ["text"] [cursor n] [media n]"#,
                #"error: '"a"b' is not quoted text: "# + Self.quoting,
                "error: unexpected 'now': usage is /expect no-draft <key>",
                "error: unexpected 'now': usage is /expect screen home|<user>|profile <user>|tweet|topic|task <id>",
                "error: 'nobody_here' is not a draft key: write privateMessage_<global_key> or <kind>_<id>_[global_key]",
                "error: 'many' is not a count: give a whole number from 0 to \(Int.max)",
                #"error: missing argument: usage is /expect draft <key> ["text"] [cursor n] [media n]"#,
            ])
    }

    /// How the error for text that is not quoted text says to write it.
    static let quoting =
        #"write it in double quotes, with \" for a quote, \\ for a backslash, \n, \t, \r or \u{hex} for a control character"#

    @Test func strictStopsAtTheFirstFailedExpectation() throws {
        let result = try run(
            ["/open alice", "one", "/expect last-message \"two\"", "never sent"], strict: true)
        #expect(result.status == 1)
        #expect(result.error.last == "draftline: stopped at line 3 (--strict)")
        #expect(try fixture.messages(in: "alice+bob").map(\.content) == ["one"])
    }

    /// Any stored message is checked by its place from the end: the image sent before its
    /// caption is message 2 (`last-message type image` cannot say it).
    @Test func aMessageIsCheckedByItsPlaceFromTheEnd() throws {
        let file = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("png".utf8)))
        let result = try run([
            "/open alice", "/attach \(file)", "the caption", "/expect message 2 type image from bob",
            "/expect message 1 \"the caption\" type text", "/expect last-message type image",
            "/expect message 3", "/expect message 2 \"the caption\"", "/expect message 0",
        ])
        #expect(result.output.contains("ok: message 2 from the end from bob type image"))
        #expect(result.output.contains("ok: last message is \"the caption\" type text"))
        #expect(
            result.error == [
                "error: expectation failed: last message type image; found type text",
                "error: expectation failed: message 3 from the end exists; found only 2 messages",
                "error: expectation failed: message 2 from the end is \"the caption\"; found \"\"",
                "error: '0' is not a count: give a whole number from 1 to 100000",
            ])
        #expect(try fixture.messages(in: "alice+bob").map(\.type) == ["image", "text"])
    }

    /// Expected text takes `\n`, `\t`, `\"`, `\\` (and `\r`, `\u{…}`); the undo stack
    /// (its size, its top entry) and the number of drafts are checked.
    @Test func escapesTheUndoStackAndTheDraftCountAreChecked() throws {
        let result = try run([
            "/open alice", "tab\there \"quoted\" back\\slash\u{18}b",
            #"/expect draft privateMessage_alice "tab\there \"quoted\" back\\slash""#,
            #"/expect draft privateMessage_alice "tab\u{9}here \u{22}quoted\u{22} back\u{5C}slash""#,
            "/expect drafts 1", "/expect undo 0", "/open carol", "gone soon\u{3}", "/expect undo 1",
            #"/expect undo-top "gone soon""#, "/expect drafts 1", "/expect drafts 2", #"/expect undo-top "other""#,
            "/undo", "/expect undo 0", #"/expect undo-top "gone soon""#, "/expect drafts 2",
            #"/expect draft privateMessage_alice "tab\nhere""#, #"/expect undo-top "bad \x escape""#,
        ])
        #expect(result.output.contains(#"ok: draft privateMessage_alice is "tab\there \"quoted\" back\\slash""#))
        #expect(result.output.filter { $0 == "ok: 1 draft in memory" }.count == 2)
        #expect(result.output.contains("ok: the undo stack holds 0 entries"))
        #expect(result.output.contains("ok: the undo stack holds 1 entry"))
        #expect(result.output.contains(#"ok: the undo stack's top is "gone soon""#))
        #expect(result.output.contains("ok: 2 drafts in memory"))
        #expect(
            result.error == [
                "error: expectation failed: 2 drafts in memory; found 1",
                #"error: expectation failed: the undo stack's top is "other"; found "gone soon""#,
                #"error: expectation failed: the undo stack's top is "gone soon"; found an empty undo stack"#,
                #"error: expectation failed: draft privateMessage_alice is "tab\nhere"; found "tab\there \"quoted\" back\\slash""#,
                #"error: '"bad \x escape"' is not quoted text: "# + Self.quoting,
            ])
    }

    /// `/wait total n` waits until the open chat holds n messages, whenever they came: a
    /// script started after the other side wrote needs no start-up sync. A successful
    /// `/wait` says so in one line.
    @Test func waitTotalCountsWhatIsThereAndASuccessfulWaitPrintsOneLine() throws {
        let before = try fixture.runPiped(
            "/open bob\nlunch at noon?\n/quit\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        #expect(before.status == 0)
        let result = try run(
            ["/open alice", "/wait total 1 20", #"/expect message 1 "lunch at noon?" from alice"#, "/wait total 2 0.2"])
        #expect(result.output.contains("ok: the chat holds 1 message"))
        #expect(result.error == ["error: waited 0.2 s: the chat holds 1 of 2 messages"])
        let home = try run(["/wait total 1"])
        #expect(home.error == ["error: no chat is open: /open <global_key> first"])
    }

    /// A new user's trial: `/expect bogus` printed its error and the run ended with status
    /// 0, as if the check had held. A malformed check is a failed one, unless the next line
    /// states that error; the report lists it as not ok.
    @Test func aMalformedCheckFails() throws {
        #expect(try run(["/expect bogus"]).status == 1)
        #expect(try run(["/expect draft"]).status == 1)
        #expect(try run(["/expect bogus", "/expect error invalid-argument"]).status == 0)
        #expect(try run(["/expect screen home"]).status == 0)
        let tap = fixture.root + "/report.tap"
        let result = try fixture.runPiped(
            "/expect bogus\n/expect screen home\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--report", "tap", tap])
        #expect(result.status == 1)
        let report = try String(contentsOfFile: tap, encoding: .utf8)
        #expect(report.contains("not ok 1 - line 1: /expect bogus\n"), "\(report)")
        #expect(report.contains("ok 2 - line 2: screen is home\n"), "\(report)")
    }
}

/// `/expect line` on a terminal: typed into the restored draft, it checks the edit line as
/// the command found it, and the line comes back as it was.
@Suite("/expect on a terminal", .serialized)
struct ExpectOnATerminalTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func theEditLineIsCheckedAsItWasBeforeTheCommand() throws {
        let terminal = try fixture.startTerminal(columns: 160)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("Bob's ID is \u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/expect line \"Bob's ID is \" cursor 12\r")
        try terminal.waitFor("ok: the edit line is \"Bob's ID is \" cursor 12")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/expect line \"Bob's ID is\"\r")
        try terminal.waitFor(
            "error: expectation failed: the edit line is \"Bob's ID is\"; found \"Bob's ID is \" cursor 12")
        try terminal.waitForPrompt("alice> ")
        // A failed command gives the whole line back, the draft with the command in it.
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(1), "an /expect failed: status 1, on a terminal too")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }
}
