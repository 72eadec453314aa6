import DraftlineTestSupport
import Foundation
import Testing

/// A draft the user deleted from the line, then a command: the command runs, the draft
/// stays in memory (a command never changes it), and the line comes back as the user left
/// it, empty. The deleted text never comes back into the line to be sent with the next
/// message (the new-user trial: `^U` `/history` `new` sent `old ideanew`).
extension LineOriginTests {
    /// How the draft is deleted, and how the command comes into the line.
    static let emptyingWays: [(deleting: String, command: String)] = [
        ("\u{15}", "/history\r"),
        ("\u{1}\u{B}", "/history\r"),
        (String(repeating: backspace, count: 8), "/history\r"),
        // A recalled command over the emptied line (Up recalls `/open alice`).
        ("\u{15}", "\u{1B}[A\r"),
        // A command that failed there, fixed: the line it gave back holds no draft either.
        ("\u{15}", "/histroy\r\u{15}/history\r"),
    ]

    @Test(arguments: 0..<emptyingWays.count)
    func aCommandOnALineTheDraftWasDeletedFromLeavesItEmpty(_ way: Int) throws {
        let (deleting, command) = Self.emptyingWays[way]
        let terminal = try start()
        try restore(terminal, "alice", "old idea")
        try terminal.send(deleting + command)
        try terminal.waitForReadToEnd()
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"old idea\""), "\(shown)")
        #expect(shown.contains("edit line: \"\""), "\(shown)")
        try terminal.send("new\r")
        try terminal.waitFor("you: new")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.drafts(prompt: "alice> ").contains("no drafts in memory"))
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["new"])
    }

    /// The same on a pipe, where `\u{15}` and Backspace are the same editing keys.
    @Test func aCommandOnALineTheDraftWasDeletedFromLeavesItEmptyOnAPipe() throws {
        let script = [
            "/open alice", "old idea\u{18}b", "/open alice", "\u{15}/history", "/expect drafts 1",
            #"/expect draft privateMessage_alice "old idea""#, "new", "/expect drafts 0", "/open bob", "kept\u{18}b",
            "/open bob", String(repeating: Self.backspace, count: 4) + "/histroy", "\u{15}/history", "fresh",
            "/expect drafts 0",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["new"])
        #expect(try fixture.messages(in: "bob").map(\.content) == ["fresh"])
    }
}

/// Two rules the conservation test met once the stream moved: a blank line that sends the
/// draft's files puts its text on the undo stack, and text a recall replaced is not taken
/// for kept because a history line happens to contain the same words.
extension LineOriginTests {
    /// README "send a blank line": attachments waiting in the draft are sent, the draft's
    /// text goes on the undo stack (it had been dropped when the draft held files).
    @Test func aBlankLineSendsTheFilesAndSetsTheTextAside() throws {
        let photo = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: photo, contents: Data([0x89, 0x50])))
        let script = [
            "/open alice", "/attach \(photo)", "the caption\u{18}b", "/open alice", "\u{15}", "",
            #"/expect undo-top "the caption""#, "/expect messages 1", "/expect last-message type image",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.status == 0 && !result.error.contains("expectation failed"), "\(result.error)")
        #expect(try fixture.messages(in: "alice").map(\.type) == ["image"])
    }

    /// A QA attack: the text deleted from a draft that has a file came back into the line
    /// after a command (only a draft of text alone was judged emptied), and the next Enter
    /// sent it. The line comes back empty whatever is attached; the file stays in the
    /// draft, and goes with the next message as attachments do.
    @Test func aCommandOnAnEmptiedDraftWithAFileLeavesTheLineEmpty() throws {
        let photo = fixture.root + "/photo.png"
        #expect(FileManager.default.createFile(atPath: photo, contents: Data([0x89, 0x50])))
        let script = [
            "/open alice", "/attach \(photo)", "hello\u{18}b", "/open alice", "\u{15}", "/drafts",
            #"/expect line """#, "other", #"/expect undo-top "hello""#,
        ]
        let piped = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(piped.status == 0 && !piped.error.contains("expectation failed"), "\(piped.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["", "other"])
        let terminalFixture = try Fixture()
        let terminal = try start(in: terminalFixture)
        try terminal.open("alice")
        try terminal.send("/attach \(photo)\r")
        try terminal.waitFor("attached: 1) photo.png")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("hello\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{15}/drafts\r")
        try terminal.waitFor("media 1")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("draft cleared: /undo brings it back")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try terminalFixture.messages(in: "alice").map(\.content) == [""])
    }

    /// Ctrl-C on a recalled line the user edited: their own line, `at 5`, is the top entry,
    /// though the history line recalled over it holds the same words (it had been taken as
    /// kept in that line and was lost).
    @Test func ownTextIsNotKeptByAHistoryLineThatSpellsIt() throws {
        let terminal = try start()
        try terminal.open("alice")
        try terminal.send("meet at 5 today\r")
        try terminal.waitFor("you: meet at 5 today")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("at 5\u{1B}[A!\u{3}")
        try terminal.waitFor("/undo brings it back")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"at 5\""), "\(shown)")
        #expect(shown.contains("\"meet at 5 today!\""), "\(shown)")
        #expect(try terminal.quit() == .exited(0))
    }
}

