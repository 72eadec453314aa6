import DraftKit
import DraftKitFuzzing
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Bad input, hostile stored text, signals and configuration, with the real binary.
@Suite("A terminal that bad input cannot break", .serialized)
struct TerminalSafetyTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Hostile stored texts, as raw bytes: escape sequences a terminal would act on.
    static let corpus: [[UInt8]] = [
        Array("clear \u{1B}[2J screen".utf8), Array("title \u{1B}]0;x\u{07}".utf8),
        Array("clipboard \u{1B}]52;c;aGVsbG8=\u{07}".utf8),
        Array("link \u{1B}]8;;http://evil\u{1B}\\click\u{1B}]8;;\u{1B}\\".utf8),
        Array("report \u{1B}[6n".utf8), Array("window \u{1B}[21t".utf8), Array("dcs \u{1B}P+q544e\u{1B}\\".utf8),
        Array("apc \u{1B}_payload\u{1B}\\".utf8), Array("c1 \u{9B}31m red".utf8),
        [0x72, 0x61, 0x77, 0x20, 0x9B, 0x33, 0x31, 0x6D],
        Array("bidi \u{202E}txt.exe".utf8), [0x62, 0x61, 0x64, 0x20, 0xFF, 0xFE, 0x20, 0x75, 0x74, 0x66],
        // (DEL outside a paste is Backspace on a pipe, as on a terminal.)
        Array("bell \u{07} del \u{1B}[200~\u{7F}\u{1B}[201~ nul".utf8), Array("ok 你好 👩‍👩‍👧 🇯🇵".utf8),
    ]

    /// The characters a terminal would act on, in what draftline wrote; CR is the
    /// terminal's own line ending here.
    static func controlBytes(in bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).unicodeScalars
            .filter { $0 != "\r" && FuzzProperties.isTerminalControl($0) }
            .map { String(format: "U+%04X", $0.value) }
    }

    @Test func storedEscapeSequencesAreShownHarmlessly() throws {
        var script = Data("/open alice\n".utf8)
        for entry in Self.corpus { script.append(contentsOf: entry + [0x0A]) }
        let stored = try fixture.runPiped(bytes: script)
        #expect(stored.status == 0)
        #expect(Self.controlBytes(in: Array(stored.output.utf8)) == [], "pipe output")
        #expect(try fixture.messages(in: "alice").count == Self.corpus.count)

        let terminal = try fixture.startTerminal(environment: ["NO_COLOR": "1"])
        try terminal.waitForPrompt("draftline> ")
        try terminal.send("/open alice\r")
        let shown = try terminal.waitForPrompt("alice> ")
        // What draftline wrote between the echoed command and the next prompt is its own
        // output only: not one byte of it may drive the terminal (but draftline's own
        // switching of bracketed paste, off after a line and on before the next).
        let printed = Array(
            shown.replacingOccurrences(of: "\u{1B}[?2004l", with: "").replacingOccurrences(
                of: "\u{1B}[?2004h", with: ""
            )
            .utf8)
        #expect(Self.controlBytes(in: printed) == [])
        for visible in [
            "^[[2J", "^[]0;x^G", "^[]52;c;", "^[[6n", "^[P+q544e^[\\", "<U+009B>31m", "<U+202E>txt.exe",
            "^G del ^? nul", "ok 你好 👩‍👩‍👧 🇯🇵",
        ] {
            #expect(shown.contains(visible), "\(visible) not shown")
        }
        // A terminal answers ESC[6n by typing a cursor report into the input. Had the
        // request got through, our stand-in terminal would answer it, and the report would
        // land in the edit line.
        if terminal.text.contains("\u{1B}[6n") { try terminal.send("\u{1B}[12;1R") }
        try terminal.send("clean\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(!terminal.text.contains("\u{1B}[6n"))
        #expect(try fixture.messages(in: "alice").last?.content == "clean")
    }

    @Test func namesPathsDraftsAndEchoedInputAreShownHarmlessly() throws {
        try FileManager.default.createDirectory(atPath: fixture.dataDirectory, withIntermediateDirectories: true)
        let contacts: [[String: String]] = [["global_key": "eve", "name": "Eve \u{1B}]0;pwned\u{07}\u{202E}"]]
        try PropertyListSerialization.data(fromPropertyList: contacts, format: .binary, options: 0)
            .write(to: URL(fileURLWithPath: fixture.dataDirectory + "/contacts.plist"))
        let hostilePath = fixture.root + "/\u{1B}[2Jfile.png"
        #expect(FileManager.default.createFile(atPath: hostilePath, contents: Data([1])))
        let script = [
            "/profile eve", "/open eve", "/attach \(hostilePath)", "/attach /nonexistent/\u{1B}]52;c;eA==\u{07}",
            "draft \u{1B}[6n\u{202E}\u{18}b", "/open \u{1B}[2J", "/frob\u{1B}[2J", "/chats", "/drafts",
        ]
        let result = try fixture.runPiped(script.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        #expect(Self.controlBytes(in: Array(result.output.utf8)) == [], "standard output")
        #expect(Self.controlBytes(in: Array(result.error.utf8)) == [], "standard error")
        for visible in [
            "name:       Eve ^[]0;pwned^G<U+202E>", "attached: 1) ^[[2Jfile.png [image]",
            "'/nonexistent/^[]52;c;eA==^G'",
            "\"draft ^[[6n<U+202E>\"", "'^[[2J' is not a valid global_key", "unknown command '/frob^[[2J'",
        ] {
            #expect((result.output + result.error).contains(visible), "\(visible) not shown")
        }
    }

    @Test func aPastedMegabyteIsRefusedAndMemoryStaysBounded() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        let before = terminal.peakMemoryKilobytes ?? 0
        try terminal.send(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20) + [0x0D])
        try terminal.waitFor("line refused: it is 1024 KiB and the limit is 64 KiB", timeout: 120)
        try terminal.waitForPrompt("alice> ", timeout: 60)
        let after = terminal.peakMemoryKilobytes ?? 0
        #expect(after - before < 50 * 1024, "grew by \(after - before) KiB")
        try terminal.send("fine\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["fine"])
    }

    @Test func resizeWhileTypingKeepsTheLine() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("before ")
        try terminal.waitFor("before ")
        terminal.resize(rows: 40, columns: 50)
        try terminal.send("after\r")
        try terminal.waitForPrompt("alice> ")
        terminal.resize(rows: 20, columns: 120)
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["before after"])
    }

    @Test func ctrlZThenFgResumesWithTheLineIntact() throws {
        // A job-control shell in miniature: draftline in its own foreground process group,
        // continued (as `fg` does) as soon as it stops.
        let shell = """
            import os, sys, signal
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            pid = os.fork()
            if pid == 0:
                os.setpgid(0, 0)
                os.tcsetpgrp(0, os.getpgrp())
                os.execv(sys.argv[1], sys.argv[1:])
            try:
                os.setpgid(pid, pid)  # as a shell does; the child may have done it and exec'd
            except PermissionError:
                pass
            while True:
                _, status = os.waitpid(pid, os.WUNTRACED)
                if os.WIFSTOPPED(status):
                    os.write(1, b"\\r\\n[stopped; fg]\\r\\n")
                    os.tcsetpgrp(0, pid)
                    os.kill(-pid, signal.SIGCONT)
                else:
                    sys.exit(os.waitstatus_to_exitcode(status))
            """
        let terminal = try PseudoTerminal(
            executable: "/usr/bin/env",
            arguments: ["python3", "-c", shell, Fixture.executable, "--data-dir", fixture.dataDirectory],
            environment: fixture.environment(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]))
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("half ")
        try terminal.waitFor("half ")
        try terminal.send("\u{1A}")  // Ctrl-Z
        let beforeStop = try terminal.waitFor("[stopped; fg]")
        // Bracketed paste is off before draftline stops (the shell gets a plain terminal)...
        let off = beforeStop.range(of: "\u{1B}[?2004l", options: .backwards)
        let on = beforeStop.range(of: "\u{1B}[?2004h", options: .backwards)
        #expect(off != nil && (on == nil || on!.lowerBound < off!.lowerBound), "bracketed paste left on when stopped")
        // ...and on again once it reads the line after fg.
        try terminal.waitFor("\u{1B}[?2004h")
        try terminal.waitForRawMode()
        try terminal.send("typed after fg\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["half typed after fg"])
    }

    @Test(arguments: [("bind -v\n", [String]()), ("", ["--editor", "vi"])])
    func viModeKeepsEveryFunctionAndThePrefill(_ editrc: String, _ arguments: [String]) throws {
        try editrc.write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        let terminal = try fixture.startTerminal(arguments)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("in vi\u{18}p")
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/back\r")
        try terminal.waitForPrompt("alice> ")
        // ESC to command mode, 0 to the start, i to insert: the pre-fill is a real line.
        try terminal.send("\u{1B}0i>\r")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("/open bo\t\r")
        try terminal.waitForPrompt("bob> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == [">in vi"])
    }

    /// vi's `v` (libedit's `vi-histedit`) would write the line, a draft, to `/tmp` and run
    /// `$EDITOR` on it: no key runs it, whether vi mode comes from `--editor vi`, a
    /// `bind -v` line, or a line that binds `v` to it on purpose. The line stays as typed.
    @Test(arguments: [
        ("", ["--editor", "vi"]), ("bind -v\n", [String]()), ("bind -v\nbind -a v vi-histedit\n", [String]()),
    ])
    func noKeyWritesTheLineToAFile(_ editrc: String, _ arguments: [String]) throws {
        try editrc.write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        let marker = fixture.root + "/editor-ran"
        let editor = fixture.root + "/editor.sh"
        try "#!/bin/sh\necho \"$1\" > '\(marker)'\necho replaced > \"$1\"\n".write(
            toFile: editor, atomically: true, encoding: .utf8)
        #expect(chmod(editor, 0o755) == 0)
        let terminal = try fixture.startTerminal(arguments, environment: ["EDITOR": editor, "VISUAL": editor])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("my draft")
        try terminal.waitFor("my draft")
        // ESC to command mode, v (vi-histedit where bound), then A to append and send.
        try terminal.send("\u{1B}v")
        try terminal.send("A!\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(!FileManager.default.fileExists(atPath: marker), "the editor ran on a file holding the draft")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["my draft!"])
    }

    /// libedit's `:` prompt (`ed-command`: Escape `x` in emacs mode, `:` in vi's command
    /// mode) would take the edit line away, and what was typed with it: the key rings the
    /// bell and the line stays, in either mode and when a configuration binds it on purpose.
    @Test(arguments: [
        ("", [String](), "\u{1B}x", ""), ("", ["--editor", "vi"], "\u{1B}:", "A"),
        ("bind ^G ed-command\n", [String](), "\u{07}", ""),
    ])
    func noKeyTakesTheLineIntoLibeditsCommandPrompt(
        _ editrc: String, _ arguments: [String], _ keys: String, _ backToInsert: String
    ) throws {
        try editrc.write(toFile: fixture.home + "/.editrc", atomically: true, encoding: .utf8)
        let terminal = try fixture.startTerminal(arguments)
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("see you at the ")
        try terminal.waitFor("see you at the ")
        try terminal.send(keys)
        try terminal.send(backToInsert + "party\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["see you at the party"])
    }

    /// Escape pressed out of habit before a draftline key, in emacs mode: the key still
    /// acts, and nothing is typed into the draft. (ESC `^X` was taken as an unknown
    /// sequence and `b` typed: the draft 'hello' became 'hellob', and a `/undo` typed
    /// after it was sent as part of the message; the QA trial's F6.) Escape before a
    /// word key still moves by words (Escape `b` is Meta-b).
    @Test func escapeBeforeADraftlineKeyIsNoTyping() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("hello")
        try terminal.waitFor("hello")
        try terminal.send("\u{1B}\u{18}b")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("\u{1B}bX\r")
        try terminal.waitFor("you: Xhello")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["Xhello"])
    }

    /// A new user's trial, in emacs mode: Escape then `/drafts` typed into a restored draft
    /// sent `hello drafts` (libedit took Escape `/` as an unbound Meta key and dropped both),
    /// and Escape then a space ate the space. Escape before a key no Meta binding takes is
    /// now nothing: the key is typed; the command runs and the draft stays.
    @Test func escapeBeforeAnUnboundKeyTypesTheKey() throws {
        let terminal = try fixture.startTerminal()
        try terminal.waitForPrompt("draftline> ")
        try terminal.restore("hello", in: "alice")
        try terminal.send("\u{1B} \u{1B}/drafts\r")
        try terminal.waitFor("privateMessage_alice  \"hello\"")
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{1B} there\u{1B}!\r")
        try terminal.waitFor("you: hello there!")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hello there!"])
    }

    /// Keys terminals send whatever `TERM` says (the fixture's is `xterm`, as inside tmux
    /// by mistake): Home as `ESC[1~` typed `~`, Page Up `~`, F5 `15~`, Ctrl-Left `;5D`, and
    /// in vi mode they toggled case or deleted to the end. Each key does its job or
    /// nothing, in emacs mode and in both of vi's modes, and Escape before an arrow key
    /// types nothing (Escape, Down typed `[B`).
    @Test(arguments: [false, true])
    func terminalKeysOutsideTerminfoDoTheirJobOrNothing(vi: Bool) throws {
        let terminal = try fixture.startTerminal(vi ? ["--editor", "vi"] : [])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        let insert = vi ? "i" : ""
        let keys = [
            "\u{1B}[1~", "\u{1B}[4~", "\u{1B}[5~", "\u{1B}[6~", "\u{1B}[2~", "\u{1B}[15~", "\u{1B}OP",
            "\u{1B}[1;5D", "\u{1B}[1;5C", "\u{1B}[1;2D", "\u{1B}[3;5~", "\u{1B}\u{1B}[B", "\u{1B}\u{1B}[D",
        ]
        for key in keys {
            try terminal.send("one two" + key + insert + "|\r")
            try terminal.waitForPrompt("alice> ")
            if vi { try terminal.send("\u{1B}ddi") }
            try terminal.send("\u{15}")
        }
        // Text that looks like the tail of a sequence is text (in vi's insert mode, `O` and
        // `[` began one and `O9` vanished from a typed path).
        try terminal.send("x/O9 OB [B OP [1~\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        // Where each key left the cursor (vi's command mode inserts before the character
        // under it): Home, End, nothing (Page Up, Page Down, Insert, F5, F1), a word back,
        // a word on (at the end already), a character back, the character under the
        // cursor deleted (none at the end), nothing (Escape, Down), a character back (Escape,
        // Left).
        let sent = try fixture.messages(in: "alice").map(\.content)
        let atEnd = vi ? "one tw|o" : "one two|"
        #expect(
            sent == [
                "|one two", atEnd, atEnd, atEnd, atEnd, atEnd, atEnd, vi ? "one |two" : "one |two", atEnd,
                vi ? "one t|wo" : "one tw|o", vi ? "one t|w" : "one two|", atEnd, vi ? "one t|wo" : "one tw|o",
                "x/O9 OB [B OP [1~",
            ], "\(sent)")
    }

    /// Down on one's own line, with nothing recalled: libedit put back the line it saved at
    /// the last Up (empty, or a line of an earlier read), and the typed text was gone, kept
    /// nowhere. Down there does nothing, in emacs and vi mode, with `^N` and vi's `j` too.
    @Test(arguments: [false, true])
    func downOnOnesOwnLineKeepsIt(vi: Bool) throws {
        let terminal = try fixture.startTerminal(vi ? ["--editor", "vi"] : [])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("first\r")
        try terminal.waitForPrompt("alice> ")
        // Up and Down in this read: back to the own line, then Down once more.
        try terminal.send("mine\u{1B}[A")
        try terminal.waitFor("first")
        try terminal.send("\u{1B}[B\u{1B}[B" + (vi ? "A" : "") + "!\r")
        try terminal.waitForPrompt("alice> ")
        // A later read: libedit still holds "mine" from the Up above.
        let downs = vi ? ["\u{1B}[B", "\u{0E}", "\u{1B}j"] : ["\u{1B}[B", "\u{0E}", "\u{1B}OB"]
        for (index, down) in downs.enumerated() {
            // (In vi, Down and `j` are in command mode: `A` appends again; `^N` is not.)
            try terminal.send("later \(index)" + down + (vi && down.hasPrefix("\u{1B}") ? "A" : "") + "?\r")
            try terminal.waitForPrompt("alice> ")
        }
        #expect(try terminal.quit() == .exited(0))
        let sent = try fixture.messages(in: "alice").map(\.content)
        #expect(sent == ["first", "mine!", "later 0?", "later 1?", "later 2?"], "\(sent)")
    }

    @Test func editrcNamedByTheEnvironmentCanRebindEveryFunctionByName() throws {
        let path = fixture.root + "/custom-editrc"
        let editrc = """
            draftline:bind ^T draftline-profile
            draftline:bind ^O draftline-open
            draftline:bind ^G draftline-complete
            otherprogram:bind ^T ed-clear-screen

            """
        try editrc.write(toFile: path, atomically: true, encoding: .utf8)
        let terminal = try fixture.startTerminal(environment: ["EDITRC": path])
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("x\u{0F}")  // ^O: draftline-open
        try terminal.waitForPrompt("open chat with: ")
        try terminal.send("bob\r")
        try terminal.waitForPrompt("bob> ")
        try terminal.send("/op\u{07}alice\r")  // ^G: draftline-complete
        try terminal.waitForPrompt("alice> ")
        try terminal.send("\u{14}")  // ^T: draftline-profile, with the pre-filled draft
        try terminal.waitForPrompt("profile alice> ")
        try terminal.send("/quit\r")
        try terminal.waitFor("1 draft discarded: privateMessage_alice")
        #expect(try terminal.waitForExit() == .exited(0))
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        for (environment, coloured) in [([String: String](), true), (["NO_COLOR": "1"], false)] {
            let terminal = try fixture.startTerminal(environment: environment)
            try terminal.waitForPrompt("draftline> ")
            try terminal.send("/nonsense\r")
            let shown = try terminal.waitForPrompt("draftline> ")
            #expect(shown.contains("\u{1B}[31merror: unknown command") == coloured, "\(environment)")
            #expect(shown.contains("error: unknown command '/nonsense'"))
            try terminal.send("\u{15}")  // the failed command is back in the line: empty it
            #expect(try terminal.quit() == .exited(0))
        }
    }

    @Test func aLocaleThatIsNotUTF8GetsOneWarningAndASCIIStillWorks() throws {
        let terminal = try fixture.startTerminal(environment: ["LANG": "C", "LC_ALL": "C"])
        try terminal.waitFor("warning: the locale's character set is ANSI_X3.4-1968, not UTF-8")
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("plain ascii\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["plain ascii"])
    }
}

extension TerminalSafetyTests {
    /// A terminal without cursor motion (`dumb`, or one the terminfo database does not
    /// know) gets no escape sequence at all: no colour, no clearing when printing above the
    /// line, no bracketed paste; messages from elsewhere and errors still arrive as lines.
    @Test(arguments: ["dumb", "no-such-terminal-xyz"])
    func aTerminalWithoutCapabilitiesGetsNoEscapeSequences(_ term: String) throws {
        let terminal = try fixture.startTerminal(["--as", "bob"], environment: ["TERM": term])
        try terminal.waitFor("draftline> ")
        try terminal.send("/open alice\r")
        try terminal.waitFor("alice> ")
        try terminal.send("/frob\r")
        try terminal.waitFor("unknown command '/frob'")
        try terminal.waitForRawMode()
        try terminal.send("\u{15}half typed")  // Ctrl-U: the failed command came back; clear it
        try terminal.waitFor("half typed")
        let sent = try fixture.runPiped(
            "/open bob\nfrom elsewhere\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        #expect(sent.status == 0, "\(sent.error)")
        try terminal.waitFor("alice: from elsewhere")
        try terminal.send("\r")
        try terminal.waitFor("you: half typed")
        #expect(try terminal.quit() == .exited(0))
        #expect(!terminal.text.contains("warning"), "\(terminal.text)")
        let escapes = terminal.output.count { $0 == 0x1B }
        #expect(
            escapes == 0,
            "\(escapes) escape bytes in \(String(decoding: terminal.output, as: UTF8.self).debugDescription)")
    }
}
