import ReferenceModel
import Testing

/// The reference model against SPEC §1a's rows and issue 28's ten items, as plain data.
@Suite("The reference model of SPEC §1a")
struct ReferenceModelTests {
    typealias Model = ReferenceModel

    /// Plays steps on a fresh model.
    static func play(_ steps: [ModelStep], pipe: Bool = false, vi: Bool = false) -> Model {
        var model = Model(onPipe: pipe, vi: vi, attachable: ["/tmp/photo.png"])
        for step in steps { model.apply(step) }
        return model
    }

    /// `/open alice`, a draft left with `^X b`, `/open alice` again: the draft restored.
    static let restored: [ModelStep] = [
        .type("/open alice"), .enter, .type("draft four"), .leave(.back), .type("/open alice"), .enter,
    ]

    static func texts(_ model: Model) -> [String] { model.sent.map(\.text) }

    @Test func aDraftIsRestoredAndSent() {
        let model = Self.play(Self.restored + [.type(" now"), .enter])
        #expect(Self.texts(model) == ["draft four now"])
        #expect(model.drafts.isEmpty && model.undo.isEmpty && model.line.isEmpty)
    }

    @Test func aCommandTypedIntoARestoredDraftRunsAndTheDraftStays() {
        let model = Self.play(Self.restored + [.type("/drafts"), .enter])
        #expect(model.sent.isEmpty)
        #expect(model.line.text == "draft four" && model.line.cursor == 10)
        #expect(model.drafts["privateMessage_alice"]?.text == "draft four")
    }

    /// D21: a recalled command run over the user's line in a chat keeps their line before
    /// the first recall as the draft; a recalled line they edited goes on the undo stack,
    /// never in the draft's place. Where no chat is open the latest edit is on top.
    @Test func anEditedRecallNeverTakesTheDraftsPlace() {
        let edited: [ModelStep] = [.recall("/profile"), .type(" bob"), .recall("/drafts"), .enter]
        let chat = Self.play(Self.restored + edited)
        #expect(chat.sent.isEmpty && chat.line.text == "draft four")
        #expect(chat.drafts["privateMessage_alice"]?.text == "draft four")
        #expect(chat.undo.map(\.text) == ["/profile bob"])
        let home = Self.play([.type("kept here"), .enter] + edited)
        #expect(home.sent.isEmpty && home.undo.first?.text == "/profile bob")
        #expect(home.undo.map(\.text).contains("kept here"))
    }

    /// README: a command run on a line the user deleted the whole draft from (typed,
    /// recalled, or fixed after it failed) leaves the line empty, as they left it; the draft
    /// stays (a command never changes it) and does not come back to be sent with the next
    /// message (the new-user trial's `old ideanew`).
    @Test func aCommandOnALineTheDraftWasDeletedFromLeavesItEmpty() {
        for steps: [ModelStep] in [
            [.killLine, .type("/drafts"), .enter], [.backspace(10), .type("/drafts"), .enter],
            [.killLine, .recall("/drafts"), .enter],
            [.killLine, .type("/drfts"), .enter, .killLine, .type("/drafts"), .enter],
        ] {
            for pipe in [false, true] {
                let ran = Self.play(Self.restored + steps, pipe: pipe)
                #expect(ran.line.isEmpty, "\(steps) pipe \(pipe)")
                #expect(ran.drafts["privateMessage_alice"]?.text == "draft four", "\(steps) pipe \(pipe)")
                let sent = Self.play(Self.restored + steps + [.type("new"), .enter], pipe: pipe)
                #expect(Self.texts(sent) == ["new"] && sent.drafts.isEmpty, "\(steps) pipe \(pipe)")
            }
        }
        // /discard acts on the draft itself: it goes on the stack.
        let discarded = Self.play(Self.restored + [.killLine, .type("/discard"), .enter])
        #expect(discarded.drafts.isEmpty && discarded.undo.map(\.text) == ["draft four"])
    }

