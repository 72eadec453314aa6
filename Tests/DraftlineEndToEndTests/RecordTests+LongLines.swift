import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

// MARK: - A draft over 64 KiB

/// A terminal's edit line may grow past what a pipe reads in one line (64 KiB: two pastes),
/// kept as a draft by a leave key or set aside by Enter. The recording types it in pieces a
/// pipe takes, checks it by cursor and media (its text would make a check too long to
/// read), and a command typed into it is judged by its own length on both. (A pipe refused
/// the recorded line unread; split, the draft existed, and every line typed into it, the
/// next check first, was over the limit and refused.)
extension RecordTests {
    /// 40,000 bytes a paste, each character four bytes wide and one cell, so that libedit
    /// redraws the line within seconds.
    static let longPaste = String(repeating: "\u{1D400}", count: 10_000)

    /// Types "start ", then two pastes with a key after each (it has been read whole when
    /// it shows): a line of 80,008 bytes, its pastes into text already there.
    func typeLongLine(_ terminal: PseudoTerminal) throws {
        try terminal.send("start ")
        for typed in ["X", "Y"] {
            try terminal.send("\u{1B}[200~" + Self.longPaste + "\u{1B}[201~")
            try terminal.send(typed)
            try terminal.waitFor(typed, timeout: 60)
        }
    }

    static let longCursor = 6 + 2 * 10_000 + 2

    /// The over-long draft comes back and a command is typed into it (`/profile`): it runs,
    /// the draft stays; back again, it is kept by a leave key.
    func typeIntoLongDraft(_ terminal: PseudoTerminal) throws {
        try terminal.send("/profile\r")
        try terminal.waitForPrompt("profile alice> ", timeout: 60)
        try terminal.send("/back\r")
        try terminal.waitForPrompt("alice> ", timeout: 60)
        try terminal.send("\u{18}b")
        try terminal.waitForPrompt("draftline> ", timeout: 60)
        try terminal.send("/quit\r")
    }

    /// What ``typeIntoLongDraft(_:)`` records.
    static let longDraftTyped = [
        "/profile", "/expect screen profile alice", "/back",
        "/expect draft privateMessage_alice cursor \(longCursor) media 0", "/expect screen alice", "\u{18}b",
        "/expect draft privateMessage_alice cursor \(longCursor) media 0", "/expect screen home", "/quit", "",
    ]

    /// The recording's lines, each of which a pipe reads (at most 64 KiB), and the checks
    /// of the long draft with no text.
    func expectPipeable(_ lines: [String]) {
        #expect(lines.allSatisfy { $0.utf8.count <= Session.maximumLineBytes }, "\(lines.map(\.utf8.count))")
        let draft = "/expect draft privateMessage_alice cursor \(Self.longCursor) media 0"
        #expect(lines.filter { $0 == draft }.count >= 3, "\(lines.filter { $0.utf8.count < 200 })")
    }

    /// Replays under `--strict` with every check ok, then with `change` made to the script:
    /// it stops at line `failsAt`, the check right after the changed step.
    func expectReplay(_ script: String, change: (String, String), failsAt line: Int) throws {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try replay(script, in: try Fixture())
        #expect(result.status == 0, "\(result.error.prefix(2000))")
        let checks = lines.filter { $0.hasPrefix("/expect ") }.count
        #expect(result.output.split(separator: "\n").filter { $0.hasPrefix("ok: ") }.count == checks)
        let changed = script.replacingOccurrences(of: change.0, with: change.1)
        #expect(changed != script)
        let failed = try replay(changed, in: try Fixture())
        #expect(failed.status == 1)
        #expect(
            failed.error.hasSuffix("draftline: stopped at line \(line) (--strict)\n"), "\(failed.error.prefix(2000))")
    }

    @Test func aDraftOverTheLimitKeptByALeaveKeyReplays() throws {
        let script = try record("long-kept") { terminal in
            try typeLongLine(terminal)
            try terminal.send("\u{18}b")
            try terminal.waitForPrompt("draftline> ", timeout: 60)
            try terminal.open("alice")
            try typeIntoLongDraft(terminal)
        }
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        expectPipeable(lines)
        // The line in four pieces, each paste cut in two and each paste a line of its own,
        // the last ended by the leave key.
        let kept = try #require(lines.firstIndex { $0.hasSuffix("\u{1B}[201~Y\u{18}b") })
        #expect(kept == 5, "\(lines.map { $0.prefix(40) })")
        #expect(lines[2].hasPrefix("start \u{1B}[200~") && lines[2].hasSuffix("\u{1B}[201~\u{2}\u{6}"))
        #expect(lines[3].hasPrefix("\u{1B}[200~") && lines[3].hasSuffix("\u{1B}[201~X\u{2}\u{6}"))
        #expect(lines[4].hasPrefix("\u{1B}[200~") && lines[4].hasSuffix("\u{1B}[201~\u{2}\u{6}"))
        #expect(
            Array(lines[(kept + 1)...]) == [
                "/expect draft privateMessage_alice cursor \(Self.longCursor) media 0",
                "/expect screen home",
                "/open alice",
                "/expect draft privateMessage_alice cursor \(Self.longCursor) media 0",
                "/expect screen alice",
            ] + Self.longDraftTyped, "\(lines.map { $0.prefix(60) })")
        // One step changed (the key typed after the second paste left out): the draft's
        // check right after the line fails.
        try expectReplay(script, change: ("Y\u{18}b\n", "\u{18}b\n"), failsAt: kept + 2)
    }

    @Test func aLineOverTheLimitSetAsideByEnterReplays() throws {
        let script = try record("long-entered") { terminal in
            try typeLongLine(terminal)
            try terminal.send("\r")
            try terminal.waitFor("and the limit is 64 KiB", timeout: 60)
            try terminal.waitForPrompt("alice> ", timeout: 60)
            try terminal.send("/undo\r")
            try terminal.waitFor("is back", timeout: 60)
            try terminal.waitForPrompt("alice> ", timeout: 60)
            try typeIntoLongDraft(terminal)
        }
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        expectPipeable(lines)
        // The line in four pieces, the last ended by Enter; refused on the pipe too.
        let entered = try #require(lines.firstIndex { $0.hasSuffix("\u{1B}[201~Y") })
        #expect(entered == 5, "\(lines.map { $0.prefix(40) })")
        #expect(
            Array(lines[(entered + 1)...]) == [
                "/expect error line-too-long",
                "/expect no-draft privateMessage_alice",
                "\u{15}/undo",  // written whole after an error
                "/expect draft privateMessage_alice cursor \(Self.longCursor) media 0",
            ] + Self.longDraftTyped, "\(lines.map { $0.prefix(60) })")
        #expect(try fixture.messages(in: "alice").isEmpty)
        // One step changed (a piece of the line left out, under the limit now): it is sent,
        // and the error's check right after it fails.
        try expectReplay(script, change: (lines[entered - 1] + "\n", ""), failsAt: entered + 1)
    }
}
