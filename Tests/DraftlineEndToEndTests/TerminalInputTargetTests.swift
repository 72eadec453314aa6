import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// Comments and media drafts, with the real binary on a pseudo-terminal.
@Suite("Comments and media on a terminal", .serialized)
struct TerminalInputTargetTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func mediaDraftSurvivesLeavingAndReturning() throws {
        let photo = fixture.root + "/beach.png"
        #expect(FileManager.default.createFile(atPath: photo, contents: Data([0x89, 0x50])))
        let terminal = try fixture.startTerminal(["--trace"], columns: 160)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("/attach \(photo)\r")
        try terminal.waitFor("attached: 1) beach.png [image]")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("look\u{18}p")
        try terminal.waitFor(
            "trace: saved privateMessage_alice (^X p (draftline-profile)) \"look\" cursor 4, 1 attached")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/back\r")
        try terminal.waitFor("trace: restored privateMessage_alice")
        try terminal.waitFor("attached: 1) beach.png [image]")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("!\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        let messages = try fixture.messages(in: "alice")
        #expect(messages.map(\.type) == ["image", "text"])
        #expect(messages.first?.filePath == photo)
        #expect(messages.last?.content == "look!")
    }

    @Test func commentDraftIsKeptApartFromThePrivateChatWithTheSameUser() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("private words\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/comment tweet 77 @bob\r")
        try terminal.waitForPrompt("tweet 77 reply to @bob> ")
        try terminal.send("public reply\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/comment tweet 77 @bob\r")
        try terminal.waitForPrompt("tweet 77 reply to @bob> ")
        try terminal.send("\r")
        try terminal.waitForPrompt("tweet 77 reply to @bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["private words"])
        #expect(try fixture.messages(in: "tweet_77", thread: true).map(\.content) == ["public reply"])
    }
}