    /// PipeMode.md: on a pipe, a line that starts with an editing key right after a failed
    /// command edits the line a terminal gives back (the trial's `/drafs`, Backspace, `ts`
    /// had sent the draft with `ts` typed into it); a line that starts with text is typed
    /// into the draft as restored.
    @Test func keysThatFixAFailedCommandFixItOnAPipe() {
        let fix: [ModelStep] = [.type("/drafs"), .enter, .backspace(1), .type("ts"), .enter]
        let fixed = Self.play(Self.restored + fix, pipe: true)
        #expect(fixed.sent.isEmpty && fixed.line.text == "draft four")
        let typed = Self.play(Self.restored + [.type("/drafs"), .enter, .type(" ok"), .enter], pipe: true)
        #expect(Self.texts(typed) == ["draft four ok"])
    }

    /// README: spaces typed before the `/` only set the command apart from the draft; a
    /// pasted `/` after typed spaces is still text, and a `//` set apart sends one `/`.
    @Test func aCommandSetApartBySpacesIsACommand() {
        let spaced = Self.play(Self.restored + [.type(" /drafts"), .enter])
        #expect(spaced.sent.isEmpty && spaced.line.text == "draft four")
        #expect(spaced.drafts["privateMessage_alice"]?.text == "draft four")
        let failed = Self.play(Self.restored + [.type("  /opne bob"), .enter, .enter])
        #expect(failed.sent.isEmpty && failed.line.text == "draft four  /opne bob")
        let pasted = Self.play(Self.restored + [.type(" "), .paste("/etc/hosts"), .enter])
        #expect(Self.texts(pasted) == ["draft four /etc/hosts"])
        let literal = Self.play(Self.restored + [.type(" //x"), .enter])
        #expect(Self.texts(literal) == ["draft four /x"])
        // On an empty line, a line that does not start with `/` is a message.
        let home = Self.play([.type("/open bob"), .enter, .type(" /drafts"), .enter])
        #expect(Self.texts(home) == [" /drafts"])
    }

    /// Issue 28 item 1: a failed command, then Enter again, sends nothing (on both).
    @Test(arguments: ["/opne bob", "/attach /nope/file.png"])
    func enterAgainAfterAFailedCommandSendsNothing(command: String) {
        let model = Self.play(Self.restored + [.type(command), .enter, .enter])
        #expect(model.sent.isEmpty)
        #expect(model.line.text == "draft four" + command)
        #expect(model.drafts["privateMessage_alice"]?.text == "draft four")
        // On a pipe the failed line is not given back, but an empty line right after it is
        // Enter again on it (the lead's reading): nothing sent, however often.
        let piped = Self.play(Self.restored + [.type(command), .enter, .enter, .enter], pipe: true)
        #expect(piped.sent.isEmpty && piped.line.text == "draft four")
        #expect(piped.drafts["privateMessage_alice"]?.text == "draft four" && piped.undo.isEmpty)
        // A piped line that starts with text starts from the draft as restored; one that
        // starts with an editing key (an arrival between) edits the failed line: an attempt.
        let next = Self.play(Self.restored + [.type(command), .enter, .type(" now"), .enter], pipe: true)
        #expect(Self.texts(next) == ["draft four now"])
        let later = Self.play(Self.restored + [.type(command), .enter, .arrival, .home, .enter], pipe: true)
        #expect(later.sent.isEmpty && later.line.text == "draft four")
    }

    /// Issue 28 item 2: a corrected command runs with the draft as it was; deleting the
    /// typed part makes the line a plain draft.
    @Test func aCorrectedCommandRunsAndDeletingItSendsTheDraft() {
        let base = [ModelStep.type("/open alice"), .enter, .type("meet at the cafe"), .leave(.back)]
        let opened = base + [.type("/open alice"), .enter, .type("/opne bob"), .enter, .backspace(9)]
        let corrected = Self.play(opened + [.type("/drfts"), .enter])
        #expect(corrected.sent.isEmpty && corrected.line.text == "meet at the cafe/drfts")
        let valid = Self.play(opened + [.type("/drafts"), .enter])
        #expect(valid.sent.isEmpty && valid.line.text == "meet at the cafe")
        #expect(valid.drafts["privateMessage_alice"]?.text == "meet at the cafe")
        let plain = Self.play(opened + [.enter])
        #expect(Self.texts(plain) == ["meet at the cafe"])
    }

