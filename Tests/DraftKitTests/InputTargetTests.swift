import DraftKit
import DraftlineREPL
import Foundation
import Glibc
import Testing

@Suite("Comments, media, locations, the chat list, the draft map, trace and undo")
struct InputTargetTests {
    let history = MemoryHistory()
    let scratch = ScratchDirectory()
    let session: Frontend
    let alice = InputTarget.privateChat(try! GlobalKey(validating: "alice"))
    let thread = InputTarget.comment(.tweet, id: 123, replyTo: try! GlobalKey(validating: "alice"))

    init() {
        session = Frontend(
            Session(contacts: ContactBook(), history: history, workingDirectory: scratch.path, home: scratch.path))
    }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }

    @discardableResult
    func file(_ name: String, _ contents: String = "x") -> String {
        let path = scratch.path + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        return path
    }

    // MARK: comments

    @Test func commentKeysAndPrompts() {
        type("/comment tweet 123")
        #expect(session.prompt == "tweet 123 new comment> ")
        session.handle(.leave(.back, TextDraft(text: "no reply target")))
        type("/comment task 9 @bob")
        #expect(session.prompt == "task 9 reply to @bob> ")
        session.handle(.leave(.back, TextDraft(text: "to bob")))
        #expect(session.drafts.keys.map(\.rawValue) == ["task_9_bob", "tweet_123_"])
    }

    @Test func commentDraftIsKeptApartFromThePrivateChatWithTheSameUser() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "private")))
        type("/comment tweet 123 @alice")
        #expect(session.prefill == nil)
        type("a public reply")
        #expect(history.contents("tweet_123", kind: .thread) == ["a public reply"])
        #expect(history.messages(ChatID("tweet_123", kind: .thread)!).first?.target == "alice")
        type("/open alice")
        #expect(session.prefill?.text == "private")
    }

    @Test(arguments: ["-1", "12a", "+5", "99999999999999999999999", "18446744073709551616", "1.5"])
    func badCommentIDsGetAnErrorAndNoKey(_ id: String) {
        let output = type("/comment tweet \(id)")
        #expect(output.map(\.kind) == [.error])
        #expect(output.first?.text.contains("is not a comment id") == true)
        #expect(session.screen == .home)
    }

    @Test func badCommentKindAndReplyTarget() {
        #expect(type("/comment blog 1").first?.kind == .error)
        #expect(type("/comment tweet 1 bob").first?.text.contains("write @global_key") == true)
        #expect(type("/comment tweet 1 @nobody").first?.text.contains("no user 'nobody'") == true)
    }

    // MARK: media

    @Test func attachmentsAreSavedSeparatelyAndSentAsTheirOwnMessages() throws {
        type("/open alice")
        let photo = file("photo.JPG")
        file("memo.m4a")
        let output = type("/attach \(photo)")
        #expect(output.last?.text == "attached: 1) photo.JPG [image]")
        type("/attach memo.m4a")  // relative to the working directory
        type("/attach ~/report.pdf")
        file("report.pdf")
        type("/attach ~/report.pdf")
        session.handle(.leave(.profile, TextDraft(text: "caption", cursor: 2)))
        let key = alice.draftKey
        #expect(session.drafts.attachments(for: key).map(\.name) == ["photo.JPG", "memo.m4a", "report.pdf"])
        #expect(session.drafts.text(for: key) == TextDraft(text: "caption", cursor: 2))
        let back = type("/back")
        #expect(
            back.contains { $0.text == "attached: 1) photo.JPG [image]  2) memo.m4a [voice]  3) report.pdf [file]" })
        type("/detach 2")
        #expect(session.drafts.attachments(for: key).count == 2)
        // (`/detach 2` typed over the whole draft: the line comes back as left, empty.)
        #expect(session.prefill == nil)
        type("caption")
        let sent = history.messages(ChatID("alice")!)
        #expect(sent.map(\.type) == ["image", "file", "text"])
        #expect(sent[0].filePath == photo)
        #expect(sent[2].content == "caption")
        #expect(!session.drafts.hasDraft(for: key))
    }

    @Test func anAttachmentDeletedBeforeTheSendGetsAWarningAndIsSentByName() throws {
        type("/open alice")
        let path = file("gone.txt")
        type("/attach \(path)")
        try FileManager.default.removeItem(atPath: path)
        let output = type("caption")
        #expect(output.first == OutputLine(.warning, "gone.txt was deleted after /attach: it is sent as a name only"))
        #expect(history.messages(ChatID("alice")!).map(\.type) == ["file", "text"])
    }

    @Test func mediaOnlyDraftIsSentByABlankLine() {
        type("/open alice")
        type("/attach \(file("a.png"))")
        type("")
        #expect(history.messages(ChatID("alice")!).map(\.type) == ["image"])
    }

    @Test func emptyMediaListRemovesTheEntry() {
        type("/open alice")
        type("/attach \(file("a.png"))")
        #expect(type("/detach").map(\.text) == ["detached: nothing is attached now"])
        #expect(session.drafts.media.isEmpty)
        #expect(type("/detach").first?.text == "nothing is attached here")
        type("/attach \(file("b.png"))")
        #expect(type("/detach 5").first?.text.contains("give a number from 1 to 1") == true)
    }

    @Test func aFailedSendPutsBackWhatWasNotStored() {
        type("/open alice")
        type("/attach \(file("a.png"))")
        history.failNextAppend = true
        let output = type("words")
        #expect(output.last?.kind == .error)
        #expect(session.drafts.attachments(for: alice.draftKey).map(\.name) == ["a.png"])
        #expect(session.prefill?.text == "words")
    }

    @Test func unusableFilesAreRefusedQuickly() throws {
        type("/open alice")
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [
            (scratch.path, "it is a directory"), (fifo, "it is a FIFO"), ("/dev/null", "it is a device"),
            (scratch.path + "/missing", "no such file"),
        ]
        for (path, reason) in cases {
            let started = Date()
            let output = type("/attach \(path)")
            #expect(Date().timeIntervalSince(started) < 1)
            #expect(output.count == 1 && output[0].kind == .error)
            #expect(output[0].text.contains(reason), "\(output)")
        }
        #expect(session.drafts.isEmpty)
        type("/back")
        #expect(type("/attach \(file("x.png"))").first?.text.contains("no chat is open") == true)
    }

    // MARK: locations

    @Test func locationIsSentWithItsCoordinatesAndAddress() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "kept")))
        type("/open alice")
        type("kept /location 52.52 -13.4 Alexanderplatz, Berlin")
        let message = history.messages(ChatID("alice")!).first
        #expect(message?.type == "location")
        #expect(message?.latitude == 52.52 && message?.longitude == -13.4)
        #expect(message?.address == "Alexanderplatz, Berlin")
        #expect(session.prefill?.text == "kept")
    }

    @Test(arguments: ["91 0", "0 181", "abc 0", "0 nan", "inf 0", "1", ""])
    func badCoordinatesGetAnError(_ arguments: String) {
        type("/open alice")
        let output = type("/location \(arguments)")
        #expect(output.map(\.kind) == [.error])
        #expect(history.isEmpty)
    }

    // MARK: chat list and draft map

    @Test func chatListIsMostRecentFirstWithDraftPreviews() {
        type("/open bob")
        type("hi bob")
        type("/open alice")
        type("hi alice")
        session.handle(.leave(.back, TextDraft(text: "unsent to alice")))
        type("/comment topic 5")
        session.handle(.leave(.back, TextDraft(text: "topic draft")))
        let lines = type("/chats").map(\.text)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].contains("topic 5") && lines[1].contains("Draft (topic_5_): topic draft"))
        #expect(lines.contains("      Draft: unsent to alice"))
        #expect(
            lines.firstIndex { $0.contains("alice (Alice Chen) · you: hi alice") }! < lines.firstIndex {
                $0.contains("bob")
            }!)
    }

    @Test func draftMapShowsKeyTextCursorMediaAndAge() {
        type("/open alice")
        type("/attach \(file("a.png"))")
        session.handle(.leave(.back, TextDraft(text: "line\u{1b}[2J", cursor: 4)))
        let lines = type("/drafts").map(\.text)
        #expect(lines == ["drafts in memory (1):", "  privateMessage_alice  \"line^[[2J\"  cursor 4  media 1  age 0s"])
    }

    // MARK: trace, discard, undo

    @Test func traceNamesEveryDraftEvent() {
        type("/trace on")
        type("/open alice")
        var lines = session.handle(.leave(.profile, TextDraft(text: "abc"))).lines.map(\.text)
        #expect(lines.first == "trace: saved privateMessage_alice (^X p (draftline-profile)) \"abc\" cursor 3")
        lines = type("/back").map(\.text)
        #expect(lines.contains("trace: restored privateMessage_alice (entering alice) \"abc\" cursor 3"))
        lines = type("abc").map(\.text)
        #expect(
            lines.first
                == "trace: removed privateMessage_alice (sending (removed first, as the original does)) \"abc\" cursor 3"
        )
        session.handle(.leave(.back, TextDraft(text: "x")))
        lines = session.handle(.endOfInput).lines.map(\.text)
        #expect(lines.first == "trace: discarded privateMessage_alice (quitting forgets every draft) \"x\" cursor 1")
    }

    @Test func traceOffByDefault() {
        type("/open alice")
        #expect(session.handle(.leave(.back, TextDraft(text: "abc"))).lines.allSatisfy { !$0.text.hasPrefix("trace:") })
    }

    @Test func discardThenUndoBringsTheDraftBack() {
        type("/open alice")
        type("/attach \(file("a.png"))")
        session.handle(.leave(.back, TextDraft(text: "precious", cursor: 3)))
        type("/open alice")
        type("/discard")
        #expect(session.prefill == nil)
        #expect(type("/discard").first?.text == "no draft here to discard")
        type("/undo")
        #expect(session.prefill == TextDraft(text: "precious", cursor: 3))
        #expect(session.drafts.attachments(for: alice.draftKey).count == 1)
        #expect(type("/undo").first?.text.hasPrefix("nothing to undo") == true)
    }

    @Test func undoBringsBackADraftEmptiedByLeavingOrABlankSend() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "first")))
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "")))  // emptied
        #expect(session.drafts.isEmpty)
        type("/undo")
        #expect(session.drafts.text(for: alice.draftKey)?.text == "first")
        type("/open alice")
        type("   ")  // cleared by a blank send
        type("/undo")
        #expect(session.prefill?.text == "first")
    }

    @Test func completionKnowsTheNewCommands() {
        #expect(session.complete("/comment t") == .list(["tweet", "topic", "task"]))
        #expect(session.complete("/comment tw") == .insert("eet"))
        #expect(session.complete("/comment tweet 1 @bo") == .insert("b"))
        #expect(session.complete("/trace o") == .list(["on", "off"]))
        #expect(session.complete("/d") == .list(["/detach", "/drafts", "/discard"]))
    }
}
