import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// What draftline says as it starts on a terminal (before and as its editor is made) fits
/// the terminal's width as every other line of its own does: broken at blanks, its last
/// column free, the rows after the first indented by two (issue 29: they were written as
/// one long row the terminal cut anywhere).
@Suite("Warnings at start fit the terminal")
struct StartupWarningTests {
    let fixture: Fixture
    init() throws { fixture = try Fixture() }

    /// The rows of the warning that starts with `start`, from what came before the prompt.
    func rows(of start: String, in shown: String) -> [String] {
        let rows = shown.components(separatedBy: "\r\n")
        guard let first = rows.firstIndex(where: { $0.hasPrefix(start) }) else { return [] }
        return [rows[first]] + rows[(first + 1)...].prefix { $0.hasPrefix("  ") }
    }

    /// Checks the warning `line` was shown broken to fit `columns`.
    func expectFits(_ line: String, columns: Int, in shown: String) {
        let rows = rows(of: String(line.prefix(20)), in: shown)
        #expect(rows.count > 1, "\(shown)")
        #expect(rows.allSatisfy { $0.count <= columns - 1 }, "\(rows)")
        #expect(rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == line, "\(rows)")
    }

    /// What opening the data directory noticed, said before the editor is made.
    @Test func whatOpeningNoticedFitsTheTerminal() throws {
        let message = Message(chatID: "tweet_1", messageID: "m", content: "old", target: "alice")
        try fixture.writeSegment([message], chat: "tweet_1", number: 0)
        try fixture.writeSegment([message], chat: "tweet_1", number: 0, kind: "threads")
        let terminal = try fixture.startTerminal(environment: ["NO_COLOR": "1"], columns: 40)
        let shown = try terminal.waitForPrompt("draftline> ", timeout: 60)
        expectFits(
            "warning: chats/tweet_1 was left where it is: threads/tweet_1 exists already", columns: 40, in: shown)
        #expect(try terminal.quit() == .exited(0))
    }

    /// The edit line's history that could not be loaded, said as the editor is made.
    @Test func aHistoryNotLoadedFitsTheTerminal() throws {
        let file = fixture.dataDirectory + "/line-history.me.plist"
        do {
            let first = try fixture.startTerminal()
            try first.waitForPrompt("draftline> ", timeout: 60)
            #expect(try first.quit() == .exited(0))
        }
        // Wide enough for the path, a word that is never broken.
        let columns = file.count + 30
        let terminal = try fixture.startTerminal(
            environment: ["NO_COLOR": "1", "DRAFTLINE_FAULTS": "fail=0:EIO:openat:\(file)"], columns: UInt16(columns))
        let shown = try terminal.waitForPrompt("draftline> ", timeout: 60)
        expectFits(
            "warning: the edit-line history was not loaded: could not open \(file): Input/output error",
            columns: columns, in: shown)
        #expect(try terminal.quit() == .exited(0))
    }
}