    /// Issue 28 item 3: Up then Down does not move the baseline.
    @Test func upThenDownKeepsTheBaseline() {
        let model = Self.play(
            [.type("/open alice"), .enter, .type("x"), .enter] + Self.restored.dropFirst(2) + [
                .recallAndReturn, .type("/chats 1"), .enter,
            ])
        #expect(Self.texts(model) == ["x"])
        #expect(model.line.text == "draft four")
    }

    /// Issue 28 item 4: a paste into a restored draft is text: one message with the draft.
    @Test func aPasteIntoARestoredDraftIsText() {
        let model = Self.play(
            Self.restored + [.home, .paste("/etc/hosts is the file\nsecond "), .enter])
        #expect(Self.texts(model) == ["/etc/hosts is the file\nsecond draft four"])
        // On an empty line a pasted /… line is a command, as in a shell.
        let command = Self.play([.type("/open alice"), .enter, .paste("/drafts"), .enter])
        #expect(command.sent.isEmpty && command.line.isEmpty)
    }

    /// Issue 28 item 6: a line over 64 KiB is never destroyed: it goes on the undo stack
    /// whole and the line starts from the draft again; a paste over 64 KiB is refused whole.
    @Test(arguments: [false, true])
    func anOverLongLineIsKept(pipe: Bool) {
        let big = String(repeating: "a", count: 40_000)
        let model = Self.play(Self.restored + [.paste(big), .paste(big), .enter], pipe: pipe)
        #expect(model.sent.isEmpty && model.undo.first?.text == "draft four" + big + big)
        #expect(model.line.text == "draft four")
        let refused = Self.play(Self.restored + [.paste(big + big)], pipe: pipe)
        #expect(refused.line.text == "draft four")
        // A command typed into a draft over 64 KiB is judged by its own length: it runs, and
        // the draft stays as it was.
        let kept = Self.restored + [.paste(big), .paste(big), .leave(.back), .type("/open alice"), .enter]
        let typedInto = Self.play(kept + [.type("/drafts"), .enter], pipe: pipe)
        #expect(typedInto.undo.isEmpty && typedInto.line.text == "draft four" + big + big)
    }

    /// Issue 28 item 8: Ctrl-C during ^R settles the user's own text as the top entry.
    @Test func interruptingASearchKeepsTheUsersTextOnTop() {
        let model = Self.play(
            [
                .type("/open alice"), .enter, .type("first msg"), .enter, .type("mine"),
                .searchThenInterrupt("first msg"),
            ])
        #expect(model.undo.first?.text == "mine" && model.undo.first?.optional == false)
        #expect(model.line.isEmpty)
    }

    /// Issue 28 item 9: vi's Ctrl-L inserts nothing; Ctrl-D in command mode warns and quits.
    @Test func viRedrawAndEndOfFileInCommandMode() {
        let redrawn = Self.play(
            [.type("/open alice"), .enter, .type("are you"), .redraw, .type(" free?"), .enter], vi: true)
        #expect(Self.texts(redrawn) == ["are you free?"])
        var model = Self.play([.type("/open alice"), .enter, .type("x"), .leave(.back), .escape], vi: true)
        model.apply(.endOfFile)
        #expect(!model.quit)
        model.apply(.endOfFile)
        #expect(model.quit)
    }

    /// Issue 28 item 10: a recalled command over a restored draft gives it back, cursor
    /// where it was.
    @Test func aRecalledCommandKeepsTheDraftCursor() {
        let model = Self.play(
            [
                .type("/open alice"), .enter, .type("/chats"), .enter, .type("hello world"), .left, .left,
                .leave(.back), .type("/open alice"), .enter, .recall("/chats"), .enter,
            ])
        #expect(model.line.text == "hello world" && model.line.cursor == 9)
    }

    @Test func aRecalledMessageSendsAndTheDraftGoesOnTheStack() {
        let model = Self.play(
            [.type("/open alice"), .enter, .type("earlier"), .enter] + Self.restored.dropFirst(2) + [
                .recall("earlier"), .enter,
            ])
        #expect(Self.texts(model) == ["earlier", "earlier"])
        #expect(model.undo.map(\.text) == ["draft four"] && model.drafts.isEmpty)
    }

