import DraftKit
import Foundation
import Testing

/// History kept in memory, able to fail the next append as a full disk would.
final class MemoryHistory: HistoryStore {
    var stored: [ChatID: [Message]] = [:]
    var activity: [ChatID: Date] = [:]
    var failNextAppend = false

    func append(_ message: Message, to chat: ChatID) throws(StorageError) {
        if failNextAppend {
            failNextAppend = false
            throw StorageError("write", path: "memory", code: 28)  // ENOSPC
        }
        stored[chat, default: []].append(message)
        activity[chat] = Date()
    }

    func recentMessages(in chat: ChatID, limit: Int) throws(StorageError) -> [Message] {
        Array((stored[chat] ?? []).suffix(limit))
    }

    func messageCount(in chat: ChatID) throws(StorageError) -> Int { stored[chat]?.count ?? 0 }

    func chats() throws(StorageError) -> [ChatSummary] {
        stored.map { ChatSummary(chatID: $0.key, lastMessage: $0.value.last, lastActivity: activity[$0.key]!) }
    }

    func takeWarnings() -> [String] { [] }

    func contents(_ chat: String) -> [String] { (stored[ChatID(chat)!] ?? []).map(\.content) }
}

@Suite("The session: screens, commands and the draft rules, as data")
struct SessionTests {
    let history = MemoryHistory()
    let session: Session
    let aliceKey = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey
    let bobKey = InputTarget.privateChat(try! GlobalKey(validating: "bob")).draftKey

    init() {
        session = Session(contacts: ContactBook(), history: history)
    }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)) }

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
        let output = session.handle(.leave(.profile, draft))
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
        let stored = history.stored[ChatID("alice")!]![0]
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
        #expect(history.stored.isEmpty)
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
        let output = session.handle(.endOfInput)
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

    @Test func askingForAChatAcceptsOnlyAValidKnownUser() {
        type("/open alice")
        session.handle(.leave(.open, TextDraft(text: "left")))
        let output = type("nobody")
        #expect(output.first?.kind == .error)
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "left")
        session.handle(.leave(.open, TextDraft(text: "left again")))
        type("")
        #expect(session.prompt == "alice> ")
        #expect(session.prefill?.text == "left again")
    }

    @Test func profileLeaveFromHomeIsAnError() {
        let output = session.handle(.leave(.profile, TextDraft(text: "not a draft")))
        #expect(output.first?.kind == .error)
        #expect(session.drafts.isEmpty)
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
}
