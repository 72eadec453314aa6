import DraftKit
import DraftlineTestSupport
import Testing

/// The ledger's safety net, as data: random reads of every kind (typed into the given line or
/// not, commands good and bad, recalls, leave keys, Ctrl-C, Ctrl-D, prompts) on a terminal and
/// on a pipe. Each rule must place every piece of the line itself; ``Session/ledgerCatches``
/// counts what only the net caught, and must stay 0. (The law itself is checked through the
/// binary by `ConservationTests`.)
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
        for sequence in 0..<3000 {
            if session.hasQuit || Int.random(in: 0..<40, using: &random) == 0 {
                session = Session(contacts: ContactBook(), history: InMemoryHistory(), capabilities: capabilities)
            }
            let (event, recalled, description) = Self.randomRead(given: session.line, using: &random)
            _ = session.handle(event, origin: LineOrigin(recalledOver: recalled))
            #expect(session.ledgerCatches == 0, "sequence \(sequence): \(description)")
            if session.ledgerCatches != 0 { return }
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
