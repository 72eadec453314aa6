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
        #expect(result.status == 0)
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
                #"error: '"unterminated' is not quoted text: write it in double quotes, with \" for a quote and \\ for a backslash"#,
                #"error: '"a\qb"' is not quoted text: write it in double quotes, with \" for a quote and \\ for a backslash"#,
                #"error: unexpected 'say': usage is /expect draft <key> ["text"] [cursor n] [media n]"#,
                #"error: '"a"b' is not quoted text: write it in double quotes, with \" for a quote and \\ for a backslash"#,
                "error: unexpected 'now': usage is /expect no-draft <key>",
                "error: unexpected 'now': usage is /expect screen home|<user>|profile <user>|tweet|topic|task <id>",
                "error: 'nobody_here' is not a draft key: write privateMessage_<global_key> or <kind>_<id>_[global_key]",
                "error: 'many' is not a count: give a whole number from 0 to \(Int.max)",
                #"error: missing argument: usage is /expect draft <key> ["text"] [cursor n] [media n]"#,
            ])
    }

    @Test func strictStopsAtTheFirstFailedExpectation() throws {
        let result = try run(
            ["/open alice", "one", "/expect last-message \"two\"", "never sent"], strict: true)
        #expect(result.status == 1)
        #expect(result.error.last == "draftline: stopped at line 3 (--strict)")
        #expect(try fixture.messages(in: "alice+bob").map(\.content) == ["one"])
    }
}
