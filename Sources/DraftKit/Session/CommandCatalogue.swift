/// Every command draftline has, in the order `/help` shows them: each declared once.
public enum CommandCatalogue {
    /// How many messages `/history` shows when not told.
    public static let defaultHistoryCount = 20
    /// The counts `/history` accepts.
    public static let historyRange = 1...1000
    /// How many chats `/chats` shows when not told.
    public static let defaultChatCount = 20
    /// The counts `/chats` accepts (besides `all`).
    public static let chatCountRange = 1...100_000
    /// The counts `/wait` accepts.
    public static let waitRange = 1...1000
    /// How long `/wait` waits when not told.
    public static let defaultWaitSeconds = 10.0
    /// What `/expect` checks: `draft <key> <text>`, `no-draft <key>`, `media <key> <n>`,
    /// `last-message <text>`, `screen <home|user|profile user|kind id>`.
    public static let expectations = ["draft", "no-draft", "media", "last-message", "screen"]

    /// The declarations.
    public static let all: [CommandSpec] = [
        CommandSpec(
            "open", [Argument("global_key", .globalKey)],
            "open the private chat with a user, its draft in the edit line"
        ) {
            session, arguments throws(DraftlineError) in Outcome(try session.open(arguments.key(0)!))
        },
        CommandSpec(
            "profile", [Argument("global_key", .globalKey, optional: true)],
            "show a user's profile (default: this chat's user)"
        ) { session, arguments throws(DraftlineError) in Outcome(try session.showProfile(of: arguments.key(0))) },
        CommandSpec("back", "return to the previous screen") { session, _ throws(DraftlineError) in
            Outcome(try session.back())
        },
        CommandSpec(
            "comment",
            [
                Argument("tweet|topic|task", .commentKind), Argument("id", .commentID),
                Argument("@key", .replyTarget, optional: true),
            ],
            "write a comment, or a reply to a user"
        ) { session, arguments throws(DraftlineError) in
            Outcome(try session.comment(arguments.kind(0)!, id: arguments.id(1)!, replyTo: arguments.key(2)))
        },
        CommandSpec(
            "attach", [Argument("path", .path)], "add a file to this draft (regular, readable, 100 MiB at most)"
        ) { session, arguments throws(DraftlineError) in Outcome(try session.attach(arguments.text(0)!)) },
        CommandSpec("detach", [Argument("n", .word, optional: true)], "remove attachment n from this draft, or all") {
            session, arguments throws(DraftlineError) in Outcome(try session.detach(arguments.text(0)))
        },
        CommandSpec(
            "location",
            [Argument("lat", .latitude), Argument("lon", .longitude), Argument("address", .text, optional: true)],
            "send a location"
        ) { session, arguments throws(DraftlineError) in
            Outcome(
                try session.sendLocation(
                    latitude: arguments.real(0)!, longitude: arguments.real(1)!, address: arguments.text(2) ?? ""))
        },
        CommandSpec(
            "history", [Argument("n", .count(historyRange), optional: true)],
            "show the last n messages here (default \(defaultHistoryCount))"
        ) { session, arguments throws(DraftlineError) in
            Outcome(try session.showHistory(count: arguments.count(0) ?? defaultHistoryCount))
        },
        CommandSpec(
            "chats", [Argument("n|all", .word, optional: true)],
            "conversations, most recent first (\(defaultChatCount), n or all), with drafts and unread counts"
        ) { session, arguments throws(DraftlineError) in Outcome(try session.chatList(arguments.text(0))) },
        CommandSpec("drafts", "every draft in memory: key, text, cursor, media, age") {
            session, _ throws(DraftlineError) in Outcome(session.draftMap())
        },
        CommandSpec("discard", "drop this draft (/undo brings it back)") { session, _ throws(DraftlineError) in
            Outcome(try session.discard())
        },
        CommandSpec("undo", "bring back the last draft discarded, emptied or lost") {
            session, _ throws(DraftlineError) in Outcome(try session.undo())
        },
        CommandSpec("trace", [Argument("on|off", .onOff)], "print a line for every draft event") {
            session, arguments throws(DraftlineError) in Outcome(session.setTracing(arguments.flag(0)!))
        },
        CommandSpec(
            "tour", [Argument("chapter", .word, optional: true), Argument("speed", .word, optional: true)],
            "play the guided tour, or one chapter of it (speed: 2 is twice as fast)"
        ) { session, arguments throws(DraftlineError) in
            try session.requestTour([arguments.text(0), arguments.text(1)].compactMap { $0 })
        },
        CommandSpec(
            "expect",
            [
                Argument(expectations.joined(separator: "|"), .choice(expectations)),
                Argument("details", .text, optional: true),
            ],
            "check a draft, a message or the screen, for QA scripts (--strict stops at a failure)"
        ) { session, arguments throws(DraftlineError) in
            Outcome(try session.expect(arguments.text(0)!, arguments.text(1) ?? ""))
        },
        CommandSpec(
            "wait", [Argument("n", .count(waitRange), optional: true), Argument("seconds", .seconds, optional: true)],
            "wait until n messages arrive (default 1), or the seconds pass (default \(defaultWaitSeconds))"
        ) { session, arguments throws(DraftlineError) in
            session.requestWait(count: arguments.count(0) ?? 1, seconds: arguments.real(1) ?? defaultWaitSeconds)
        },
        CommandSpec("help", "this help") { _, _ throws(DraftlineError) in [.help] },
        CommandSpec("quit", "quit: every draft is discarded, history stays") { session, _ throws(DraftlineError) in
            session.quit()
        },
    ]

    /// The command with this name.
    public static func spec(named name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// What Tab offers for the text before the cursor on a command line: the word being
    /// typed and the names that could finish it.
    public static func completions(for before: String, users: [GlobalKey]) -> (word: String, candidates: [String]) {
        guard before.hasPrefix("/") else { return (before, []) }
        let words = before.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let word = words.last ?? ""
        if words.count == 1 { return (word, all.map { "/" + $0.name }.filter { $0.hasPrefix(word) }) }
        guard let spec = spec(named: String(words[0].dropFirst())), words.count - 2 < spec.arguments.count else {
            return (word, [])
        }
        let argument = spec.arguments[words.count - 2]
        return (word, argument.candidates(users: users).filter { $0.hasPrefix(word) })
    }
}
