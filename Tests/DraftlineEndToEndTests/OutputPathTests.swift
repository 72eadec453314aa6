import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// The one output path: lines printed above the edit line while one is half typed.
@Suite("Printing above the edit line", .serialized)
struct OutputPathTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test(arguments: [80, 30] as [UInt16])
    func theDraftMapKeyPrintsAboveAHalfTypedLineAndLeavesItAsItWas(_ columns: UInt16) throws {
        let terminal = try PseudoTerminal(
            executable: Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory],
            environment: fixture.environment(["NO_COLOR": "1"]), columns: columns)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("bob")
        try terminal.send("a draft for bob\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        // Half a line, wider than 30 columns, with the cursor moved back into it.
        try terminal.send("half typed, cursor in the middle")
        try terminal.send("\u{2}\u{2}\u{2}\u{2}\u{2}\u{2}")  // ^B six times: before "middle"
        try terminal.waitFor("middle")
        try terminal.send("\u{18}d")  // ^X d
        try terminal.waitFor("privateMessage_bob")
        try terminal.waitFor("alice> ")  // the line is drawn again after the map
        let screen = ScreenModel(rows: 24, columns: Int(columns), bytes: terminal.output).text
        // Rows: the map (a long row wraps), then the edit line (which wraps at 30 columns).
        let map = try #require(screen.lastIndex { $0.hasPrefix("drafts in memory (1):") }, "\(screen)")
        let line = try #require(screen.lastIndex { $0.hasPrefix("alice> ") }, "\(screen)")
        #expect(map < line)
        #expect(screen[(map + 1)..<line].joined().hasPrefix("  privateMessage_bob  \"a draft for bob\""))
        #expect(screen[line...].joined() == "alice> half typed, cursor in the middle", "\(screen)")
        // The cursor is still before "middle": what is typed now goes there.
        try terminal.send("very \r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["half typed, cursor in the very middle"])
    }

    /// A terminal that reflows text on a resize moves the old drawing: the line is drawn
    /// again at once, from its first row, at the new width.
    @Test func aResizeRedrawsTheLineAtTheNewWidth() throws {
        let terminal = try fixture.startTerminal(environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        let text = "a line long enough to wrap when the window is narrow"
        try terminal.send(text)
        try terminal.waitFor("narrow")
        terminal.resize(rows: 24, columns: 30)
        // Redrawn without a key: erase from the line's first row, then prompt and text.
        try terminal.waitFor("\u{1B}[J")
        try terminal.waitFor("alice> ")
        try terminal.send("!\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == [text + "!"])
    }
}
