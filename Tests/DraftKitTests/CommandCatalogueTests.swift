import Completion
import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// The command declarations against what is written here by hand: each usage line, a line
/// that gives every argument, and what the parser, `/help`, Tab, the man page and the
/// README make of them. Nothing is checked against the data it was made from.
@Suite("The command declarations")
struct CommandCatalogueTests {
    /// Every command, in `/help`'s order: its usage line as a person reads it, and a line
    /// that gives every argument.
    static let written: [(name: String, usage: String, full: String)] = [
        ("open", "/open <global_key>", "/open alice"),
        ("profile", "/profile [global_key]", "/profile bob"),
        ("back", "/back", "/back"),
        ("comment", "/comment tweet|topic|task <id> [@key]", "/comment tweet 7 @bob"),
        ("attach", "/attach <path>", "/attach /etc/hostname"),
        ("detach", "/detach [n]", "/detach 1"),
        ("location", "/location <lat> <lon> [address]", "/location 52.5 -13.25 Main St"),
        ("history", "/history [n]", "/history 5"),
        ("chats", "/chats [n|all]", "/chats all"),
        ("drafts", "/drafts", "/drafts"),
        ("discard", "/discard", "/discard"),
        ("undo", "/undo", "/undo"),
        ("trace", "/trace on|off", "/trace on"),
        ("tour", "/tour [chapter] [speed]", "/tour undo 2"),
        ("expect", "/expect <check>", "/expect screen home"),
        ("wait", "/wait [total] [n] [seconds]", "/wait 2 0.5"),
        ("help", "/help", "/help"),
        ("quit", "/quit", "/quit"),
    ]

    /// What a terminal with a tour can do.
    static let capabilities = Capabilities(editLine: true, tourChapters: ["story", "undo"])

    static func parse(_ line: String) throws(DraftlineError) -> Command {
        try Command(parsing: line, capabilities: capabilities)
    }

    @Test func everyCommandIsWrittenHereInHelpsOrder() {
        #expect(CommandCatalogue.all.map(\.name) == Self.written.map(\.name))
    }

    @Test(arguments: written.map(\.name))
    func itsUsageLineIsAsWritten(_ name: String) throws {
        let spec = try #require(CommandCatalogue.spec(named: name))
        #expect(spec.usage == Self.written.first { $0.name == name }?.usage)
    }

