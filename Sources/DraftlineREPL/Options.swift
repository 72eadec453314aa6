import DraftKit

/// draftline's command-line options.
public struct Options: Equatable, Sendable {
    /// `--data-dir DIR`: where history lives; `nil` means the default.
    public var dataDirectory: String?
    /// `--editor vi|emacs`: the editing mode; `nil` keeps `~/.editrc`'s or emacs.
    public var editor: String?
    /// `--trace`: print a line for every draft event from the start.
    public var trace = false
    /// `--tour [CHAPTER]`: play the guided tour (or one chapter) instead of the REPL.
    public var tour = false
    /// The chapter `--tour` named; `nil` for the first.
    public var tourChapter: String?
    /// `--tour-speed N`: the tour's pace, 1 being a person's.
    public var tourSpeed: Double = 1
    /// `--help`.
    public var showHelp = false
    /// `--version`.
    public var showVersion = false
    /// `--strict`: the first error or failed expectation ends the run (with status 1).
    public var strict = false
    /// `--trace-file PATH`: every draft and message event, one line each, in this file.
    public var traceFile: String?
    /// `--trace-format json|debuglog`: how the trace file is written.
    public var traceFormat = TraceFormat.json
    /// `--report tap|junit FILE`, each time it is given: the run's results, written to FILE
    /// when it ends.
    public var reportFiles: [ReportFile] = []
    /// `--record FILE`: on a terminal, the session written to FILE as a pipe-mode script
    /// with `/expect` lines, when it ends.
    public var recordFile: String?

    /// A report the run writes when it ends.
    public struct ReportFile: Equatable, Sendable {
        /// The format: TAP (the Test Anything Protocol) or JUnit XML.
        public enum Format: String, Sendable, CaseIterable {
            case tap, junit
        }

        public var format: Format
        public var path: String

        public init(_ format: Format, _ path: String) {
            self.format = format
            self.path = path
        }
    }

    /// `--as KEY`: who the user is; `me` when not given.
    public var identity = GlobalKey.me
    /// `--demo`: the demo contacts answer what is sent to them.
    public var demo = false
    /// `--demo-delay SECONDS`: how long a demo contact takes to answer.
    public var demoDelay = 2.0
    /// `--server irc://HOST[:PORT]` or `ircs://…`: talk through this chat server (as the
    /// nick `--as` names) instead of the data directory's other processes.
    public var server: String?
    /// `--server-ca FILE`: the certificate authority to trust for `ircs://`.
    public var serverCA: String?
    /// `--no-typing`: send no typing state to the server.
    public var sendsTyping = true

    /// `draftline import FILE` or `draftline export FILE [--chat ID]`: move history in or
    /// out in the original design's one-file layout instead of running the REPL.
    public enum Transfer: Equatable, Sendable {
        case importing(String)
        case exporting(String, chat: String?)
    }

    /// The transfer asked for, if any.
    public var transfer: Transfer?

