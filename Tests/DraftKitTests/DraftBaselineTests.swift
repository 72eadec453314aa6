import DraftlineREPL
import Foundation
import Testing

@testable import DraftKit

/// SPEC §1a's baseline as data, across reads and leaves: a draft kept with a command
/// attempt typed into it keeps the baseline the attempt was typed into (issue 28, D16).
@Suite("A draft remembers its baseline")
struct DraftBaselineTests {
    let history = MemoryHistory()
    let session: Frontend
    let alice = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey

    init() { session = Frontend(Session(contacts: ContactBook(), history: history)) }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }

    /// alice's chat, entered with `hi there` restored and ` /attach /nope` typed into it
    /// and left with `key`: the line is the draft, its baseline `hi there`.
    func keepAttempt(leaving key: LeaveKey) {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "hi there")))
        type("/open alice")
        let output = type("hi there /attach /nope")
        #expect(output.first?.text.hasPrefix("cannot attach") == true, "\(output)")
        session.handle(.leave(key, TextDraft(text: "hi there /attach /nope")))
        #expect(session.drafts.text(for: alice)?.text == "hi there /attach /nope")
        #expect(session.drafts.baseline(for: alice) == TextDraft(text: "hi there", cursor: 8))
    }

    @Test(arguments: [LeaveKey.back, .command, .open, .profile])
    func anAttemptKeptByALeaveIsJudgedAgainstTheOldBaseline(_ key: LeaveKey) {
        keepAttempt(leaving: key)
        switch key {
        case .back: type("/open alice")
        case .open: type("alice")
        case .command: type("drafts")
        case .profile: session.handle(.leave(.back, TextDraft(text: "")))
        }
        #expect(session.prefill?.text == "hi there /attach /nope")
        #expect(session.baseline == TextDraft(text: "hi there", cursor: 8))
        let again = type("hi there /attach /nope")
        #expect(again.first?.text.hasPrefix("cannot attach '/nope'") == true, "\(again)")
        #expect(history.isEmpty, "nothing was sent")
        // A known command typed onto the draft as kept runs; the draft stays.
        let drafts = type("hi there /attach /nope /drafts")
        #expect(drafts.first?.text == "drafts in memory (1):", "\(drafts)")
        #expect(session.prefill?.text == "hi there /attach /nope")
        // With the attempt deleted, the line is a message.
        type("hi there")
        #expect(history.contents("alice") == ["hi there"])
        #expect(session.drafts.baseline(for: alice) == nil)
    }

    @Test func aDraftKeptWithoutAnAttemptIsItsOwnBaselineAgain() {
        keepAttempt(leaving: .back)
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "hi there, /attach /nope")))
        #expect(session.drafts.baseline(for: alice) == nil)
        type("/open alice")
        type("hi there, /attach /nope")
        #expect(history.contents("alice") == ["hi there, /attach /nope"])
    }

    @Test func aRecalledCommandOverTheAttemptKeepsItWithItsBaseline() {
        type("/open alice")
        session.handle(.leave(.back, TextDraft(text: "hi there")))
        type("/open alice")
        session.handle(
            .line("/attach /nope"),
            origin: LineOrigin(recalledOver: [TextDraft(text: "hi there /attach /nope")], kind: .recalled))
        #expect(session.drafts.text(for: alice)?.text == "hi there /attach /nope")
        #expect(session.drafts.baseline(for: alice) == TextDraft(text: "hi there", cursor: 8))
        type("/drafts")
        let again = type("hi there /attach /nope")
        #expect(again.first?.text.hasPrefix("cannot attach") == true, "\(again)")
        #expect(history.isEmpty)
    }

    /// Ctrl-C clears the draft and its baseline; the attempt goes on the undo stack with
    /// the baseline it was typed into, and `/undo` brings both back: Enter is the attempt
    /// again, never a message (it was sent: /undo cleared the baseline).
    @Test func ctrlCClearsTheBaselineAndUndoBringsItBack() {
        keepAttempt(leaving: .back)
        type("/open alice")
        session.handle(.interrupt(TextDraft(text: "hi there /attach /nope")))
        #expect(session.drafts.baseline(for: alice) == nil)
        type("/undo")
        #expect(session.drafts.text(for: alice)?.text == "hi there /attach /nope")
        #expect(session.drafts.baseline(for: alice) == TextDraft(text: "hi there", cursor: 8))
        let again = type("hi there /attach /nope")
        #expect(again.first?.text.hasPrefix("cannot attach") == true, "\(again)")
        #expect(history.isEmpty)
    }

    @Test func discardClearsTheBaseline() {
        keepAttempt(leaving: .back)
        type("/open alice")
        type("/discard")
        #expect(session.drafts.baseline(for: alice) == nil)
    }

    @Test func theStoreForgetsABaselineWithItsDraft() {
        var store = Drafts()
        let key = alice
        store.saveText(TextDraft(text: "a /x"), for: key, baseline: TextDraft(text: "a"))
        #expect(store.baseline(for: key) == TextDraft(text: "a"))
        store.saveText(TextDraft(text: "a /x"), for: key)
        #expect(store.baseline(for: key) == nil)
        store.saveText(TextDraft(text: "a /x"), for: key, baseline: TextDraft(text: "a"))
        store.saveText(TextDraft(text: ""), for: key, baseline: TextDraft(text: "a"))
        #expect(store.baseline(for: key) == nil)
        store.saveText(TextDraft(text: "a /x"), for: key, baseline: TextDraft(text: "a"))
        store.remove(key)
        #expect(store.baseline(for: key) == nil)
        store.saveText(TextDraft(text: "a /x"), for: key, baseline: TextDraft(text: "a"))
        store.removeAll()
        #expect(store.baseline(for: key) == nil)
    }
}
