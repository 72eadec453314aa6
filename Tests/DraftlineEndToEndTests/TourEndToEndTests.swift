import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import ProgramDriver
import Testing

/// The guided tour, typed through the real line editor on a pseudo-terminal.
@Suite("The guided tour on a terminal", .serialized)
struct TourEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func tourPlaysToTheEndOnAScratchDirectory() throws {
        let terminal = try fixture.startTerminal(["--tour", "--tour-speed", "40"])
        try terminal.waitFor("── tour: ")
        let played = try terminal.waitFor("── end of the tour ──", timeout: 60)
        #expect(try terminal.waitForExit() == .exited(0))
        for expected in [
            "trace: saved privateMessage_alice", "global_key: bob", "trace: restored privateMessage_alice",
            "you: Bob's ID is bob", "trace: removed privateMessage_alice", "privateMessage_bob  \"See you at 6\"",
            "trace: discarded privateMessage_bob (Ctrl-C abandons the line", "line abandoned: /undo brings it back",
            "draft for privateMessage_bob is back: \"See you at 6 or 7?\"", "command: /",
            "Draft: See you at 6 or 7?", "1 unsent draft would be forgotten", "1 draft discarded: privateMessage_bob",
        ] {
            #expect(played.contains(expected), "missing \(expected)")
        }
        #expect(!played.contains("error:"))
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory), "the user's data directory was touched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root + "/tmp") == [], "scratch left behind")
    }

    @Test func anyKeySkipsAhead() throws {
        // At this speed a step's pause alone is minutes: only skipping gets through.
        let terminal = try fixture.startTerminal(["--tour", "--tour-speed", "0.01"])
        for step in Tour.steps {
            try terminal.waitFor(String(step.narration.prefix(20)), timeout: 20)
            try terminal.waitForRawMode()
            try terminal.send(" ")
        }
        try terminal.waitFor("── end of the tour ──", timeout: 20)
        #expect(try terminal.waitForExit() == .exited(0))
    }

    @Test func tourFromInsideLeavesTheUsersDraftsAndHistoryAlone() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("carol")
        try terminal.send("mine\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/tour 40\r")
        try terminal.waitFor("── end of the tour ──", timeout: 60)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("carol")
        try terminal.send("\r")
        try terminal.waitForPrompt("carol> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "carol").map(\.content) == ["mine"])
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    @Test func tourNeedsATerminal() throws {
        let result = try fixture.runPiped("", arguments: ["--tour"])
        #expect(result.status == 2)
        #expect(result.error == "draftline: the tour types into the edit line, so it needs a terminal\n")
        let inside = try fixture.runPiped("/tour\n")
        #expect(inside.error.contains("needs a terminal"))
    }

    /// What a chapter must show that only the real editor can play (Up recalls, a paste).
    static let shows: [String: [String]] = [
        "keys": [
            "trace: discarded privateMessage_dmitri (Ctrl-C abandons the line",
            "draft for privateMessage_dmitri is back: \"Half a thought\"",
            "already in the chat with dmitri",
            "trace: saved privateMessage_dmitri (a recalled command ran: the line it replaced is the draft)",
            "trace: discarded (line) (Ctrl-C abandons the line: /undo brings it back) \"typed on a profile\"",
            "  you: Half a thought and more: first line\r\n       second line",
            "1 unsent draft and 1 entry on the undo stack would be forgotten",
            "1 draft discarded: privateMessage_dmitri",
        ]
    ]

    /// Every chapter, through the real editor, to its end.
    @Test(arguments: Tour.chapters.dropFirst().map(\.name))
    func everyChapterPlaysToItsEnd(_ name: String) throws {
        // Wide enough that no trace line is broken to fit (OwnLinesTests checks that).
        let terminal = try PseudoTerminal(
            executable: Fixture.executable,
            arguments: ["--data-dir", fixture.dataDirectory, "--tour", name, "--tour-speed", "40"],
            environment: fixture.environment(["NO_COLOR": "1"]), columns: 160)
        try terminal.waitFor("── tour: \(Tour.chapter(named: name)!.title) ──")
        let played = try terminal.waitFor("── end of the tour ──", timeout: 60)
        #expect(try terminal.waitForExit() == .exited(0))
        #expect(!played.contains("error:"), "\(played)")
        for line in Tour.chapter(named: name)!.steps.map(\.narration) {
            #expect(played.contains(String(line.prefix(30))), "\(name): the step '\(line)' was not told")
        }
        for shown in Self.shows[name] ?? [] { #expect(played.contains(shown), "\(name): missing \(shown)") }
        if Tour.chapter(named: name)!.peerDelay != nil {
            // bob's answers arrive above the line. Which screen the second finds depends on
            // the pace the machine keeps at speed 40 (in his chat, or on his profile as an
            // unread line); TourTests checks where, on a clock of its own.
            #expect(played.contains("  bob: got it: “Are you free on Saturday?”"), "\(played)")
            #expect(
                played.contains("● bob (Bob Okafor): I'm typing on the other side")
                    || played.contains("  bob: I'm typing on the other side"), "\(played)")
        }
    }
}
