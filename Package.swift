// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "draftline",
    products: [
        .executable(name: "draftline", targets: ["draftline"]),
        .library(name: "DraftKit", targets: ["DraftKit"]),
        .library(name: "IRCClient", targets: ["IRCClient"]),
    ],
    targets: [
        // libedit, through a module map and `static inline` shims for its C-variadic calls.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // What the completion key does: the one type the core answers with and the line
        // editor acts on (neither depends on the other).
        .target(name: "Completion"),
        // The one grammar of a bracketed paste, for the terminal's bytes, a piped line and
        // the tour's keys, and the pasted parts of a line kept through edits.
        .target(name: "BracketedPaste"),
        // libedit's history behind a function that says when a read consults it: C, since
        // libedit calls it with C-variadic arguments.
        .target(name: "CHistoryWatch", linkerSettings: [.linkedLibrary("edit")]),
        // The only Swift code that calls libedit; it owns the one path output takes.
        .target(name: "LineEditor", dependencies: ["BracketedPaste", "CEditLine", "CHistoryWatch", "Completion"]),
        // Signal handlers in C: they run where Swift code must not.
        .target(name: "CTerminalSignals"),
        // glibc's file-system calls that the Glibc module leaves out (syncfs).
        .systemLibrary(name: "CFileSystem"),
        // The core: drafts, messages, history, screens and commands. No terminal, no libedit.
        .target(name: "DraftKit", dependencies: ["CFileSystem", "Completion"]),
        // How the core is shown and typed: the presenter, the sanitizer, key names, piped
        // keys, the tour's keystrokes, command-line options. No libedit; tests drive it.
        .target(name: "DraftlineREPL", dependencies: ["BracketedPaste", "DraftKit", "IRCClient", "IRCProtocol"]),
        // A thin executable that wires the core and its presentation to the line editor.
        .executableTarget(
            name: "draftline",
            dependencies: [
                "BracketedPaste", "DraftKit", "DraftlineREPL", "LineEditor", "CTerminalSignals", "IRCClient",
                "IRCProtocol",
            ]),
        // Rewrites the man page's command table from the declarations (`make man`).
        .executableTarget(name: "draftline-man", dependencies: ["DraftlineREPL"]),

        // The benchmark: `swift run -c release draftline-bench` (see `--help`).
        .executableTarget(
            name: "draftline-bench",
            dependencies: ["DraftKit", "DraftlineREPL", "IRCFixtures", "ProgramDriver", "draftline"]),

        // Examples: small programs run with `swift run <name>`.
        .executableTarget(name: "draft-rules", dependencies: ["DraftKit"], path: "Examples/draft-rules"),
        .executableTarget(
            name: "history-reader", dependencies: ["DraftKit", "DraftlineREPL"], path: "Examples/history-reader"),

        // The properties the fuzzers in Fuzz/ check (`make fuzz`); the tests run a seeded pass.
        .target(name: "DraftKitFuzzing", dependencies: ["DraftKit", "DraftlineREPL"]),

        // Drives a program as a person or a script would: on a pseudo-terminal, on pipes, with
        // deadlines; and a seeded random generator. The tests' support and the benchmark use it.
        .target(name: "ProgramDriver"),

        // IRC (SPEC 6). OpenSSL through a module map, with `static inline` shims for its macros.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // epoll, timerfd and eventfd, which the Glibc module leaves out.
        .systemLibrary(name: "CEventPoll"),
        // The IRC protocol as plain data: lines, tags, framing, capability negotiation,
        // registration, splitting to the relayed line's budget, back-off, typing states, and
        // the client's state machine (lines and time in, lines and events out). No I/O.
        .target(name: "IRCProtocol"),
        // A connection that owns its socket (TCP, TLS) and the client that drives the protocol
        // over it, in draftline's terms (InputTarget). Its System folder is the only code that
        // calls C.
        .target(name: "IRCClient", dependencies: ["IRCProtocol", "COpenSSL", "CEventPoll", "DraftKit"]),
        // IRC servers (InspIRCd, ngircd) as processes of their own on free loopback ports, and
        // real clients (irssi, WeeChat) as peers: for the tests and the benchmark.
        .target(name: "IRCFixtures", dependencies: ["ProgramDriver"]),

        // Tests.
        // A reference model of SPEC §1a written from the SPEC alone: it depends on nothing, so
        // the conservation test's idea of what the user meant is not the code's own.
        .target(name: "ReferenceModel", path: "Tests/ReferenceModel"),
        .testTarget(name: "ReferenceModelTests", dependencies: ["ReferenceModel"]),
        .target(
            name: "DraftlineTestSupport", dependencies: ["DraftKit", "ProgramDriver"],
            path: "Tests/DraftlineTestSupport"),
        // The original chat-log design's save() and getAllMsg(chatID:) on Foundation's
        // UserDefaults, for the round trip through import and export.
        .executableTarget(name: "original-chat-log", path: "Tests/OriginalChatLog"),
        // The original input view's draft methods with their DebugLog lines: the oracle for
        // `--trace-format debuglog`.
        .executableTarget(name: "original-input-view", path: "Tests/OriginalInputView"),
        .testTarget(
            name: "DraftKitTests",
            dependencies: [
                "BracketedPaste", "DraftKit", "DraftlineREPL", "DraftKitFuzzing", "DraftlineTestSupport", "Completion",
            ]),
        .testTarget(
            name: "IRCTests",
            dependencies: ["IRCProtocol", "IRCClient", "IRCFixtures", "DraftKit", "DraftlineTestSupport"]),
        .testTarget(
            name: "DraftlineEndToEndTests",
            dependencies: [
                "DraftKit", "DraftlineREPL", "DraftKitFuzzing", "DraftlineTestSupport", "draftline", "history-reader",
                "draft-rules", "original-chat-log", "original-input-view", "ReferenceModel", "IRCFixtures",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