    public init() {}

    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The usage text `--help` prints.
    public static let usage = """
        usage: draftline [--data-dir DIR] [--as KEY] [--demo [--demo-delay S]]
                         [--editor vi|emacs] [--trace] [--strict]
                         [--trace-file PATH [--trace-format json|debuglog]]
                         [--report tap|junit FILE]... [--record FILE]
                         [--server irc://HOST[:PORT] [--server-ca FILE] [--no-typing]]
               draftline --tour [CHAPTER] [--tour-speed N]
               draftline [--data-dir DIR] import FILE
               draftline [--data-dir DIR] export FILE [--chat ID]
               draftline --help | --version

        A terminal chat that keeps each conversation's unsent text (its draft) in
        memory: leave a chat and come back, and your half-typed text is waiting in the
        edit line. /back (or ^X b) goes back a screen, to home in the end.

        options:
          --data-dir DIR     keep history in DIR (default: $XDG_DATA_HOME/draftline,
                             else ~/.local/share/draftline)
          --as KEY           be the user KEY (default: me), a contact (a demo one or
                             one in DIR/contacts.plist) so others can open the chat:
                             two draftlines on one data directory, started --as
                             alice and --as bob, talk to each other live
          --demo             the demo contacts (alice, bob, carol, dmitri, mei)
                             answer each message, to watch one arrive while typing
          --demo-delay S     they answer after S seconds (default 2)
          --server URL       talk through the IRC server at irc://HOST[:PORT] (or
                             ircs:// for TLS) as the nick --as names; drafts never
                             leave this process (Documentation/Network.md)
          --server-ca FILE   trust FILE's certificate authority for ircs://
          --no-typing        send the server no typing state
          --editor MODE      edit in vi or emacs mode (default: ~/.editrc, else emacs)
          --trace            print a line for every draft event (save, restore...)
          --strict           stop at the first error or failed /expect (status 1),
                             but not at an error the next line checks with
                             /expect error; without it the run goes on, and a
                             failed /expect still makes the status 1
          --report F FILE    when the run ends, write one result per /expect to FILE,
                             with its line, and the other lines' errors (F: tap or
                             junit; give the option once for each)
          --record FILE      on a terminal, write the session to FILE as a script
                             that replays it on a pipe, with /expect lines after
                             each error and draft event (replay: --strict < FILE)
          --trace-file PATH  append every draft and message event to PATH, one a line;
                             this file holds draft text (without it, drafts never
                             reach the disk)
          --trace-format F   json (one object a line, the default) or debuglog (the
                             original input view's own log lines)
          --tour [CHAPTER]   play a guided tour of the draft flow (needs a terminal;
                             keeps its history in memory; any key skips ahead); the
                             chapters: story (the default), undo, empty, comments,
                             cursor, keys, live, media
          --tour-speed N     type the tour N times as fast (default 1)
          --help             show this help
          --version          show the version

        import FILE appends the chats of a property list in the original design's
        layout (chat IDs to arrays of message dictionaries, as UserDefaults keeps
        them) to the history; a message whose messageID is there already is skipped.
        export FILE writes the history (or one chat) in that layout, atomically,
        mode 0600. Their options (--data-dir, and --chat for export) go before or
        after them.

        With standard input not a terminal, draftline reads one line per command or
        message and writes no prompt: a script (see /expect). Type /help inside
        draftline for commands and keys.

        exit status:
          0    every /expect held, or there were none
          1    an /expect failed, or --strict stopped the run at an error
          2    the command line, the data directory or a file it names cannot be
               used
          3    a message could not be stored
          128+N  a terminal session ended by signal N (SIGTERM, SIGHUP)

        environment:
          SOURCE_DATE_EPOCH  pin the clock at these seconds since 1970: every time, age
                             and message ID follows it, so a script run twice gives the
                             same output and the same files
          DRAFTLINE_WATCH    poll: look for others' messages four times a second
                             instead of being woken by inotify (NFS)
          NO_COLOR           when set, write no colour
        """

