import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import ProgramDriver
import Testing

/// The tour's ends and draftline's own lines on a real terminal: a key that skips a step
/// drops no line, Ctrl-C ending a tour is a normal end, and help, narration, trace lines
/// and errors are broken at blanks to the terminal's width.
@Suite("The tour's ends and draftline's own lines at the terminal's width", .serialized)
struct OwnLinesTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func terminal(_ arguments: [String], columns: UInt16 = 80) throws -> PseudoTerminal {
        try PseudoTerminal(
            executable: Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory] + arguments,
            environment: fixture.environment(["NO_COLOR": "1"]), rows: 24, columns: columns)
    }

    /// The screen a run left, on a terminal tall enough that nothing scrolls away, with
    /// the drafts' ages (which depend on the pace) blanked.
    static func screen(_ terminal: PseudoTerminal, columns: Int = 80) -> [String] {
        ScreenModel(rows: 1000, columns: columns, bytes: Array(terminal.text.utf8)).text
            .map { $0.replacing(/age \d+s/, with: "age Ns") }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Every step skipped with a key gives the screen the unskipped tour gives: each typed
    /// command, chat header, trace line and draft map stays; only the pace differs.
    @Test func aKeyThatSkipsAStepDropsNoLine() throws {
        let played = try terminal(["--tour", "--tour-speed", "40"])
        _ = try played.waitFor("── end of the tour ──", timeout: 60)
        #expect(try played.waitForExit() == .exited(0))
        // At this speed a step's pause alone is minutes: only skipping gets through.
        let skipped = try terminal(["--tour", "--tour-speed", "0.01"])
        for step in Tour.steps {
            try skipped.waitFor(String(step.narration.prefix(20)), timeout: 20)
            try skipped.waitForRawMode()
            try skipped.send("x")
        }
        _ = try skipped.waitFor("── end of the tour ──", timeout: 20)
        #expect(try skipped.waitForExit() == .exited(0))
        let whole = Self.screen(played)
        #expect(whole.contains("draftline> /open alice") && whole.contains("── chat with Alice Chen (alice) ──"))
        let lines = Self.screen(skipped)
        #expect(lines.count == whole.count, "lines lost: \(Set(whole).subtracting(lines).sorted())")
        #expect(lines == whole)
    }

    /// Ctrl-C stops the tour, as the key or as SIGINT: one line, and status 0, for
    /// `--tour` and for `/tour` inside a session, which goes on.
    @Test func ctrlCEndingATourIsANormalEnd() throws {
        let key = try terminal(["--tour", "--tour-speed", "0.01"])
        try key.waitFor("First, open alice's chat.", timeout: 20)
        try key.waitForRawMode()
        try key.send("\u{03}")
        try key.waitFor("tour stopped")
        #expect(try key.waitForExit() == .exited(0))
        let signal = try terminal(["--tour", "--tour-speed", "0.01"])
        try signal.waitFor("First, open alice's chat.", timeout: 20)
        try signal.waitForRawMode()
        signal.signal(SIGINT)
        try signal.waitFor("tour stopped")
        #expect(try signal.waitForExit() == .exited(0))
        let inside = try terminal([])
        try inside.waitForPrompt("draftline> ")
        try inside.send("/tour 0.01\r")
        try inside.waitFor("First, open alice's chat.", timeout: 20)
        try inside.waitForRawMode()
        try inside.send("\u{03}")
        try inside.waitFor("tour stopped")
        try inside.waitForPrompt("draftline> ")
        #expect(try inside.quit() == .exited(0))
    }

    /// On a 50-column terminal: `/help`, the tour's narration, a trace line and an error
    /// fit it, broken at blanks, and say every word they say at 80.
    @Test func ownLinesBreakAtBlanksAtTheTerminalsWidth() throws {
        let narrow = try terminal(["--trace"], columns: 50)
        try narrow.waitForPrompt("draftline> ")
        try narrow.send("/help\r")
        try narrow.waitFor("Ctrl-D on an empty line quits")
        try narrow.waitForPrompt("draftline> ")
        try narrow.open("alice")
        try narrow.send("a draft  with two spaces, long\u{18}p")
        try narrow.waitForPrompt("profile alice> ")
        try narrow.send("/expect screen bob\r")
        try narrow.waitFor("error: ")
        try narrow.waitForPrompt("profile alice> ")
        try narrow.send("\u{15}/tour 40\r")  // Ctrl-U: the failed command came back to fix
        try narrow.waitFor("── end of the tour ──", timeout: 60)
        try narrow.waitForPrompt("profile alice> ")
        #expect(try narrow.quit() == .exited(1), "the failed /expect")
        // draftline leaves the last column free: a row that reaches it is one the terminal
        // cut, inside a word. Only rows laid out in columns (the draft map's, starting with
        // a blank) are left as they are.
        let rows = Self.screen(narrow, columns: 50)
        #expect(
            rows.allSatisfy { $0.count < 50 || $0.hasPrefix("  privateMessage_") }, "\(rows.filter { $0.count >= 50 })")
        let text = rows.joined(separator: " ").replacing(/\ +/, with: " ")
        for said in [
            "a / typed into a restored draft is a command and the draft stays",
            "trace: saved privateMessage_alice (^X p (draftline-profile)) \"a draft with two spaces, long\" cursor 30",
            "error: expectation failed: screen is bob; found profile alice",
            "Alice asks for Bob's ID. You start typing it, then need to look it up:",
            "More chapters: --tour NAME or /tour NAME, with NAME one of undo,",
            "1 unsent draft would be forgotten: Ctrl-D again",
        ] {
            #expect(text.contains(said), "\(said)")
        }
        let help = rows.drop { $0 != "commands:" }.prefix { !$0.hasPrefix("Ctrl-D on") && !$0.hasPrefix("  Ctrl-D") }
        #expect(help.count > 30, "\(help)")
    }

    /// The one wrapper: breaks at blanks, keeps every other blank, starts a new line at a
    /// line break, breaks a word longer than a line, indents as asked.
    @Test func theWrapperBreaksAtBlanksAndKeepsTheRest() {
        #expect(Presenter.wrap("one two three", width: 7) == ["one two", "three"])
        #expect(Presenter.wrap("a  b c", width: 4) == ["a  b", "c"])
        #expect(Presenter.wrap("first\nsecond line", width: 8) == ["first", "second", "line"])
        #expect(Presenter.wrap("abcdefghij kl", width: 4) == ["abcd", "efgh", "ij", "kl"])
        #expect(Presenter.wrap("error: one two", width: 9, hanging: 2) == ["error:", "  one two"])
        #expect(Presenter.wrap("x y", width: 10, indent: 2) == ["  x y"])
        #expect(Presenter.wrap("", width: 10) == [""])
    }
}
