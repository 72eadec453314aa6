import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Keys typed while no line is read (a command running, `/wait`) are the line editor's: the
/// terminal stays in the editor's mode between reads, so they reach the next read exactly
/// as if typed during it, and the user's own settings are back whenever draftline stops or
/// ends.
@Suite("Keys typed ahead between two reads")
struct TypeAheadTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    func start() throws -> PseudoTerminal {
        let terminal = try fixture.startTerminal(environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ")
        return terminal
    }

    /// Leaves a draft in alice's chat and comes home, so that the first Ctrl-D warns.
    func leaveADraft(_ terminal: PseudoTerminal) throws {
        try terminal.open("alice")
        try terminal.send("a draft\u{18}b")
        try terminal.waitForPrompt("draftline> ")
    }

    /// Enters `/wait 1 30` and returns once its read has ended: what is typed next is typed
    /// while the wait runs, between two reads.
    /// A message from `user` to the user, stored by another draftline (on a pipe, as `user`).
    func arrive(from user: String) throws {
        let sent = try fixture.runPiped(
            "/open me\nfrom \(user)\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", user])
        #expect(sent.status == 0, "\(sent.error)")
    }

    func startWaiting(_ terminal: PseudoTerminal) throws {
        try terminal.send("/wait 1 30\r")
        try terminal.waitForReadToEnd()
    }

    /// The brief's case as typed at the prompt: both bytes in one write. (Today's key reader
    /// already keeps the second for the next read when both arrive during a read.)
    @Test func twoCtrlDsInOneWriteQuit() throws {
        let terminal = try start()
        try leaveADraft(terminal)
        try terminal.send("\u{4}\u{4}")
        try terminal.waitFor("1 unsent draft would be forgotten")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// Two Ctrl-Ds typed (in one write) while a command runs: the first warns, the second
    /// quits. On a cooked terminal the line discipline took each as its end of file, and
    /// libedit then read two NULs.
    @Test func twoCtrlDsTypedWhileACommandRunsQuit() throws {
        let terminal = try start()
        try leaveADraft(terminal)
        try startWaiting(terminal)
        try terminal.send("\u{4}\u{4}")
        try terminal.send("\u{3}")  // ends the wait; the Ctrl-Ds are the next read's
        try terminal.waitFor("wait stopped: 0 of 1 message arrived")
        try terminal.waitFor("1 unsent draft would be forgotten")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    /// Editing keys typed while a command runs edit the edit line, draft included, as they
    /// would had the line been on screen: Ctrl-U kills the line, Backspace deletes what is
    /// before the cursor. (The line discipline applied them to its own buffer of typed-ahead
    /// keys: `helloxyz`, `hellop!`.)
    @Test(arguments: [("abc\u{15}xyz", "xyz"), ("\u{7F}\u{7F}p!", "help!")])
    func editingKeysTypedWhileACommandRunsEditTheLine(_ typed: String, _ sent: String) throws {
        let terminal = try start()
        try terminal.open("bob")
        try terminal.send("hello\u{18}/")  // ^X /: the command prompt, "hello" kept as the draft
        try terminal.waitForPrompt("command: ")
        try terminal.send("wait 1 30\r")
        try terminal.waitForReadToEnd()
        try terminal.send(typed)
        try arrive(from: "bob")  // ends the wait: a Ctrl-C would abandon what was typed
        try terminal.waitFor("ok: 1 message arrived")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("\r")
        try terminal.waitFor("you: ")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "bob").map(\.content) == ["from bob", sent])
    }

    /// Between reads the terminal is in the editor's mode (no canonical input, no echo, no
    /// signal keys, no extended input processing) while output keeps its processing: the
    /// `\n` draftline writes reaches the screen as `\r\n`.
    @Test func betweenReadsTheTerminalTakesKeysAsTheEditorDoesAndOutputAsBefore() throws {
        let terminal = try start()
        try terminal.open("alice")
        try startWaiting(terminal)
        let modes = terminal.attributes
        for (flag, name) in [(ICANON, "icanon"), (ECHO, "echo"), (ISIG, "isig"), (IEXTEN, "iexten")] {
            #expect(modes.c_lflag & tcflag_t(flag) == 0, "\(name) is on between reads")
        }
        #expect(modes.c_oflag & tcflag_t(OPOST) != 0 && modes.c_oflag & tcflag_t(ONLCR) != 0)
        try terminal.send("\u{3}")
        let printed = try terminal.waitFor("alice> ")
        #expect(printed.contains("wait stopped: 0 of 1 message arrived\r\n"), "\(printed.debugDescription)")
        #expect(!printed.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(printed.debugDescription)")
        #expect(try terminal.quit() == .exited(0))
    }

    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case quitCommand, ctrlD, sigtermAtThePrompt, sigtermDuringAWait, sighupDuringAWait
        var testDescription: String { rawValue }
    }

    /// However draftline ends, the terminal has the settings it had before, to the byte
    /// (what `stty -g` prints: flags, control characters, speeds). The terminal starts with
    /// settings that libedit's modes change (`-icrnl inlcr -echoctl`, `VMIN` 4, `VTIME` 2).
    @Test(arguments: Ending.allCases)
    func everyEndingLeavesTheTerminalAsItWas(_ ending: Ending) throws {
        let terminal = try PseudoTerminal(
            executable: Fixture.executable, arguments: ["--data-dir", fixture.dataDirectory],
            environment: fixture.environment(["NO_COLOR": "1"]),
            configure: {
                $0.c_iflag &= ~tcflag_t(ICRNL)
                $0.c_iflag |= tcflag_t(INLCR)
                $0.c_lflag &= ~tcflag_t(ECHOCTL)
                withUnsafeMutableBytes(of: &$0.c_cc) {
                    $0[Int(VMIN)] = 4
                    $0[Int(VTIME)] = 2
                }
            })
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        let status: PseudoTerminal.Termination
        switch ending {
        case .quitCommand:
            status = try terminal.quit()
            #expect(status == .exited(0))
        case .ctrlD:
            try terminal.send("\u{4}")
            status = try terminal.waitForExit()
            #expect(status == .exited(0))
        case .sigtermAtThePrompt:
            terminal.signal(SIGTERM)
            status = try terminal.waitForExit()
            #expect(status == .exited(128 + SIGTERM))
        case .sigtermDuringAWait, .sighupDuringAWait:
            try startWaiting(terminal)
            let signal = ending == .sigtermDuringAWait ? SIGTERM : SIGHUP
            terminal.signal(signal)
            status = try terminal.waitForExit()
            #expect(status == .exited(128 + signal))
        }
        #expect(
            PseudoTerminal.same(terminal.attributes, terminal.initialAttributes),
            "the terminal's settings differ from those at start")
    }

    /// A job-control shell in miniature runs draftline in its own process group and
    /// continues it (`fg`) whenever it stops, saying each time whether the terminal had the
    /// settings it had before draftline started; and again when draftline ends.
    static let shell = """
        import os, sys, signal, termios
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        before = termios.tcgetattr(0)
        def settings():
            return "as before" if termios.tcgetattr(0) == before else "changed"
        pid = os.fork()
        if pid == 0:
            os.setpgid(0, 0)
            os.tcsetpgrp(0, os.getpgrp())
            os.execv(sys.argv[1], sys.argv[1:])
        try:
            os.setpgid(pid, pid)
        except PermissionError:
            pass
        os.write(1, b"[pid %d]\\r\\n" % pid)
        while True:
            _, status = os.waitpid(pid, os.WUNTRACED)
            if os.WIFSTOPPED(status):
                os.write(1, ("\\r\\n[stopped; settings %s]\\r\\n" % settings()).encode())
                os.tcsetpgrp(0, pid)
                os.kill(-pid, signal.SIGCONT)
            else:
                os.write(1, ("[ended; settings %s]\\r\\n" % settings()).encode())
                sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// Stopped by the suspend key during a read, by SIGTSTP during a read, by SIGTSTP between
    /// reads and by the suspend key between reads (during a wait, which goes on after `fg`):
    /// each time the shell finds the user's settings, and after `fg` keys reach the editor
    /// again (the text typed during the wait is the next line's; the wait ends with a
    /// message).
    @Test func everyStopLeavesTheUsersSettingsAndFgTheEditorsMode() throws {
        let terminal = try PseudoTerminal(
            executable: "/usr/bin/env",
            arguments: ["python3", "-c", Self.shell, Fixture.executable, "--data-dir", fixture.dataDirectory],
            environment: fixture.environment([
                "NO_COLOR": "1", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            ]))
        try terminal.waitFor("[pid ")
        let pid = pid_t(try terminal.waitFor("]")) ?? 0
        #expect(pid > 0)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("half ")
        try terminal.waitFor("half ")
        try terminal.send("\u{1A}")  // Ctrl-Z
        try terminal.waitFor("[stopped; settings as before]")
        try terminal.waitForRawMode()
        // The line drawn again is the resume's last step: a signal from outside before it
        // would race the editor's own return to its mode (keys never do: they queue).
        try terminal.waitFor("alice> half ")
        kill(pid, SIGTSTP)  // from outside, during the read
        try terminal.waitFor("[stopped; settings as before]")
        try terminal.waitForRawMode()
        try terminal.send("typed after fg\r")
        try terminal.waitFor("you: half typed after fg")
        try terminal.waitForPrompt("alice> ")
        try startWaiting(terminal)
        kill(pid, SIGTSTP)  // from outside, between reads
        try terminal.waitFor("[stopped; settings as before]")
        try terminal.waitForRawMode()
        try terminal.send("\u{1A}")  // the suspend key, between reads: at once, not after the wait
        try terminal.waitFor("[stopped; settings as before]")
        try terminal.waitForRawMode()
        try terminal.send("queued")
        try arrive(from: "alice")
        try terminal.waitFor("ok: 1 message arrived")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\r")
        try terminal.waitFor("you: queued")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/quit\r")
        try terminal.waitFor("[ended; settings as before]")
        #expect(try terminal.waitForExit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["half typed after fg", "from alice", "queued"])
    }
}