    /// Parses the arguments (without the program name). Options go before or after the
    /// subcommand (`import`, `export`) and its FILE, as in git-like tools; a subcommand
    /// takes only the options it uses.
    public init(parsing arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(for option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageError("\(option) needs a value")
            }
            return value
        }
        /// The option's value as `parse` reads it; the error says what the option takes.
        func parsed<T>(_ option: String, takes: String, _ parse: (String) -> T?) throws(UsageError) -> T {
            let text = try value(for: option)
            guard let parsed = parse(text) else {
                throw UsageError("\(option) takes \(takes), not \(Self.quoted(text))")
            }
            return parsed
        }
        func path(for option: String, _ noun: String = "path") throws(UsageError) -> String {
            let path = try value(for: option)
            guard !path.isEmpty else { throw UsageError("\(option) needs a non-empty \(noun)") }
            return path
        }
        var subcommand: String?
        var file: String?
        var exportChat: String?
        /// The options given, in order, each once: checked against the subcommand's.
        var given: [String] = []
        while let argument = rest.popFirst() {
            if argument.hasPrefix("-") { given.append(argument) }
            switch argument {
            case "--data-dir": dataDirectory = try path(for: argument)
            case "--editor":
                editor = try parsed(argument, takes: "vi or emacs") { ["vi", "emacs"].contains($0) ? $0 : nil }
            case "--trace": trace = true
            case "--strict": strict = true
            case "--report":
                let kind = try parsed(argument, takes: "tap or junit, then a FILE", ReportFile.Format.init(rawValue:))
                reportFiles.append(ReportFile(kind, try path(for: "--report \(kind.rawValue)", "FILE")))
            case "--record": recordFile = try path(for: argument, "FILE")
            case "--trace-file": traceFile = try path(for: argument)
            case "--trace-format":
                traceFormat = try parsed(argument, takes: "json or debuglog", TraceFormat.init(rawValue:))
            case "--tour":
                tour = true
                if let next = rest.first, !next.hasPrefix("--") {
                    guard Tour.chapter(named: next) != nil else {
                        throw UsageError(
                            "--tour takes a chapter: \(Tour.chapters.map(\.name).joined(separator: ", ")); not \(Self.quoted(next))"
                        )
                    }
                    tourChapter = rest.popFirst()
                }
            case "--tour-speed":
                tourSpeed = try parsed(argument, takes: "a number above 0 and at most 1000") {
                    try? Argument<Double>.speed.value(of: $0)
                }
            case "--as":
                let text = try value(for: argument)
                do { identity = try GlobalKey(validating: text) } catch {
                    throw UsageError("--as: " + Presenter().line(for: error).text)
                }
            case "--demo": demo = true
            case "--demo-delay":
                demoDelay = try parsed(argument, takes: "seconds from 0 to 3600") {
                    NumberGrammar.decimal($0, in: 0...3600)
                }
            case "--server":
                server = try parsed(argument, takes: "irc://HOST[:PORT] or ircs://HOST[:PORT]") {
                    $0.hasPrefix("irc://") || $0.hasPrefix("ircs://") ? $0 : nil
                }
            case "--server-ca": serverCA = try path(for: argument)
            case "--no-typing": sendsTyping = false
            case "--chat": exportChat = try value(for: argument)
            case "--help", "-h": showHelp = true
            case "--version": showVersion = true
            default:
                if let subcommand, file == nil, !argument.hasPrefix("--") {
                    // The subcommand's FILE (which may start with one '-').
                    guard !argument.isEmpty else { throw UsageError("\(subcommand) needs a FILE") }
                    file = argument
                    given.removeAll { $0 == argument }
                } else if argument.hasPrefix("-") {
                    throw UsageError("unknown option \(Self.quoted(argument))")
                } else if let subcommand {
                    throw UsageError("unexpected \(Self.quoted(argument)): \(subcommand) takes one FILE")
                } else if argument == "import" || argument == "export" {
                    subcommand = argument
                } else {
                    throw UsageError("unknown command \(Self.quoted(argument)): the commands are import and export")
                }
            }
        }
        // --help and --version answer whatever else the line says.
        guard !showHelp && !showVersion else { return }
        guard let subcommand else {
            if exportChat != nil { throw UsageError("--chat goes with export") }
            if server == nil, let alone = given.first(where: { $0 == "--server-ca" || $0 == "--no-typing" }) {
                throw UsageError("\(alone) goes with --server")
            }
            return
        }
        guard let file else { throw UsageError("\(subcommand) needs a FILE") }
        let accepted = subcommand == "import" ? ["--data-dir"] : ["--data-dir", "--chat"]
        if let other = given.first(where: { !accepted.contains($0) }) {
            throw UsageError(
                "\(other) does not go with \(subcommand), which takes "
                    + accepted.joined(separator: " and "))
        }
        transfer = subcommand == "import" ? .importing(file) : .exporting(file, chat: exportChat)
    }

    /// The data directory: the option's, else `$XDG_DATA_HOME/draftline`, else
    /// `~/.local/share/draftline`. `XDG_DATA_HOME` counts only when it is an absolute path,
    /// as the XDG specification says.
    public func resolvedDataDirectory(environment: [String: String]) throws(UsageError) -> String {
        if let dataDirectory { return dataDirectory }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/draftline" }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw UsageError("cannot find a data directory: set HOME or XDG_DATA_HOME, or give --data-dir")
        }
        return home + "/.local/share/draftline"
    }
}

/// A command line draftline cannot run with; the message says what was wrong.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Options {
    /// The pinned time `SOURCE_DATE_EPOCH` gives (the reproducible-builds convention), or
    /// `nil` when it is not set; a value that is not a whole number of seconds since 1970
    /// is a usage error.
    public static func pinnedTime(environment: [String: String]) throws(UsageError) -> Double? {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw UsageError("SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, not \(Self.quoted(text))")
        }
        let latest: Int64 = 253_402_300_799  // 9999-12-31 23:59:59
        guard let seconds = Int64(text), seconds <= latest else {
            throw UsageError(
                "SOURCE_DATE_EPOCH \(Self.quoted(text)) is after the year 9999: at most \(latest) seconds since 1970")
        }
        return Double(seconds)
    }
}

extension Options {
    /// A value from the command line or the environment, as an error shows it: quoted, on
    /// one line, with control characters made visible (a newline is `^J`).
    static func quoted(_ text: String) -> String {
        "'" + TerminalText.visible(text, keepNewlines: false) + "'"
    }
}