    @Test func interruptPutsTheLineOnTheStackAndUndoBringsItBack() {
        var model = Self.play([.type("/open alice"), .enter, .type("hello"), .interrupt])
        #expect(model.undo.map(\.text) == ["hello"] && model.line.isEmpty)
        model.apply(.type("/undo"))
        model.apply(.enter)
        #expect(model.undo.isEmpty && model.line.text == "hello")
        #expect(model.drafts["privateMessage_alice"]?.text == "hello")
    }

    @Test func undoNeverOverwritesANewerDraft() {
        let model = Self.play(
            [
                .type("/open alice"), .enter, .type("old"), .interrupt, .type("new"), .leave(.back), .type("/undo"),
                .enter,
            ])
        #expect(model.drafts["privateMessage_alice"]?.text == "old")
        #expect(model.undo.map(\.text) == ["new"])
    }

    @Test func leaveKeysKeepTheLineAsTheDraft() {
        let model = Self.play([.type("/open alice"), .enter, .type("Bob's ID is "), .leave(.profile)])
        #expect(model.screen == .profile("alice"))
        #expect(model.drafts["privateMessage_alice"] == .init(text: "Bob's ID is ", cursor: 12, media: 0))
        let back = Self.play(
            [
                .type("/open alice"), .enter, .type("x"), .leave(.command), .type("profile bob"), .enter,
                .type("/back"),
                .enter,
            ])
        #expect(back.screen == .chat("alice") && back.line.text == "x")
    }

    @Test func theNamePromptAsksAgainAndCancels() {
        var model = Self.play([.type("/open alice"), .enter, .type("hi"), .leave(.open), .type("nobody"), .enter])
        #expect(model.prompt == .name && model.line.text == "nobody")
        model.apply(.killLine)
        model.apply(.enter)
        #expect(model.prompt == .none && model.screen == .chat("alice") && model.line.text == "hi")
    }

    @Test func textWhereNoChatIsOpenStaysOrGoesOnTheStackOnAPipe() {
        let terminal = Self.play([.type("hello"), .enter])
        #expect(terminal.line.text == "hello" && terminal.undo.isEmpty)
        let piped = Self.play([.type("hello"), .enter], pipe: true)
        #expect(piped.line.isEmpty && piped.undo.map(\.text) == ["hello"] && piped.undo.first?.origin == nil)
    }

    @Test func ctrlDWarnsWhileDraftsWaitAndALookCarriesOn() {
        var model = Self.play([.type("/open alice"), .enter, .type("x"), .leave(.back), .endOfFile, .look, .endOfFile])
        #expect(!model.quit)
        model.apply(.arrival)
        model.apply(.endOfFile)
        #expect(model.quit)
        model.restart()
        #expect(model.drafts.isEmpty && model.screen == .home)
    }

    /// D17: a draft the user emptied in the line is no draft to warn of (SPEC §1a's law: text
    /// deleted with an editing key may go); its media would be, and so would a draft `/undo`
    /// took out of sight.
    @Test func ctrlDDoesNotCountADraftTheUserEmptied() {
        let emptied = Self.play(Self.restored + [.killLine, .endOfFile])
        #expect(emptied.quit)
        let other = Self.play(
            [.type("/open bob"), .enter, .type("kept"), .leave(.back)] + Self.restored + [.killLine, .endOfFile])
        #expect(!other.quit)
        let attached = Self.play(Self.restored + [.type("/attach /tmp/photo.png"), .enter, .killLine, .endOfFile])
        #expect(!attached.quit)
        let piped = Self.play(Self.restored + [.killLine, .endOfFile], pipe: true)
        #expect(piped.quit)
    }

