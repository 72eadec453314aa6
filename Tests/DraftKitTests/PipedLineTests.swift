import DraftKit
import DraftlineREPL
import Testing

@Suite("Piped lines stand for keystrokes")
struct PipedLineTests {
    @Test func plainLineIsTypedIntoThePrefillAtItsCursor() {
        let prefill = TextDraft(text: "Bob's ID is ")
        #expect(PipedLine.event(for: "bob", prefill: prefill) == .line("Bob's ID is bob"))
        #expect(PipedLine.event(for: "X", prefill: TextDraft(text: "ab", cursor: 1)) == .line("aXb"))
        #expect(PipedLine.event(for: "hello", prefill: nil) == .line("hello"))
    }

    @Test func commandLineLeavesThePrefillAlone() {
        #expect(PipedLine.event(for: "/back", prefill: TextDraft(text: "draft")) == .line("/back"))
    }

    @Test func trailingKeyBytesLeaveWithTheText() {
        #expect(
            PipedLine.event(for: "Bob's ID is \u{18}p", prefill: nil)
                == .leave(.profile, TextDraft(text: "Bob's ID is ")))
        #expect(PipedLine.event(for: "\u{18}b", prefill: nil) == .leave(.back, TextDraft(text: "")))
        #expect(
            PipedLine.event(for: "more\u{18}o", prefill: TextDraft(text: "ab", cursor: 1))
                == .leave(.open, TextDraft(text: "amoreb", cursor: 5)))
        #expect(PipedLine.event(for: "x\u{18}q", prefill: nil) == .line("x\u{18}q"))
    }
}

@Suite("Keys in a piped line")
struct PipedKeyTests {
    let draft = TextDraft(text: "draft", cursor: 2)

    @Test func ctrlCAbandonsAndTheRestStartsAFreshLine() {
        #expect(
            PipedLine.events(for: "xy\u{3}new", prefill: draft) == [
                .interrupt(TextDraft(text: "drxyaft", cursor: 4)), .line("new"),
            ])
    }

    @Test func ctrlUEmptiesTheLineAndCtrlDOnAnEmptyLineAsksToQuit() {
        #expect(PipedLine.events(for: "\u{15}fresh", prefill: draft) == [.line("fresh")])
        #expect(PipedLine.events(for: "\u{15}\u{4}", prefill: draft) == [.quitRequest(afterKeys: true)])
        #expect(PipedLine.events(for: "\u{4}", prefill: nil) == [.quitRequest(afterKeys: false)])
        #expect(
            PipedLine.events(for: "\u{4}x\u{15}\u{4}\u{4}", prefill: nil) == [
                .quitRequest(afterKeys: false), .quitRequest(afterKeys: true), .quitRequest(afterKeys: false),
            ])
        #expect(PipedLine.events(for: "\u{4}", prefill: draft) == [.line("drft")])
    }

    @Test func theCommandKeyLeavesAndTheRestIsTheCommand() {
        #expect(
            PipedLine.events(for: "!\u{18}/drafts", prefill: draft) == [
                .leave(.command, TextDraft(text: "dr!aft", cursor: 3)), .line("drafts"),
            ])
        #expect(PipedLine.events(for: "\u{18}/", prefill: draft) == [.leave(.command, draft)])
    }

    @Test func aKeyInTheMiddleGoesOnInTheNextLine() {
        #expect(
            PipedLine.events(for: "left\u{18}obob", prefill: nil) == [
                .leave(.open, TextDraft(text: "left")), .line("bob"),
            ])
    }
}