    @Test(arguments: written.map(\.name))
    func itsFullLineParsesAndExtraOrMissingWordsAreRefused(_ name: String) throws {
        let spec = try #require(CommandCatalogue.spec(named: name))
        let full = try #require(Self.written.first { $0.name == name }?.full)
        #expect(try Self.parse(full).spec.name == name)
        if spec.arguments.last?.takesRest != true {
            #expect(throws: DraftlineError.unexpectedArgument("extra", usage: spec.usage)) {
                try Self.parse(full + " extra")
            }
        }
        if spec.arguments.contains(where: { !$0.isOptional }) {
            #expect(throws: DraftlineError.missingArgument(usage: spec.usage)) { try Self.parse("/" + name) }
        }
    }

    /// The values reach each action typed and in their places, defaults included.
    @Test func actionsGetTheirArgumentsTypedAndInOrder() throws {
        let history = InMemoryHistory()
        let session = Session(contacts: ContactBook(), history: history, capabilities: Self.capabilities)
        func run(_ line: String) throws -> Outcome { try Self.parse(line).run(in: session) }
        #expect(try run("/tour undo 2").effects == [.playTour(chapter: "undo", speed: 2)])
        #expect(try run("/tour 2").effects == [.playTour(chapter: nil, speed: 2)])
        #expect(try run("/tour").effects == [.playTour(chapter: nil, speed: 1)])
        #expect(try run("/wait").effects == [.wait(count: 1, seconds: CommandCatalogue.defaultWaitSeconds)])
        #expect(try run("/wait 3").effects == [.wait(count: 3, seconds: CommandCatalogue.defaultWaitSeconds)])
        #expect(try run("/wait 0.5").effects == [.wait(count: 1, seconds: 0.5)])
        #expect(try run("/wait 2 .25").effects == [.wait(count: 2, seconds: 0.25)])
        session.handle(.line("/open alice"))
        #expect(try run("/wait total 3 2").effects == [.wait(Wait(until: .total(3), seconds: 2))])
        _ = try run("/comment task 42 @bob")
        #expect(try session.screen == .chat(.comment(.task, id: 42, replyTo: GlobalKey(validating: "bob"))))
        _ = try run("/open alice")
        let sent = try run("/location 52.5 -13.25  Main St ").reports
        guard case .sent(let message)? = sent.first else {
            Issue.record("\(sent)")
            return
        }
        #expect((message.latitude, message.longitude, message.address) == (52.5, -13.25, "Main St "))
        #expect(try run("/trace on").reports == [.tracing(true)])
        #expect(try run("/trace off").reports == [.tracing(false)])
    }

    /// One number grammar, decimal, for every number a command takes.
    @Test(arguments: [
        "/wait 0x10", "/wait 1 0x1p3", "/wait 1 1e2", "/wait 1 inf", "/wait 1 nan", "/location 0x10 0",
        "/location 1e1 0", "/location 1 -inf", "/history 0x10", "/history +5", "/history ٣", "/chats 1e3",
        "/comment tweet 0x7", "/comment tweet -7", "/detach 0x1", "/detach 0", "/tour undo 0x2", "/tour 1e2",
        "/wait 1 0", "/tour 0", "/history 1001", "/location 91 0", "/location 0 -180.5",
        "/wait 99999999999999999999",
    ])
    func aNumberIsDecimalAndInRangeOrRefused(_ line: String) {
        do throws(DraftlineError) {
            _ = try Self.parse(line)
            Issue.record("\(line) was taken")
        } catch {
            guard case .invalidArgument = error else {
                Issue.record("\(line): \(error)")
                return
            }
        }
    }

    @Test(arguments: [
        ("/o", Completion.insert("pen ")), ("/open al", .insert("ice")),
        ("/comment t", .list(["tweet", "topic", "task"])),
        ("/comment topic 7 @b", .insert("ob")), ("/trace o", .list(["on", "off"])), ("/chats a", .insert("ll")),
        ("/tour u", .insert("ndo")), ("/expect n", .insert("o-draft")), ("/expect la", .insert("st-message")),
        ("/history ", .none), ("/profile ", .list(["alice", "bob", "carol", "dmitri"])),
    ])
    func tabOffersWhatEachArgumentTakes(_ before: String, _ expected: Completion) throws {
        let session = Session(
            contacts: ContactBook(Array(ContactBook.demo.prefix(4))), history: InMemoryHistory(),
            capabilities: Self.capabilities)
        #expect(try session.complete(before) == expected)
    }

    @Test func helpShowsEachUsageAndFitsEightyColumns() {
        let help = Frontend(Session(contacts: ContactBook(), history: InMemoryHistory())).handle(.line("/help")).lines
            .map(\.text)
        for (_, usage, _) in Self.written {
            #expect(help.contains { $0.hasPrefix("  " + usage + " ") || $0 == "  " + usage }, "\(usage)")
        }
        #expect(help.contains("  /open <global_key>        open a user's private chat, its draft in the line"))
        #expect(help.contains("    /expect draft <key> [\"text\"] [cursor n] [media n]"))
        #expect(help.allSatisfy { $0.count <= 80 }, "\(help.filter { $0.count > 80 })")
    }

    /// Bindings from `~/.editrc`, as the line editor lists them: none, a short one, a key
    /// sequence longer than a line, a terminal's key.
    static let bindings: [[String: [String]]] = [
        [:], ["draftline-back": ["^T"]], ["draftline-profile": [String(repeating: "^X", count: 45) + "p"]],
        ["draftline-drafts": ["^[[1;5P"]], ["draftline-open": [String(repeating: "x", count: 100)]],
    ]

    @Test(arguments: bindings)
    func helpFitsEightyColumnsAtAnyBinding(_ bound: [String: [String]]) {
        let keys = KeyLabels(bound: bound)
        let frontend = Frontend(
            Session(contacts: ContactBook(), history: InMemoryHistory()), presenter: Presenter(keys: keys))
        let help = frontend.handle(.line("/help")).lines.map(\.text)
        #expect(help.allSatisfy { $0.count <= 80 }, "\(help.filter { $0.count > 80 })")
        // Each key is named whole, whatever lines it takes.
        let text = help.joined().filter { $0 != " " }
        for key in LeaveKey.allCases { #expect(text.contains(keys[key].filter { $0 != " " } + "draftline-")) }
        #expect(text.contains(keys.draftMap.filter { $0 != " " } + "draftline-drafts"))
    }

    /// The man page as `man` shows it, read back by groff: every usage line, as written.
    @Test func theManPageShowsEachUsageAsWritten() throws {
        let page = try String(
            contentsOf: Self.repository.appendingPathComponent("Documentation/draftline.1"), encoding: .utf8)
        #expect(ManPage.updating(page) == page, "run 'make man' to make the table from the declarations")
        let result = try Fixture.run(
            "/usr/bin/groff", arguments: ["-man", "-Tutf8", "-P", "-cbou", "-rLL=200n"],
            environment: ProcessInfo.processInfo.environment, input: Data(page.utf8), timeout: 20)
        let shown = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for (_, usage, _) in Self.written {
            // A short tag shares its line with the summary.
            #expect(shown.contains { $0 == usage || $0.hasPrefix(usage + "  ") }, "\(usage)")
        }
        #expect(shown.contains("/expect last-message [\"text\"] [from global_key] [type t]"))
    }

    /// The README's table, read as Markdown: one row per command, its usage as written.
    @Test func theReadmeTableShowsEachUsageAsWritten() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(ReadmeCommands.updating(readme) == readme, "run 'make man' to make the table from the declarations")
        let table = try #require(
            readme.range(of: ReadmeCommands.section.begin).flatMap { begin in
                readme.range(of: ReadmeCommands.section.end).map { readme[begin.upperBound..<$0.lowerBound] }
            })
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `/") }.map { row in
            let first = Self.cells(row).first ?? ""
            return first.hasPrefix("`") && first.hasSuffix("`") ? String(first.dropFirst().dropLast()) : first
        }
        #expect(rows == Self.written.map(\.usage) + ["//text"])
    }

    /// A Markdown table row's cells, split at each `|` that is not escaped, `\|` read as `|`.
    static func cells(_ row: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in row.dropFirst() {
            if escaped {
                cell.append(character == "|" ? "|" : "\\\(character)")
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }

    @Test(arguments: ["/stats", "/qui", "/quit2", "/", "/ open"])
    func anUndeclaredNameIsAnErrorAndNeverQuits(_ line: String) {
        let session = Session(contacts: ContactBook(), history: InMemoryHistory())
        session.handle(.line("/open alice"))
        session.handle(.leave(.back, TextDraft(text: "kept")))
        let reports = session.handle(.line(line)).reports
        #expect(reports.count == 1)
        guard case .error(.unknownCommand)? = reports.first else {
            Issue.record("\(line): \(reports)")
            return
        }
        #expect(!session.hasQuit)
        #expect(session.drafts.count == 1)
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
