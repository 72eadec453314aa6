import DraftKit
import DraftlineTestSupport
import Testing

/// The ledger's safety net, as data: random reads of every kind (typed into the given line or
/// not, commands good and bad, recalls, leave keys, Ctrl-C, Ctrl-D, prompts) on a terminal and
/// on a pipe. Each rule must place every piece of the line itself; ``Session/ledgerCatches``
/// counts what only the net caught, and must stay 0. The net sees the line's pieces only, so
/// the target's draft, the third piece, is checked here from outside: a draft the given line
/// did not hold ends as a draft, on the undo stack, sent or in the next line, never nowhere
/// (``draftsLost(_:held:after:_:)``). (The law itself is checked through the binary by
/// `ConservationTests`.)
@Suite("The ledger places every read by a rule of its own")
struct LedgerPropertyTests {
    static let commands = [
        "/open alice", "/open bob", "/open nobody!", "/profile", "/profile alice", "/back", "/undo", "/discard",
        "/drafts", "/frob", "/history x", "/chats", "/comment tweet 7", "/comment tweet 7 @bob", "/attach /nonexistent",
        "/detach", "/trace on",
    ]

    @Test(arguments: [Capabilities.terminal, .pipe])
    func noReadIsLeftToTheSafetyNet(_ capabilities: Capabilities) {
        var random = SeededGenerator(seed: capabilities.editLine ? 0x1ED6E2 : 0x2ED6E2)
        var session = Session(contacts: ContactBook(), history: InMemoryHistory(), capabilities: capabilities)
        var draftsOutOfLine = 0
        // What an earlier line held that Ctrl-D found emptied: the user deleted it with
        // editing keys, and the empty line after the warning still stands for it.
        var emptied: [String] = []
        // What an earlier line held that came back in this one to be fixed (a command that
        // failed, given back as entered): the user's editing keys there could delete from it.
        var givenBack: [String] = []
        for sequence in 0..<3000 {
            if session.hasQuit || Int.random(in: 0..<40, using: &random) == 0 {
                session = Session(contacts: ContactBook(), history: InMemoryHistory(), capabilities: capabilities)
            }
            let given = session.line
            let held = [given.text] + (given.text.isEmpty ? emptied : []) + givenBack
            let drafts = session.drafts.texts
            draftsOutOfLine += drafts.values.filter { draft in !held.contains { $0.contains(draft.text) } }.count
            let (event, recalled, description) = Self.randomRead(given: given, using: &random)
            let outcome = session.handle(event, origin: LineOrigin(recalledOver: recalled))
            #expect(session.ledgerCatches == 0, "sequence \(sequence): \(description)")
            if session.ledgerCatches != 0 { return }
            // The third piece: every draft the line did not hold is still somewhere.
            let lost = session.hasQuit ? [:] : Self.draftsLost(drafts, held: held, after: session, outcome.reports)
            #expect(lost.isEmpty, "sequence \(sequence): \(description) destroyed the drafts \(lost)")
            if !lost.isEmpty { return }
            if case .quitRequest = event { emptied = held } else { emptied = [] }
            let failed = outcome.reports.contains { if case .error = $0 { true } else { false } }
            if case .line(let text) = event, failed, session.line.text == text {
                givenBack = held
            } else {
                givenBack = []
            }
        }
        // The reads met drafts the line did not hold often enough to mean something.
        #expect(draftsOutOfLine > 500, "only \(draftsOutOfLine) drafts out of the line")
    }

    /// The drafts of `before` (the store as the read began) that the read destroyed: a
    /// draft the line did not hold (`held`: editing keys could delete only what the line
    /// held, in this read or before a Ctrl-D warning) must end, its text whole, as a draft,
    /// on the undo stack, in a message sent, or in the next edit line. Asked of the store,
    /// the stack and the reports, not of the ledger's own accounting.
    static func draftsLost(
        _ before: [DraftKey: TextDraft], held: [String], after session: Session, _ reports: [Report]
    ) -> [DraftKey: TextDraft] {
        before.filter { _, draft in
            let text = draft.text
            guard !text.isEmpty, !held.contains(where: { $0.contains(text) }) else { return false }
            let kept = session.drafts.texts.values.contains { $0.text.contains(text) }
            let setAside = session.drafts.undoStack.contains { $0.draft.text?.text.contains(text) ?? false }
            let sent = reports.contains {
                if case .sent(let message) = $0 { message.content.contains(text) } else { false }
            }
            return !kept && !setAside && !sent && !session.line.text.contains(text)
        }
    }

    /// One read: what the user did with the line they were given.
    static func randomRead(
        given: TextDraft, using random: inout SeededGenerator
    ) -> (InputEvent, [TextDraft], String) {
        let words = ["hi", "see you at 6", "", "   ", "//slash", "a/b", "草 😀"]
        let typed = words.randomElement(using: &random) ?? ""
        var line: TextDraft
        switch Int.random(in: 0..<5, using: &random) {
        case 0: line = given
        case 1: line = given.inserting(typed)
        case 2: line = TextDraft(text: typed)
        case 3: line = given.inserting(" " + (commands.randomElement(using: &random) ?? "/drafts"))
        default: line = TextDraft(text: commands.randomElement(using: &random) ?? "/drafts")
        }
        var recalled: [TextDraft] = []
        if Int.random(in: 0..<5, using: &random) == 0 {
            recalled = [given.inserting(typed)]
            line = TextDraft(text: commands.randomElement(using: &random) ?? "/drafts")
        }
        let event: InputEvent
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: event = .leave(LeaveKey.allCases.randomElement(using: &random) ?? .back, line)
        case 2: event = .interrupt(line)
        case 3: event = .quitRequest(afterKeys: Bool.random(using: &random))
        default: event = .line(line.text)
        }
        return (event, recalled, "\(event) over \(recalled), given \(given)")
    }
}
