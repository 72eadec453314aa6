import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// `/expect` and `/wait total` as data: what the forms parse to, quoted text that reads
/// back as it was written, and the checks against a session.
@Suite("Expectations as data")
struct ExpectationTests {
    /// Any text, written as an expectation writes it, parses back to itself: quotes,
    /// backslashes, line breaks, tabs, escapes, other control characters, CJK, emoji.
    @Test func quotedTextReadsBackAsItWasWhateverItHolds() throws {
        var random = SeededGenerator(seed: 32)
        let pieces = ["\"", "\\", "\n", "\t", "\r", "\u{1B}[31m", "\u{7F}", "\u{85}", "a", " ", "你好", "😀", "\\n", "}"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                pieces.randomElement(using: &random) ?? ""
            }.joined()
            let written = Expectation.quoted(text)
            #expect(!written.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(try Expectation(parsing: "undo-top " + written) == .undoTop(text), "\(written)")
        }
        #expect(try Expectation(parsing: #"line "a\u{1F600}b" cursor 2"#) == .line("a😀b", cursor: 2))
        for bad in [#""\q""#, #""\u{}""#, #""\u{110000}""#, #""\u{12""#, #""\""#] {
            #expect(throws: DraftlineError.self) { try Expectation(parsing: "undo-top " + bad) }
        }
    }

    @Test func theFormsParseToWhatTheyCheck() throws {
        #expect(try Expectation(parsing: "message 2 type image") == .message(2, text: nil, sender: nil, type: "image"))
        #expect(
            try Expectation(parsing: #"last-message "hi" from bob"#)
                == .message(1, text: "hi", sender: GlobalKey(validating: "bob"), type: nil))
        #expect(try Expectation(parsing: "drafts 3") == .drafts(3))
        #expect(try Expectation(parsing: "undo 0") == .undo(0))
        #expect(try Expectation(parsing: #"line """#) == .line("", cursor: nil))
        for bad in ["message", "message 0", "undo-top", "undo-top bare", #"line "x" 3"#, "drafts -1", "undo x"] {
            #expect(throws: DraftlineError.self, "\(bad)") { try Expectation(parsing: bad) }
        }
    }

    /// Every form, as `--record` writes it (``Expectation/command``), parses back to itself:
    /// the recorder and the parser cannot drift apart.
    @Test func everyFormWrittenParsesBackToItself() throws {
        let alice = try GlobalKey(validating: "alice")
        let key = InputTarget.privateChat(alice).draftKey
        let comment = InputTarget.comment(.tweet, id: 7, replyTo: alice).draftKey
        var all: [DraftKit.Expectation] = [
            .draft(key, text: "a \"b\"\n", cursor: 3, media: 1), .draft(comment, text: nil, cursor: nil, media: nil),
            .noDraft(key), .drafts(2), .messages(0), .message(3, text: "x", sender: alice, type: "image"),
            .message(1, text: nil, sender: nil, type: nil), .undo(1), .undoTop("t\t"), .line("", cursor: 0),
            .screen("home"), .screen("alice"), .screen("profile alice"), .screen("tweet 7"), .error(nil),
        ]
        all += DraftlineError.Kind.allCases.map { DraftKit.Expectation.error($0) }
        for expectation in all {
            let command = expectation.command
            #expect(command.hasPrefix("/expect "))
            #expect(try Expectation(parsing: String(command.dropFirst(8))) == expectation, "\(command)")
        }
        // Every form is written by some case above.
        let forms = Set(all.map { String($0.command.split(separator: " ")[1]) })
        let named = DraftKit.Expectation.Form.allCases.map(\.rawValue).filter { $0 != "last-message" }
        #expect(forms.isSuperset(of: named))
        #expect(throws: DraftlineError.self) { try Expectation(parsing: "error nope") }
        #expect(throws: DraftlineError.self) { try Expectation(parsing: "error unknown-command x") }
        #expect(Expectation.checksError("/expect  error bogus") && !Expectation.checksError("/expect errors"))
        #expect(!Expectation.checksError(" /expect error") && !Expectation.checksError("/expect screen error"))
    }

    /// PipeMode.md names every kind `/expect error` takes.
    @Test func pipeModeNamesEveryErrorKind() throws {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Documentation/PipeMode.md")
        let text = try String(contentsOf: guide, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        for kind in DraftlineError.Kind.allCases {
            #expect(text.contains("`\(kind.rawValue)`"), "\(kind.rawValue)")
        }
    }

    /// `/expect error` checks the errors of the last step that was no check: met after a
    /// failed command (checks in between change nothing), not after a line that got none;
    /// a name refused at a prompt and then given right is one step.
    @Test func anErrorIsCheckedAfterItsLine() throws {
        let session = Session(contacts: ContactBook(), history: InMemoryHistory())
        session.handle(.line("/open alice"))
        session.handle(.line("/nope"))
        #expect(
            session.handle(.line("/expect error unknown-command")).reports == [.expectationMet(.error(.unknownCommand))]
        )
        #expect(session.handle(.line("/expect screen alice")).reports == [.expectationMet(.screen("alice"))])
        #expect(session.handle(.line("/expect error")).reports == [.expectationMet(.error(nil))])
        #expect(
            session.handle(.line("/expect error file-missing")).reports == [
                .error(.expectationFailed(.error(.fileMissing), found: .errors([.unknownCommand])))
            ])
        session.handle(.line("/back"))
        #expect(
            session.handle(.line("/expect error")).reports == [
                .error(.expectationFailed(.error(nil), found: .errors([])))
            ])
        session.handle(.leave(.open, TextDraft(text: "")))
        session.handle(.line("nobody"))
        session.handle(.line("bob"))
        #expect(session.handle(.line("/expect error unknown-user")).reports == [.expectationMet(.error(.unknownUser))])
    }

    /// `/expect line` checks the edit line as the command found it: the pre-filled draft,
    /// its cursor where it was left; a command typed into it does not change it.
    @Test func theLineIsTheOneTheCommandWasTypedInto() throws {
        let session = Session(contacts: ContactBook(), history: InMemoryHistory())
        session.handle(.line("/open alice"))
        session.handle(.leave(.profile, TextDraft(text: "Bob's ID is ", cursor: 6)))
        session.handle(.line("/back"))
        let typed = "Bob's /expect line \"Bob's ID is \" cursor 6ID is "
        #expect(session.handle(.line(typed)).reports == [.expectationMet(.line("Bob's ID is ", cursor: 6))])
        let wrong = session.handle(.line("Bob's /expect line \"Bob's ID is \" cursor 12ID is ")).reports
        #expect(
            wrong.contains(
                .error(
                    .expectationFailed(
                        .line("Bob's ID is ", cursor: 12), found: .line(TextDraft(text: "Bob's ID is ", cursor: 6))))))
        #expect(
            session.drafts.text(for: InputTarget.privateChat(try GlobalKey(validating: "alice")).draftKey)?.cursor == 6)
    }

    /// `/wait total` is over when the open chat holds that many messages, whenever they
    /// came; it says so in one line, or that time ran out.
    @Test func aWaitForATotalCountsTheChatsMessages() throws {
        let history = InMemoryHistory()
        let session = Session(contacts: ContactBook(), history: history)
        let two = Wait(until: .total(2), seconds: 1)
        #expect(throws: DraftlineError.noChatOpen) {
            try Command(parsing: "/wait total 2", capabilities: .pipe).run(in: session)
        }
        session.handle(.line("/open alice"))
        session.handle(.line("one"))
        #expect(!session.waitIsOver(two))
        #expect(session.endWait(two) == [.error(.totalNotReached(held: 1, wanted: 2, seconds: 1))])
        #expect(session.endWait(two, interrupted: true) == [.error(.totalNotReached(held: 1, wanted: 2, seconds: nil))])
        session.handle(.line("two"))
        #expect(session.waitIsOver(two))
        #expect(session.endWait(two) == [.waited(.total(2), count: 2)])
        #expect(session.endWait(Wait(until: .total(1), seconds: 1)) == [.waited(.total(1), count: 2)])
        let shown = Frontend(session).lines(for: [.waited(.total(1), count: 2), .waited(.arrivals(1), count: 1)])
        #expect(shown.map(\.text) == ["ok: the chat holds 2 messages (1 waited for)", "ok: 1 message arrived"])
    }
}
