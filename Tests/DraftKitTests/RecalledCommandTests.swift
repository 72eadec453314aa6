import DraftKit
import DraftlineREPL
import Testing

/// SPEC §1a, "a recalled command entered over text": the text the recall replaced stays as
/// the chat's draft, and when the next edit line does not show it (the command failed
/// and is back to fix, or it went elsewhere), one line says where it is and how to get it
/// back.
@Suite("A recalled command over text says where the text is kept")
struct RecalledCommandTests {
    let history = MemoryHistory()
    let session: Frontend
    let alice = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey
    let typed = TextDraft(text: "half typed", cursor: 10)

    init() { session = Frontend(Session(contacts: ContactBook(), history: history)) }

    @discardableResult
    func type(_ line: String) -> [OutputLine] { session.handle(.line(line)).lines }

    /// Enter on `command`, recalled with Up over `typed`.
    func recall(_ command: String) -> [String] {
        session.handle(.line(command), origin: LineOrigin(recalledOver: [typed])).lines.map(\.text)
    }

    @Test func aFailedRecalledCommandComesBackAndTheTextItReplacedIsNamed() {
        type("/open alice")
        let shown = recall("/open nosuchuser")
        #expect(
            shown == [
                "no user 'nosuchuser': /open then Tab lists who is here",
                "your text is kept as this chat's draft: \"half typed\"; it is back in the line once a command runs here",
            ])
        #expect(session.prefill?.text == "/open nosuchuser")
        #expect(session.drafts.text(for: alice) == typed)
        type("/drafts")
        #expect(session.prefill == typed)
        #expect(session.ledgerCatches == 0)
        #expect(history.contents("alice").isEmpty)
    }

    @Test func aRecalledCommandThatGoesElsewhereNamesTheCommandThatComesBack() {
        type("/open alice")
        #expect(
            recall("/open bob").last
                == "your text is kept as the draft for privateMessage_alice: \"half typed\"; /open alice brings it back"
        )
        #expect(session.prompt == "bob> ")
        type("/open alice")
        #expect(session.prefill == typed)
        type("/comment tweet 5 @bob")
        #expect(
            recall("/back").last
                == "your text is kept as the draft for tweet_5_bob: \"half typed\"; /comment tweet 5 @bob brings it back"
        )
        #expect(session.ledgerCatches == 0)
    }

    /// A recalled command that runs here gives the line the draft back: nothing to say.
    /// One that discards the draft puts it on the undo stack, and says that instead.
    @Test func theLineIsSaidOnlyWhenTheDraftIsOutOfSight() {
        type("/open alice")
        #expect(!recall("/history").contains { $0.hasPrefix("your text is kept") })
        #expect(session.prefill == typed)
        let discarded = recall("/discard")
        #expect(!discarded.contains { $0.hasPrefix("your text is kept") }, "\(discarded)")
        #expect(discarded.contains("draft discarded: /undo brings it back"), "\(discarded)")
        #expect(session.prefill == nil)
        type("/undo")
        #expect(session.prefill == typed)
    }

    /// Long text is shortened and made harmless in the line.
    @Test func theTextNamedIsShortAndHarmless() {
        type("/open alice")
        let long = TextDraft(text: "\u{1B}[2J" + String(repeating: "x", count: 60))
        let shown = session.handle(.line("/open nosuchuser"), origin: LineOrigin(recalledOver: [long])).lines.map(
            \.text)
        #expect(
            shown.last
                == "your text is kept as this chat's draft: \"^[[2Jxxxxxxxxxxxxxxxxxxxxxxxxx…\"; "
                + "it is back in the line once a command runs here")
        #expect(session.drafts.text(for: alice)?.text == long.text)
    }
}
