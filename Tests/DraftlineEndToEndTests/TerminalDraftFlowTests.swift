import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// The real binary on a pseudo-terminal: keystrokes in, stored messages and screen out.
///
/// Each test checks what a draft held by sending it and reading the stored message, so a
/// draft that came back changed, or with its cursor elsewhere, fails the test.
@Suite("draftline on a terminal", .serialized)
struct TerminalDraftFlowTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func draftWithTabControlCJKAndEmojiSurvivesProfileAndBackWithItsCursor() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        // ^V quotes the next key, so TAB and ^A go into the line instead of running bindings.
        try terminal.send("tab:\u{16}\tctl:\u{16}\u{1} 你好 😀")
        try terminal.send("\u{2}\u{2}\u{2}")  // ^B three times: the cursor goes before 好
        try terminal.send("\u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("|\r")  // typed at the restored cursor
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["tab:\tctl:\u{1} 你|好 😀"])
    }

    @Test func twoChatsKeepTwoSeparateDrafts() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("for alice\u{18}o")
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("bo\t\r")  // Tab completes the name
        try terminal.waitForPrompt("bob> ")
        try terminal.send("for bob\u{1}\u{18}o")  // ^A: the cursor is at the start when leaving
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("alice\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("!\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("!\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\u{4}")  // Ctrl-D on the empty line quits
        #expect(try terminal.waitForExit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["for alice!"])
        #expect(try fixture.messages(in: "bob").map(\.content) == ["!for bob"])
    }

    @Test func sendingClearsTheDraft() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("hello\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\r")  // sends the pre-filled draft
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\r")  // an empty line now: nothing is sent
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hello"])
    }

    @Test func quitForgetsDraftsButHistoryStays() throws {
        let canary = "canary-\(UInt64.random(in: 0...UInt64.max))"
        do {
            let terminal = try fixture.startTerminal()
            try terminal.waitForPrompt("draftline> ")
            try terminal.open("alice")
            try terminal.send("kept message\r")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("\(canary)\u{18}b")
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/quit\r")
            try terminal.waitFor("1 draft discarded: privateMessage_alice")
            #expect(try terminal.waitForExit() == .exited(0))
        }
        #expect(fixture.filesContaining(canary) == [])
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open alice\r")
        let screen = try terminal.waitForPrompt("alice> ")
        #expect(screen.contains("you: kept message"))
        try terminal.send("\r")  // no draft came back, so nothing is sent
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["kept message"])
    }

    @Test func ctrlCAbandonsTheLineAndDoesNotExit() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("half typed\u{3}")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("after\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["after"])
    }

    /// The terminal starts with settings libedit's own "cooked" mode would change (as
    /// after `stty -icrnl inlcr`): a termination signal must put back exactly these.
    @Test(arguments: [SIGTERM, SIGHUP])
    func terminationSignalsExitCleanlyAndRestoreTheTerminal(_ signal: Int32) throws {
        let terminal = try PseudoTerminal(
            executable: Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory],
            environment: fixture.environment(),
            configure: {
                $0.c_iflag &= ~tcflag_t(ICRNL)
                $0.c_iflag |= tcflag_t(INLCR)
            })
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("unsent")
        #expect(!terminal.isCanonical)
        terminal.signal(signal)
        #expect(try terminal.waitForExit() == .exited(128 + signal))
        #expect(
            PseudoTerminal.same(terminal.attributes, terminal.initialAttributes),
            "the terminal's settings differ from those at start")
        #expect(try fixture.messages(in: "alice").isEmpty)
    }

    @Test func editLineHistoryPersistsAndHoldsNoDraft() throws {
        do {
            let terminal = try fixture.startTerminal()
            try terminal.waitForPrompt("draftline> ")
            try terminal.open("alice")
            try terminal.send("entered line\r")
            try terminal.waitForPrompt("alice> ")
            try terminal.send("a draft only\u{18}b")
            try terminal.waitForPrompt("draftline> ")
            #expect(try terminal.quit() == .exited(0))
        }
        let lines = try fixture.lineHistory()
        #expect(lines == ["/open alice", "entered line", "/quit"])
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        // Up arrow three times: past "/open alice" and "/quit" to "entered line"; Enter sends it.
        try terminal.send("\u{1b}[A\u{1b}[A\u{1b}[A\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["entered line", "entered line"])
    }

    @Test func keyFunctionsCanBeReboundByNameInEditrc() throws {
        let editrc = "# draftline only\ndraftline:bind ^Y draftline-back\n"
        try editrc.write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("via editrc\u{19}")  // ^Y, bound by name in ~/.editrc
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["via editrc"])
    }
}
