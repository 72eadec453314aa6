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

    /// A command on a line of its own is typed into the draft at its cursor, as on a
    /// terminal: the session runs it and the draft stays. (Sent whole, the line `/open bob`
    /// over the draft `b` read as the insertion `/open bo` before it: "no user 'bo'".)
    @Test func aCommandLineIsTypedIntoTheDraftAsOnATerminal() {
        #expect(PipedLine.event(for: "/back", prefill: TextDraft(text: "draft")) == .line("draft/back"))
        #expect(PipedLine.event(for: "/open bob", prefill: TextDraft(text: "b")) == .line("b/open bob"))
        #expect(PipedLine.event(for: "/back", prefill: nil) == .line("/back"))
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
        // Elsewhere Ctrl-D deletes the character under the cursor (and, last, ends the line).
        #expect(PipedLine.events(for: "\u{4}!", prefill: draft) == [.line("dr!ft")])
        #expect(PipedLine.events(for: "\u{4}", prefill: draft) == [])
    }

    /// Backspace (0x7F, and 0x08 as `^H`) and Ctrl-K as on a terminal: an editing key,
    /// so a line ending with one goes on in the next piped line; at the line's start
    /// Backspace does nothing (never a quit, as Ctrl-D would be).
    @Test func backspaceAndCtrlKDeleteAsOnATerminal() {
        #expect(PipedLine.events(for: "\u{7F}!", prefill: draft) == [.line("d!aft")])
        #expect(PipedLine.events(for: "\u{8}\u{8}\u{8}!", prefill: draft) == [.line("!aft")])
        #expect(PipedLine.events(for: "\u{B}!", prefill: draft) == [.line("dr!")])
        #expect(PipedLine.events(for: "\u{1}\u{B}", prefill: draft) == [])
        #expect(PipedLine.events(for: "\u{7F}", prefill: nil) == [])
        var piped = PipedLine()
        piped.play("ab\u{7F}", prefill: { nil }) { _ in Issue.record("a line ending with Backspace is not Enter") }
        #expect(piped.unfinished == TextDraft(text: "a", cursor: 1))
    }

    @Test func theCommandKeyLeavesAndTheRestIsTheCommand() {
        #expect(
            PipedLine.events(for: "!\u{18}/drafts", prefill: draft) == [
                .leave(.command, TextDraft(text: "dr!aft", cursor: 3)), .line("drafts"),
            ])
        #expect(PipedLine.events(for: "\u{18}/", prefill: draft) == [.leave(.command, draft)])
    }

    /// A line that ends with a key ends there, whatever the key: after an editing key the
    /// edit line is still being typed, and the next piped line goes on in it.
    @Test func aLineThatEndsWithAnEditingKeyIsNotEntered() {
        var piped = PipedLine()
        var events: [InputEvent] = []
        func play(_ line: String, prefill: TextDraft? = nil) {
            piped.play(line, prefill: { prefill }) { events.append($0) }
        }
        for key in ["\u{15}", "\u{1}", "\u{5}", "\u{2}", "\u{6}", "\u{4}"] {
            events = []
            play("draft" + key, prefill: nil)
            #expect(events.isEmpty, "\(key.debugDescription) was followed by Enter")
            #expect(piped.unfinished != nil)
            play("")
            #expect(events.count == 1)
            piped = PipedLine()
        }
        // Ctrl-A ends the line; the next one types at the start of it.
        events = []
        play("world\u{1}")
        play("hello ")
        #expect(events == [.line("hello world")])
        // Ctrl-U, then the next line: typed into the emptied line, not the pre-fill.
        events = []
        play("\u{15}", prefill: draft)
        play("new", prefill: draft)
        #expect(events == [.line("new")])
        // A Ctrl-D after the line's keys is not the very next key: it warns again.
        events = []
        play("x\u{15}")
        play("\u{4}")
        #expect(events == [.quitRequest(afterKeys: true)])
        // The issue's script: a restored draft, Ctrl-D twice at its end; nothing is sent.
        events = []
        play("\u{4}\u{4}", prefill: TextDraft(text: "x"))
        #expect(events.isEmpty)
    }

    @Test func aKeyInTheMiddleGoesOnInTheNextLine() {
        #expect(
            PipedLine.events(for: "left\u{18}obob", prefill: nil) == [
                .leave(.open, TextDraft(text: "left")), .line("bob"),
            ])
    }
}
