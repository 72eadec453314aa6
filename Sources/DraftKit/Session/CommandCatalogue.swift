/// Every command draftline has, in the order `/help` shows them: each declared once, with
/// its action.
public enum CommandCatalogue {
    /// How many messages `/history` shows when not told.
    public static let defaultHistoryCount = 20
    /// How many chats `/chats` shows when not told.
    public static let defaultChatCount = 20
    /// How long `/wait` waits when not told.
    public static let defaultWaitSeconds = 10.0

    /// The declarations.
    public static let all: [CommandSpec] = [
        CommandSpec("open", .globalKey(), summary: "open a user's private chat, its draft in the line") {
            session, user throws(DraftlineError) in Outcome(try session.open(user))
        },
        CommandSpec("profile", .optional(.globalKey()), summary: "show a user's profile (default: this chat's user)") {
            session, user throws(DraftlineError) in Outcome(try session.showProfile(of: user))
        },
        CommandSpec("back", summary: "return to the previous screen") { session throws(DraftlineError) in
            Outcome(try session.back())
        },
        CommandSpec(
            "comment", .commentKind, .commentID, .optional(.replyTarget),
            summary: "write a comment, or a reply to a user"
        ) { session, kind, id, replyTo throws(DraftlineError) in
            Outcome(try session.comment(kind, id: id, replyTo: replyTo))
        },
        CommandSpec("attach", .path, summary: "attach a regular, readable file of up to 100 MiB") {
            session, path throws(DraftlineError) in Outcome(try session.attach(path))
        },
        CommandSpec("detach", .optional(.attachmentNumber), summary: "remove attachment n from this draft, or all") {
            session, number throws(DraftlineError) in Outcome(try session.detach(number))
        },
        CommandSpec(
            "location", .latitude, .longitude, .text("address").or(""), summary: "send a location (decimal degrees)"
        ) { session, latitude, longitude, address throws(DraftlineError) in
            Outcome(try session.sendLocation(latitude: latitude, longitude: longitude, address: address))
        },
        CommandSpec(
            "history", .count("n", in: 1...1000).or(defaultHistoryCount),
            summary: "show the last n messages here (default \(defaultHistoryCount))"
        ) { session, count throws(DraftlineError) in Outcome(try session.showHistory(count: count)) },
        CommandSpec(
            "chats", .countOrAll("n|all", in: 1...100_000).or(defaultChatCount),
            summary: "chats, most recent first (default \(defaultChatCount)), with drafts"
        ) { session, limit throws(DraftlineError) in Outcome(try session.chatList(limit: limit)) },
        CommandSpec("drafts", summary: "every draft in memory: key, text, cursor, media, age") {
            session throws(DraftlineError) in Outcome(session.draftMap())
        },
        CommandSpec("discard", summary: "drop this draft (/undo brings it back)") { session throws(DraftlineError) in
            Outcome(try session.discard())
        },
        CommandSpec("undo", summary: "bring back the last draft discarded, emptied or lost") {
            session throws(DraftlineError) in try session.undo()
        },
        CommandSpec("trace", .onOff, summary: "print a line for every draft event") {
            session, on throws(DraftlineError) in
            Outcome(session.setTracing(on))
        },
        CommandSpec(
            "tour", .optional(.tourChapter), .speed.or(1),
            summary: "play the tour or a chapter (speed 2: twice as fast)"
        ) { session, chapter, speed throws(DraftlineError) in try session.playTour(chapter, speed: speed) },
        CommandSpec(
            "expect", .expectation, summary: "check a draft, messages or the screen (QA scripts)",
            forms: Expectation.Form.allCases.map(\.usage)
        ) { session, expectation throws(DraftlineError) in Outcome(try session.expect(expectation)) },
        CommandSpec(
            "wait", .keyword("total"), .count("n", in: 1...1000).or(1), .seconds.or(defaultWaitSeconds),
            summary: "wait for n messages (default 1), up to seconds (\(Int(defaultWaitSeconds)))",
            forms: ["/wait total <n> [seconds]: until this chat holds n messages, whenever they came"]
        ) { session, total, count, seconds throws(DraftlineError) in
            try session.requestWait(Wait(until: total ? .total(count) : .arrivals(count), seconds: seconds))
        },
        CommandSpec("help", summary: "this help") { _ throws(DraftlineError) in [.help] },
        CommandSpec("quit", summary: "quit: every draft is discarded, history stays") {
            session throws(DraftlineError) in
            session.quit()
        },
    ]

    /// The command with this name.
    public static func spec(named name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// What Tab offers for the text before the cursor on a command line: the word being
    /// typed and the names or values that could finish it.
    public static func completions(
        for before: String, users: [GlobalKey], capabilities: Capabilities
    ) -> (word: String, candidates: [String]) {
        guard before.hasPrefix("/") else { return (before, []) }
        let words = before.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let word = words.last ?? ""
        if words.count == 1 { return (word, all.map { "/" + $0.name }.filter { $0.hasPrefix(word) }) }
        guard let spec = spec(named: String(words[0].dropFirst())), words.count - 2 < spec.arguments.count else {
            return (word, [])
        }
        let argument = spec.arguments[words.count - 2]
        return (word, argument.candidates(users, capabilities).filter { $0.hasPrefix(word) })
    }
}