/// The new-user trial's finding 2: on a pipe, the keys that fix a failed command on a
/// terminal (Backspace, then the missing letters) sent the draft with them typed into it.
extension LineOriginTests {
    @Test func keysThatFixAFailedCommandFixItOnAPipe() throws {
        let script = [
            "/open alice", "Bob's ID is \u{18}b", "/open alice", "/drafs", "\u{8}ts",
            #"/expect draft privateMessage_alice "Bob's ID is ""#, "/expect messages 0", "/open bob", "/drafs",
            "\u{7F}ts", "/expect messages 0", "/drafs", "\u{1}\u{6}\u{6}\u{6}\u{6}\u{6}t", "/expect messages 0",
            // A line that starts with text is still typed into the draft as restored.
            "/drafs", "hello",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(!result.error.contains("expectation failed"), "\(result.error)")
        #expect(result.output.components(separatedBy: "drafts in memory").count == 4, "\(result.output)")
        #expect(try fixture.messages(in: "alice").isEmpty)
        #expect(try fixture.messages(in: "bob").map(\.content) == ["hello"])
    }
}

/// The new-user trial's finding 5: a recalled command run over a restored draft whose text
/// the user left as it was but whose cursor they moved gives the draft back with the cursor
/// where they left it (it came back where the draft had been restored).
extension LineOriginTests {
    @Test(arguments: ["\u{1B}[A", "\u{12}open"])
    func aRecalledCommandKeepsTheCursorTheUserMoved(_ recall: String) throws {
        let terminal = try start()
        try restore(terminal, "alice", "hello world")
        try terminal.send("\u{1}\u{1B}[C\u{1B}[C" + recall + "\r")
        try terminal.waitFor("already in the chat with alice")
        try terminal.waitForPrompt("alice> ")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("privateMessage_alice  \"hello world\"  cursor 2"), "\(shown)")
        #expect(shown.contains("edit line: \"hello world\"  cursor 2"), "\(shown)")
        #expect(try terminal.quit() == .exited(0))
    }
}

/// README "Down back to your line ... leaves it yours, as if nothing was recalled": the
/// cursor is where the user had it (libedit puts it at the end).
extension LineOriginTests {
    @Test func downBackToOnesOwnLineKeepsTheCursor() throws {
        let terminal = try start()
        try restore(terminal, "alice", "hello world")
        try terminal.send("\u{1}\u{1B}[C\u{1B}[C\u{1B}[A\u{1B}[B")
        let shown = try terminal.drafts(prompt: "alice> ")
        #expect(shown.contains("edit line: \"hello world\"  cursor 2"), "\(shown)")
        try terminal.send("X\r")
        try terminal.waitFor("you: heXllo world")
        #expect(try terminal.quit() == .exited(0))
    }
}

/// The new-user trial's finding 7: at home, `^X o` or `^X /` over text holds it for the
/// prompt; cancelled, or answered by a command that stays, the text is back in the line
/// (it had gone to the undo stack and the line was left empty); a chat opened puts it there.
extension LineOriginTests {
    static let promptEndings: [(keys: String, back: Bool)] = [
        ("\u{18}o\u{3}", true), ("\u{18}o\r", true), ("\u{18}o\u{4}", true), ("\u{18}/drafts\r", true),
        ("\u{18}oalice\r", false),
    ]

    @Test(arguments: 0..<promptEndings.count)
    func aCancelledPromptGivesTheTextBack(_ ending: Int) throws {
        let (keys, back) = Self.promptEndings[ending]
        let terminal = try start()
        try terminal.send("home text" + keys)
        let prompt = back ? "draftline> " : "alice> "
        if !back { try terminal.waitFor("on the undo stack") }
        try terminal.waitForPrompt(prompt)
        let shown = try terminal.drafts(prompt: prompt)
        if back {
            #expect(shown.contains("edit line: \"home text\"  cursor 9"), "\(shown)")
            #expect(!shown.contains("undo stack ("), "\(shown)")
        } else {
            #expect(shown.contains("(line) \"home text\"") || shown.contains("  \"home text\""), "\(shown)")
            #expect(shown.contains("edit line: \"\""), "\(shown)")
        }
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }
}
