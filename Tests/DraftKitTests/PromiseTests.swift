import DraftKit
import DraftlineREPL
import Foundation
import Testing

/// SPEC §1a as data: every piece of text in the edit line ends as a message sent on
/// purpose, a draft, or an entry on the undo stack.
@Suite("The promise: text is never lost or sent by mistake")
struct PromiseTests {
    let history = MemoryHistory()
    let session: Frontend
    let alice = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey

    init() { session = Frontend(Session(contacts: ContactBook(), history: history)) }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }

    /// alice's chat, entered with this draft restored.
    func restore(_ draft: TextDraft) {
        type("/open alice")
        session.handle(.leave(.back, draft))
        type("/open alice")
        #expect(session.prefill == draft)
    }

    static func insert(_ typed: String, into text: String, at place: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[..<place])
        view.append(contentsOf: typed.unicodeScalars)
        view.append(contentsOf: scalars[place...])
        return String(view)
    }

    @Test(arguments: 0...13)
    func aCommandTypedIntoARestoredDraftRunsAndLeavesTheDraftAsItWas(_ place: Int) {
        let draft = TextDraft(text: "meeting at 5?", cursor: 7)
        restore(draft)
        let output = type(Self.insert("/drafts", into: draft.text, at: place))
        #expect(output.first?.text == "drafts in memory (1):", "\(output)")
        #expect(history.isEmpty, "nothing was sent")
        #expect(session.prefill == draft)
    }

    @Test func theInsertionIsFoundWhereverItCouldHaveGoneAndTheCursorComesFirst() {
        let draft = TextDraft(text: "x/", cursor: 1)
        #expect(CommandInDraft.find(in: "x/help/", restored: draft) == "/help")
        #expect(CommandInDraft.find(in: "/discarddraft", restored: TextDraft(text: "draft", cursor: 0)) == "/discard")
        #expect(CommandInDraft.find(in: "a/frobb", restored: TextDraft(text: "ab")) == nil)
        #expect(CommandInDraft.find(in: "a//helpb", restored: TextDraft(text: "ab")) == nil)
        // Spaces typed before the `/` set the command apart; `//` after them is a literal `/`.
        #expect(CommandInDraft.find(in: "ab /help", restored: TextDraft(text: "ab")) == "/help")
        #expect(CommandInDraft.find(in: "a /helpb", restored: TextDraft(text: "ab")) == "/help")
        #expect(CommandInDraft.typedInto("ab //x", given: TextDraft(text: "ab")) == .literalSlash("ab /x"))
        #expect(CommandInDraft.find(in: "ab x /help", restored: TextDraft(text: "ab")) == nil)
        #expect(CommandInDraft.find(in: "ab", restored: TextDraft(text: "ab")) == nil)
        #expect(CommandInDraft.find(in: "xb/help", restored: TextDraft(text: "ab")) == nil)
    }

    /// The runs the line editor saw typed decide where the insertion went: `src/` typed
    /// after a draft ending in `usr/` is text, though `/src` before the draft's own `/`
    /// spells the same line; the same text typed at the cursor before it is a command.
    @Test func theTypedRunsSayWhereTheInsertionWent() {
        let draft = TextDraft(text: "look in usr/")
        #expect(CommandInDraft.typedInto("look in usr/help/", given: draft) == .command("/help"))
        #expect(CommandInDraft.typedInto("look in usr/help/", given: draft, inserted: [12..<17]) == nil)
        #expect(CommandInDraft.typedInto("look in usr/help/", given: draft, inserted: [11..<16]) == .command("/help"))
        #expect(
            CommandInDraft.typedInto("look in usr/ /help", given: draft, inserted: [12..<18]) == .command("/help"))
    }

    @Test func discardTypedIntoTheDraftDiscardsItAndDoubleSlashSends() {
        restore(TextDraft(text: "draft", cursor: 0))
        type("/discarddraft")
        #expect(session.prefill == nil)
        type("/undo")
        #expect(session.prefill == TextDraft(text: "draft", cursor: 0))
        type("//notdraft")
        #expect(history.contents("alice") == ["/notdraft"])
    }

    @Test func ctrlCEmptiesTheLineAndPutsItOnTheUndoStack() {
        restore(TextDraft(text: "draft one", cursor: 9))
        let output = session.handle(.interrupt(TextDraft(text: "draft one more", cursor: 14))).lines
        #expect(output.map(\.text) == ["line abandoned: /undo brings it back"])
        #expect(session.prefill == nil)
        #expect(session.drafts.isEmpty)
        type("/undo")
        #expect(session.prefill == TextDraft(text: "draft one more", cursor: 14))
    }

    @Test func ctrlCOnALineEmptiedByAnEditingKeyKeepsTheDraftOnTheStack() {
        restore(TextDraft(text: "kept"))
        session.handle(.interrupt(TextDraft(text: "")))
        #expect(session.prefill == nil)
        type("/undo")
        #expect(session.prefill?.text == "kept")
    }

    /// Ctrl-C takes the media list with the line: the next message sends neither, and
    /// `/undo` brings both back as one draft.
    @Test func ctrlCTakesTheMediaListWithTheLine() throws {
        let file = NSTemporaryDirectory() + "/promise-\(UInt32.random(in: 0...UInt32.max)).png"
        try #require(FileManager.default.createFile(atPath: file, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: file) }
        type("/open alice")
        type("/attach \(file)")
        session.handle(.interrupt(TextDraft(text: "caption")))
        #expect(session.drafts.attachments(for: alice).isEmpty)
        #expect(session.drafts.undoStack.map(\.draft.attachments.count) == [1])
        type("/undo")
        #expect(session.drafts.attachments(for: alice).count == 1)
        #expect(session.drafts.text(for: alice)?.text == "caption")
        #expect(session.drafts.undoStack.isEmpty)
    }

    /// On an empty line the media list makes an entry of its own.
    @Test func ctrlCOnAnEmptyLineSetsTheMediaListAside() throws {
        let file = NSTemporaryDirectory() + "/promise-\(UInt32.random(in: 0...UInt32.max)).png"
        try #require(FileManager.default.createFile(atPath: file, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: file) }
        type("/open alice")
        type("/attach \(file)")
        let lines = session.handle(.interrupt(TextDraft(text: ""))).lines.map(\.text)
        #expect(lines.contains { $0.hasPrefix("line abandoned with its attached file promise-") }, "\(lines)")
        #expect(!session.drafts.hasDraft(for: alice))
        type("/undo")
        #expect(session.drafts.attachments(for: alice).count == 1)
    }

    /// bob's draft waits; alice's, restored and emptied in the line, is none (D17).
    func restoreWithAnotherDraft() {
        type("/open bob")
        session.handle(.leave(.back, TextDraft(text: "for bob")))
        restore(TextDraft(text: "unsent"))
    }

    @Test func ctrlDWithDraftsWarnsFirstAndQuitsOnTheSecond() {
        restoreWithAnotherDraft()
        let first = session.handle(.quitRequest(afterKeys: false)).lines
        #expect(!session.hasQuit)
        #expect(
            first.map(\.text) == [
                "1 unsent draft would be forgotten: Ctrl-D again (or /quit) quits; anything else carries on"
            ])
        type("/drafts")  // anything else disarms it
        session.handle(.quitRequest(afterKeys: false))
        #expect(!session.hasQuit)
        session.handle(.quitRequest(afterKeys: false))
        #expect(session.hasQuit)
    }

    @Test func ctrlDAfterOtherKeysWarnsAgainAndOnlyTheVeryNextCtrlDQuits() {
        restoreWithAnotherDraft()
        session.handle(.quitRequest(afterKeys: false))
        let second = session.handle(.quitRequest(afterKeys: true)).lines  // x, Ctrl-U, Ctrl-D
        #expect(!session.hasQuit)
        #expect(second.map(\.text).first?.hasPrefix("1 unsent draft would be forgotten") == true, "\(second)")
        session.handle(.quitRequest(afterKeys: true))
        #expect(!session.hasQuit)
        session.handle(.quitRequest(afterKeys: false))
        #expect(session.hasQuit)
    }

    @Test func ctrlDWithoutDraftsQuitsAtOnce() {
        type("/open alice")
        session.handle(.quitRequest(afterKeys: false))
        #expect(session.hasQuit)
    }

    @Test func aRecalledLineSentInsteadOfTheDraftPutsTheDraftOnTheStack() {
        restore(TextDraft(text: "half written"))
        let output = session.handle(
            .line("an earlier line, recalled"), origin: LineOrigin(recalledOver: [TextDraft(text: "half written")]))
        #expect(output.lines.last?.text.contains("/undo brings it back") == true, "\(output.lines)")
        #expect(history.contents("alice") == ["an earlier line, recalled"])
        #expect(session.prefill == nil)
        type("/undo")
        #expect(session.prefill?.text == "half written")
    }

    /// A history line as history gave it holds nothing of the user's, however it is spelled:
    /// refused where no chat is open, the text it replaced goes on the undo stack.
    @Test func aRefusedRecallThatSpellsTheOwnLineDoesNotHoldIt() {
        type("/open alice")
        type("/profile")
        let output = session.handle(
            .line("help/me out"), origin: LineOrigin(recalledOver: [TextDraft(text: "help/")], kind: .recalled))
        #expect(output.lines.contains { $0.text.contains("the line a recall replaced is on the undo stack") })
        #expect(session.drafts.undoStack.last?.draft.text?.text == "help/")
    }

    @Test(arguments: ["hello world", "oh, hello", "hel-lo", "h.e.l.l.o!"])
    func aDraftFinishedByTypingIntoItLeavesNothingOnTheStack(_ sent: String) {
        restore(TextDraft(text: "hello"))
        type(sent)
        let output = type("/undo")
        #expect(output.first?.text.hasPrefix("nothing to undo") == true, "\(sent)")
    }

    @Test func undoNeverOverwritesANewerDraftSilently() {
        restore(TextDraft(text: "older"))
        type("/discard")
        session.handle(.leave(.back, TextDraft(text: "newer text")))
        let output = type("/undo")
        #expect(output.last?.text.contains("the draft that was there is on the undo stack") == true, "\(output)")
        #expect(session.drafts.text(for: alice)?.text == "older")
        type("/undo")
        #expect(session.drafts.text(for: alice)?.text == "newer text")
    }

    @Test func anEntryOverTheUndoStacksDepthNamesTheOneItForgets() {
        type("/open alice")
        for index in 1...Drafts.undoDepth {
            let output = session.handle(.interrupt(TextDraft(text: "line \(index)"))).lines
            #expect(output.map(\.text) == ["line abandoned: /undo brings it back"])
        }
        let output = session.handle(.interrupt(TextDraft(text: "one too many"))).lines
        #expect(
            output.map(\.text) == [
                "the undo stack keeps \(Drafts.undoDepth) entries: its oldest, \"line 1\", is forgotten",
                "line abandoned: /undo brings it back",
            ])
        #expect(
            session.drafts.undoStack.map { $0.draft.text?.text } == (2...20).map { "line \($0)" } + ["one too many"])
    }

    /// A failed `/` with a name typed after it (`//name`): deleting the first `/` helps only
    /// when `/name` is a command.
    @Test func aFailedAttemptAgainSaysWhetherDeletingTheSlashHelps() {
        #expect(
            Presenter().describe(.unknownCommand("//drafts"))
                == "unknown command '//drafts': delete the first / to run /drafts")
        #expect(
            Presenter().describe(.unknownCommand("//draft"))
                == "unknown command '//draft': /draft is none either; type /help for the list")
    }

    @Test func theCommandKeyRunsACommandAndTheDraftComesBack() {
        restore(TextDraft(text: "keep me", cursor: 2))
        session.handle(.leave(.command, TextDraft(text: "keep me!", cursor: 8)))
        #expect(session.prompt == "command: /")
        #expect(session.prefill == nil)
        let output = type("drafts")
        #expect(output.first?.text == "drafts in memory (1):")
        #expect(session.prompt == "alice> ")
        #expect(session.prefill == TextDraft(text: "keep me!", cursor: 8))
        session.handle(.leave(.command, TextDraft(text: "keep me!", cursor: 8)))
        type("/open bob")
        #expect(session.prompt == "bob> ")
        #expect(session.drafts.text(for: alice)?.text == "keep me!")
        session.handle(.leave(.command, TextDraft(text: "")))
        session.handle(.interrupt(TextDraft(text: "hel")))
        #expect(session.prompt == "bob> ")
    }

    @Test func commandTabCompletionWorksWithoutTheSlash() {
        type("/open alice")
        session.handle(.leave(.command, TextDraft(text: "x")))
        #expect(session.complete("dr") == .insert("afts "))
        #expect(session.complete("open al") == .insert("ice"))
    }

    @Test func withoutAnEditLineAFailedSendGoesOnTheUndoStackAndNothingIsGlued() {
        let session = Frontend(Session(contacts: ContactBook(), history: history, capabilities: .pipe))
        @discardableResult func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }
        type("/open alice")
        type("one")
        history.failNextAppend = true
        let output = type("two")
        #expect(output.last?.kind == .error)
        #expect(output.last?.text.contains("'two' is on the undo stack") == true, "\(output)")
        #expect(session.prefill == nil)
        type("three")
        #expect(history.contents("alice") == ["one", "three"])
        type("/undo")
        #expect(session.drafts.text(for: alice)?.text == "two")
    }

    @Test func enterWhereNoChatIsOpenGivesTheLineBack() {
        let output = type("hello?")
        #expect(output.first?.kind == .error)
        #expect(session.prefill?.text == "hello?")
    }

    @Test func aProfileReachedFromACommentThreadShowsThatThreadsDraft() {
        type("/comment tweet 123 @bob")
        let output = session.handle(.leave(.profile, TextDraft(text: "a reply"))).lines
        #expect(output.contains { $0.text == "draft:      waiting (tweet_123_bob)" }, "\(output)")
    }

    @Test func everyKeyIsNamedAsItIsBound() {
        session.presenter.keys = KeyLabels(bound: ["draftline-back": ["^Xb", "^T"], "draftline-profile": ["^Y"]])
        type("/trace on")
        type("/open alice")
        let output = session.handle(.leave(.profile, TextDraft(text: "x"))).lines
        #expect(output.first?.text.contains("(^Y (draftline-profile))") == true, "\(output)")
        #expect(output.contains { $0.text == "/back or ^T returns" })
        #expect(type("/help").contains { $0.text.hasPrefix("  ^T    draftline-back ") })
    }
}
