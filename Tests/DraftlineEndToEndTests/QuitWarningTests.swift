import DraftlineTestSupport
import Foundation
import ProgramDriver
import Testing

/// Ctrl-D on an empty line with something in memory warns; only a Ctrl-D that is the very
/// next key after the warning quits. Any other key read in between (typing, Ctrl-U,
/// Backspace, a cursor key, a paste, vi's Escape) carries on, so the next Ctrl-D warns
/// again.
@Suite("Ctrl-D quits only as the very next key after its warning")
struct QuitWarningTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let warning = "1 entry on the undo stack would be forgotten: Ctrl-D again (or /quit) quits"

    /// alice's chat open, one line abandoned with Ctrl-C (one entry on the undo stack), and
    /// the first Ctrl-D's warning on screen, the edit line reading keys again.
    func warned(_ arguments: [String] = []) throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(arguments, environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("keep me\u{3}")
        try terminal.waitFor("/undo")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")
        try terminal.waitFor(Self.warning)
        try terminal.waitForPrompt("alice> ")
        return terminal
    }

    /// Sends `keys`, then Ctrl-D: a new warning, not an exit; then Ctrl-D quits (status 0).
    func expectANewWarning(after keys: String, on terminal: PseudoTerminal) throws {
        try terminal.send(keys)
        try terminal.send("\u{4}")
        let seen = try terminal.waitForAny([Self.warning])
        #expect(seen != nil, "draftline quit on a Ctrl-D that did not follow its warning")
        guard seen != nil else { return }
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// The user's report: `x`, then Ctrl-U (the line is empty again), then Ctrl-D.
    @Test func typingThenCtrlUThenCtrlDWarnsAgain() throws {
        let terminal = try warned()
        try expectANewWarning(after: "x\u{15}", on: terminal)
    }

    /// The same keys each in a write of their own, each read before the next is sent.
    @Test func typingThenCtrlUTypedSlowlyWarnsAgain() throws {
        let terminal = try warned()
        try terminal.send("x")
        try terminal.waitFor("x")
        try terminal.send("\u{15}")
        try expectANewWarning(after: "", on: terminal)
    }

    /// A cursor key or Backspace that changes nothing on the empty line is a key all the
    /// same; so is `^R` (a search, given up with `^G`).
    @Test(arguments: ["\u{1B}[D", "\u{1B}[C", "\u{7F}", "\u{12}\u{7}"])
    func anEditingKeyThenCtrlDWarnsAgain(_ key: String) throws {
        let terminal = try warned()
        try expectANewWarning(after: key, on: terminal)
    }

    /// A paste between the two Ctrl-Ds: of text later killed with Ctrl-U, or of nothing.
    @Test(arguments: ["\u{1B}[200~pasted text\u{1B}[201~\u{15}", "\u{1B}[200~\u{1B}[201~"])
    func aPasteThenCtrlDWarnsAgain(_ paste: String) throws {
        let terminal = try warned()
        try expectANewWarning(after: paste, on: terminal)
    }

    /// vi mode: Escape to command mode and `i` back to insert mode are keys too.
    @Test func viEscapeAndInsertThenCtrlDWarnsAgain() throws {
        let terminal = try warned(["--editor", "vi"])
        try expectANewWarning(after: "\u{1B}i", on: terminal)
    }

    /// vi mode: a Ctrl-D that is the very next key quits, as in emacs mode.
    @Test func viCtrlDRightAfterTheWarningQuits() throws {
        let terminal = try warned(["--editor", "vi"])
        try terminal.send("\u{4}")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// The undo entry is still there after the second warning: the key carried on.
    @Test func theUndoEntrySurvivesTheSecondWarning() throws {
        let terminal = try warned()
        try terminal.send("x\u{15}\u{4}")
        try terminal.waitFor(Self.warning)
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/undo\r")
        try terminal.waitFor("keep me")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("  you: keep me")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["keep me"])
    }
}