    /// D18: a leave key where no chat is open does what its command does there: the text
    /// on the undo stack, and the key acts; where it cannot act, the text stays.
    @Test func aLeaveKeyWithTextWhereNoChatIsOpenActsAsItsCommand() {
        for pipe in [false, true] {
            let profile: [ModelStep] = [.type("/open alice"), .enter, .type("/profile"), .enter]
            let back = Self.play(profile + [.type("abc def"), .leave(.back)], pipe: pipe)
            #expect(back.screen == .chat("alice") && back.line.isEmpty)
            #expect(back.undo.map(\.text) == ["abc def"] && back.undo.first?.origin == nil && back.drafts.isEmpty)
            let again = Self.play(profile + [.type("abc"), .leave(.profile)], pipe: pipe)
            #expect(again.screen == .profile("alice") && again.undo.map(\.text) == ["abc"])
            // `^X o` holds the text for its prompt on a terminal (a pipe sets it aside at once):
            // a cancel gives it back, a chat opened puts it on the stack.
            let open = Self.play([.type("abc"), .leave(.open)], pipe: pipe)
            #expect(open.prompt == .name && open.undo.map(\.text) == (pipe ? ["abc"] : []))
            let cancelled = Self.play([.type("abc"), .leave(.open), .interrupt], pipe: pipe)
            #expect(cancelled.line.text == (pipe ? "" : "abc") && cancelled.undo.count == (pipe ? 1 : 0))
            let opened = Self.play([.type("abc"), .leave(.open), .type("alice"), .enter], pipe: pipe)
            #expect(opened.screen == .chat("alice") && opened.undo.map(\.text) == ["abc"])
        }
        let home = Self.play([.type("abc"), .leave(.back)])
        #expect(home.screen == .home && home.line.text == "abc" && home.undo.isEmpty)
    }

    /// D16 and its `/undo`: a command attempt typed into the draft, kept by a leave or
    /// abandoned with Ctrl-C and brought back by `/undo`, is the attempt again: Enter sends
    /// nothing (SPEC §1a's law: the user typed a command, never a message).
    @Test func anAttemptKeptOrUndoneIsAnAttemptAgain() {
        for pipe in [false, true] {
            let attempt = Self.restored + [.type("/opne bob"), .enter] + (pipe ? [.type("/opne bob")] : [])
            let left = Self.play(attempt + [.leave(.back), .type("/open alice"), .enter, .enter], pipe: pipe)
            #expect(left.sent.isEmpty && left.drafts["privateMessage_alice"]?.text == "draft four/opne bob")
            let undone = Self.play(attempt + [.interrupt, .type("/undo"), .enter, .enter], pipe: pipe)
            #expect(undone.sent.isEmpty && undone.drafts["privateMessage_alice"]?.text == "draft four/opne bob")
        }
    }

    @Test func optionalEntriesAreSettledByWhatWasSeen() {
        // ^U deletes the draft; Ctrl-C then may keep it or not.
        var model = Self.play(Self.restored + [.killLine, .interrupt])
        #expect(model.undo.map(\.optional) == [true])
        model.settle(optionalEntries: ["draft four"])
        #expect(model.undo.map(\.text) == ["draft four"] && model.undo.first?.optional == false)
    }

    /// A line no draft's brought back by /undo in a chat is held there as its baseline: the
    /// next line after a failed command starts from it (pipe), leaving the chat puts it on
    /// the stack (the binary's behaviour on a pipe, where the SPEC says "brought back by
    /// /undo" moves the baseline).
    @Test func aLineBroughtBackInAChatIsItsBaseline() {
        let undone: [ModelStep] = [.type("abc"), .enter, .type("/open bob"), .enter, .type("/undo"), .enter]
        let next = Self.play(undone + [.home, .deleteUnder, .type("/opne x"), .enter, .type("zz"), .enter], pipe: true)
        #expect(Self.texts(next) == ["abczz"])
        let left = Self.play(undone + [.type("/open alice"), .enter], pipe: true)
        #expect(left.screen == .chat("alice") && left.undo.map(\.text) == ["abc"] && left.drafts.isEmpty)
    }

    /// Where no chat is open, text given back is kept there: a command typed into it runs and
    /// leaves it as it was; one that leaves puts it on the undo stack.
    @Test func textKeptWhereNoChatIsOpenIsThatScreensBaseline() {
        var model = Self.play([.type("hello"), .enter, .type("/drafts"), .enter])
        #expect(model.line.text == "hello" && model.undo.isEmpty)
        model.apply(.type("/open alice"))
        model.apply(.enter)
        #expect(model.screen == .chat("alice") && model.undo.map(\.text) == ["hello"])
    }
}
