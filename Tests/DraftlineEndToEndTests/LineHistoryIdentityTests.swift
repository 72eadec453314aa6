import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// The edit line's history is each identity's own, and two sessions of one identity merge
/// their lines into it rather than overwrite each other's (SPEC §4). On pseudo-terminals,
/// with the stored files read by Python's `plistlib`.
@Suite("Edit-line history per identity")
struct LineHistoryIdentityTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let up = "\u{1b}[A"

    @Test func oneIdentitysLinesAreNeverRecalledByAnother() throws {
        do {
            let alice = try fixture.startTerminal(["--as", "alice"])
            try alice.waitForPrompt("draftline> ")
            try alice.open("bob")
            try alice.send("the PIN is 4921\r")
            try alice.waitForPrompt("bob> ")
            #expect(try alice.quit() == .exited(0))
        }
        #expect(try fixture.lineHistory(of: "alice") == ["/open bob", "the PIN is 4921", "/quit"])
        let carol = try fixture.startTerminal(["--as", "carol"])
        try carol.waitForPrompt("draftline> ")
        try carol.open("bob")
        // Up three times: with alice's lines this would be her PIN; carol has only her own.
        try carol.send(Self.up + Self.up + Self.up + "\r")
        try carol.waitForPrompt("bob> ")
        #expect(try carol.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob+carol").isEmpty)
        #expect(try fixture.lineHistory(of: "carol") == ["/open bob", "/open bob", "/quit"])
        #expect(try fixture.lineHistory(of: "alice") == ["/open bob", "the PIN is 4921", "/quit"])
    }

    /// Issue 29: a history file whose read fails at start is said in one line naming it,
    /// and is never rewritten from the failed read: the lines entered then are added to
    /// the lines it holds. The first `openat` of the file fails (`DRAFTLINE_FAULTS`).
    @Test func aHistoryThatCannotBeReadIsSaidAndNeverRewrittenFromNothing() throws {
        let file = fixture.dataDirectory + "/line-history.me.plist"
        do {
            let first = try fixture.startTerminal()
            try first.waitForPrompt("draftline> ")
            try first.open("bob")
            #expect(try first.quit() == .exited(0))
        }
        #expect(try fixture.lineHistory() == ["/open bob", "/quit"])
        let terminal = try fixture.startTerminal(
            environment: ["DRAFTLINE_FAULTS": "fail=0:EIO:openat:\(file)"], columns: 250)
        let start = try terminal.waitForPrompt("draftline> ")
        let said = start.split(separator: "\n").filter { $0.contains("edit-line history") }
        #expect(said.count == 1, "\(start)")
        #expect(said.first?.contains("\(file): Input/output error") == true, "\(start)")
        try terminal.open("carol")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.lineHistory() == ["/open bob", "/quit", "/open carol", "/quit"])
    }

    @Test func twoSessionsOfOneIdentityMergeTheirLines() throws {
        let first = try fixture.startTerminal(["--as", "alice"])
        let second = try fixture.startTerminal(["--as", "alice"])
        for terminal in [first, second] { try terminal.waitForPrompt("draftline> ") }
        try first.open("bob")
        try second.open("carol")
        try first.send("first line\r")
        try first.waitForPrompt("bob> ")
        try second.send("second line\r")
        try second.waitForPrompt("carol> ")
        #expect(try first.quit() == .exited(0))
        #expect(try second.quit() == .exited(0))
        #expect(
            try fixture.lineHistory(of: "alice") == [
                "/open bob", "/open carol", "first line", "second line", "/quit", "/quit",
            ])
    }

    /// Issue 30, 11: the file every identity shared before holds whoever's lines ran there
    /// (another identity's among them), so no identity reads it: `me`'s Up finds nothing in
    /// it, nor does another identity's, and the first line `me` enters starts a file of its
    /// own that holds none of the shared file's lines (the variant: they are not copied in).
    @Test func theOldSharedFileIsNobodysLines() throws {
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        let script =
            "import plistlib, sys; plistlib.dump(['from before'], open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)"
        _ = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, fixture.dataDirectory + "/line-history.plist"],
            environment: fixture.environment(), timeout: 60)
        for identity in ["me", "dmitri"] {
            let terminal = try fixture.startTerminal(["--as", identity])
            try terminal.waitForPrompt("draftline> ")
            try terminal.open("alice")
            try terminal.send(Self.up + Self.up + "\r")
            try terminal.waitForPrompt("alice> ")
            #expect(try terminal.quit() == .exited(0))
        }
        #expect(try fixture.messages(in: "alice").isEmpty)
        #expect(try fixture.messages(in: "alice+dmitri").isEmpty)
        #expect(try !fixture.lineHistory(of: "me").contains("from before"))
        #expect(try fixture.lineHistory(of: "me").first == "/open alice")
    }
}
