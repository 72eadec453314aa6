import DraftKit
import DraftlineREPL
import Foundation
import Testing

/// The in-memory store, as tests read it.
typealias MemoryHistory = InMemoryHistory

extension InMemoryHistory {
    /// Whether the next append fails, as a full disk would.
    var failNextAppend: Bool {
        get { nextAppendFailure != nil }
        set { nextAppendFailure = newValue ? .unavailable(FileError("write", path: "history", code: ENOSPC)) : nil }
    }

    /// Every message of a chat, oldest first.
    func messages(_ chat: ChatID) -> [Message] { (try? recentMessages(in: chat, limit: .max).value) ?? [] }

    /// The texts of a chat's messages, oldest first.
    func contents(_ name: String, kind: ChatID.Kind = .privateChat) -> [String] {
        messages(ChatID(name, kind: kind)!).map(\.content)
    }

    /// Whether no message was stored at all.
    var isEmpty: Bool { ((try? chats().value) ?? []).isEmpty }
}

@Suite("The session: screens, commands and the draft rules, as data")
struct SessionTests {
    let history = MemoryHistory()
    let session: Frontend
    let aliceKey = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey
    let bobKey = InputTarget.privateChat(try! GlobalKey(validating: "bob")).draftKey

    init() {
        session = Frontend(Session(contacts: ContactBook(), history: history))
    }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }

    @Test func openShowsTheChatAndNamesItInThePrompt() {
        #expect(session.prompt == "draftline> ")
        let output = type("/open alice")
        #expect(output.contains { $0.text.contains("Alice Chen") })
        #expect(session.prompt == "alice> ")
        #expect(session.prefill == nil)
    }

    @Test func leavingToTheProfileSavesTheDraftAndBackRestoresIt() {
        type("/open alice")
        let draft = TextDraft(text: "tab\there 你好 😀 \u{1}", cursor: 4)
        let output = session.handle(.leave(.profile, draft)).lines
        #expect(session.screen == .profile(try! GlobalKey(validating: "alice")))
        #expect(output.contains { $0.text.contains("draft:      waiting (privateMessage_alice)") })
        #expect(session.drafts.text(for: aliceKey) == draft)
        type("/back")
        #expect(session.prompt == "alice> ")
        #expect(session.prefill == draft)
    }

    @Test func twoChatsKeepTwoDrafts() {
        type("/open alice")
        session.handle(.leave(.open, TextDraft(text: "for alice")))
        #expect(session.isAskingForChat)
        #expect(session.prompt == "open chat with: ")
        type("bob")
        #expect(session.prompt == "bob> ")
        session.handle(.leave(.back, TextDraft(text: "for bob", cursor: 3)))
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "for alice")
        type("/open bob")
        #expect(session.prefill == TextDraft(text: "for bob", cursor: 3))
    }

    @Test func sendingRemovesTheDraftAndStoresTheMessage() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "hello")))
        type("/open alice")
        type("hello")
        #expect(history.contents("alice") == ["hello"])
        #expect(session.drafts.text(for: aliceKey) == nil)
        #expect(session.prefill == nil)
        let stored = history.messages(ChatID("alice")!)[0]
        #expect(stored.chatID == "alice" && stored.target == "alice" && stored.type == "text")
        #expect(!stored.messageID.isEmpty)
    }

    @Test func aFailedWriteKeepsTheTextAsTheDraft() {
        type("/open alice")
        history.failNextAppend = true
        let output = type("important words")
        #expect(output.contains { $0.kind == .error && $0.text.contains("message not sent") })
        #expect(session.drafts.text(for: aliceKey)?.text == "important words")
        #expect(session.hadSendFailure)
        type(session.prefill!.text)
        #expect(history.contents("alice") == ["important words"])
    }

    @Test func whitespaceOnlyClearsTheDraftAndSendsNothing() {
        type("/open alice")
        session.handle(.leave(.profile, TextDraft(text: "x")))
        type("/back")
        type(" \t ")
        #expect(session.drafts.isEmpty)
        #expect(history.isEmpty)
    }

    @Test func commandsNeverChangeADraft() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "keep me", cursor: 2)))
        type("/open alice")
        for line in ["/history", "/help", "/profile", "/back", "/open alice", "/nonsense", "/open"] { type(line) }
        #expect(session.drafts.text(for: aliceKey) == TextDraft(text: "keep me", cursor: 2))
    }

    @Test func leavingWithAnEmptyLineRemovesTheDraft() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "x")))
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "")))
        #expect(session.drafts.isEmpty)
    }

    @Test func doubleSlashSendsALineStartingWithSlash() {
        type("/open alice")
        type("//not a command")
        #expect(history.contents("alice") == ["/not a command"])
    }

    @Test func quitForgetsEveryDraft() {
        type("/open alice")
        session.handle(.leave(.open, TextDraft(text: "a")))
        type("bob")
        session.handle(.leave(.back, TextDraft(text: "b")))
        let output = session.handle(.endOfInput).lines
        #expect(session.hasQuit)
        #expect(session.drafts.isEmpty)
        #expect(output.map(\.text) == ["2 drafts discarded: privateMessage_alice, privateMessage_bob"])
    }

    @Test(arguments: [
        ("/frobnicate", "unknown command '/frobnicate'"), ("/open", "missing argument: usage is /open <global_key>"),
        ("/open Alice", "'Alice' is not a valid global_key"), ("/open zed", "no user 'zed'"),
        ("/open alice bob", "unexpected 'bob'"), ("/history 0", "'0' is not a count"),
        ("/history", "no chat is open"), ("/back", "already at home"), ("hello", "no chat is open"),
        ("/open \u{1b}[2J", "'^[[2J' is not a valid global_key"),
    ])
    func badInputGetsOneClearLine(_ line: String, _ expected: String) {
        let output = type(line)
        #expect(output.count == 1)
        #expect(output.first?.kind == .error)
        #expect(output.first?.text.contains(expected) == true, "\(output)")
        #expect(!session.hasQuit)
    }

    @Test func askingForAChatAsksAgainUntilAValidKnownUserOrACancel() {
        type("/open alice")
        session.handle(.leave(.open, TextDraft(text: "left")))
        for wrong in ["nobody", "/drafts", "Not Valid"] {
            let output = type(wrong)
            #expect(output.map(\.kind) == [.error], "\(wrong): \(output)")
            #expect(session.prompt == "open chat with: ")
            // The name comes back in the line, to be fixed.
            #expect(session.prefill?.text == wrong)
        }
        type("")
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "left")
        session.handle(.leave(.open, TextDraft(text: "left again")))
        session.handle(.interrupt(TextDraft(text: "bo")))
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "left again")
        session.handle(.leave(.open, TextDraft(text: "left again")))
        session.handle(.quitRequest(afterKeys: false))
        #expect(!session.hasQuit)
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "left again")
    }

    @Test func aLeaveKeyWithTextWhereNoChatIsOpenKeepsTheLine() {
        let output = session.handle(.leave(.profile, TextDraft(text: "not a draft", cursor: 3))).lines
        #expect(output.first?.kind == .error)
        #expect(session.drafts.isEmpty)
        #expect(session.prefill == TextDraft(text: "not a draft", cursor: 3))
        type("/help")
        #expect(session.prefill == nil)
    }

    @Test func historyShowsTheLastMessages() {
        type("/open alice")
        for index in 1...30 { type("message \(index)") }
        let output = type("/history 3")
        #expect(output.map(\.text) == ["  you: message 28", "  you: message 29", "  you: message 30"])
    }

    @Test func messagesAreShownWithControlCharactersMadeVisible() {
        type("/open alice")
        let output = type("\u{1b}]0;pwned\u{7}")
        #expect(output.first?.text == "  you: ^[]0;pwned^G")
        #expect(history.contents("alice") == ["\u{1b}]0;pwned\u{7}"])
    }

    @Test func completion() {
        #expect(session.complete("/op") == .insert("en "))
        #expect(session.complete("/open al") == .insert("ice"))
        #expect(session.complete("/h") == .list(["/history", "/help"]))
        #expect(session.complete("/he") == .insert("lp "))
        #expect(session.complete("/open zz") == .none)
        #expect(session.complete("plain text") == .none)
        type("/open alice")
        session.handle(.leave(.open, TextDraft(text: "")))
        #expect(session.complete("b") == .insert("ob"))
    }

    @Test func everyTimeAgeAndMessageIDFollowThePinnedClock() throws {
        final class Clock: @unchecked Sendable { var now = Date(timeIntervalSince1970: 86_400) }
        let clock = Clock()
        let pinned = Frontend(Session(contacts: ContactBook(), history: history, clock: { clock.now }))
        pinned.handle(.line("/open alice"))
        pinned.handle(.line("hello"))
        let stored = try #require(history.messages(ChatID("alice")!).first)
        #expect(stored.sentAt == clock.now)
        #expect(stored.messageID.hasPrefix("86400000-"))
        pinned.handle(.leave(.back, TextDraft(text: "waiting")))
        clock.now += 3725
        #expect(pinned.handle(.line("/drafts")).lines.map(\.text).last?.hasSuffix("age 1h02m") == true)
        let chats = pinned.handle(.line("/chats")).lines.map(\.text)
        #expect(chats.first?.contains("alice (Alice Chen) · you: hello") == true, "\(chats)")
    }
}
