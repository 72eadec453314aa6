import DraftKit
import DraftlineREPL
import Foundation
import Testing

/// Every declared command, walked through the parser, `/help`, Tab completion and the
/// man page: a command added to the catalogue is checked here without a line of test.
@Suite("The command declarations")
struct CommandCatalogueTests {
    /// A valid word for each kind of argument.
    static func sample(_ argument: Argument) -> String {
        switch argument.kind {
        case .globalKey: return "alice"
        case .commentKind: return "tweet"
        case .commentID: return "7"
        case .replyTarget: return "@bob"
        case .path: return "/etc/hostname"
        case .word: return "1"
        case .latitude: return "52.5"
        case .longitude: return "-13.25"
        case .text: return "Main St"
        case .count(let range): return String(range.lowerBound)
        case .onOff: return "on"
        case .speed: return "2"
        case .seconds: return "0.5"
        case .choice(let words): return words[0]
        }
    }

    static var names: [String] { CommandCatalogue.all.map(\.name) }

    @Test(arguments: names)
    func parsesWithEveryArgumentAndRefusesMissingAndExtraOnes(_ name: String) throws {
        let spec = try #require(CommandCatalogue.spec(named: name))
        let full = (["/" + name] + spec.arguments.map(Self.sample)).joined(separator: " ")
        #expect(try Command(parsing: full).spec.name == name)
        let required = spec.arguments.filter { !$0.isOptional }
        let minimal = (["/" + name] + required.map(Self.sample)).joined(separator: " ")
        #expect(try Command(parsing: minimal).spec.name == name)
        if !required.isEmpty {
            #expect(throws: DraftlineError.missingArgument(usage: spec.usage)) {
                try Command(parsing: "/" + name)
            }
        }
        if spec.arguments.last?.takesRest != true {
            #expect(throws: DraftlineError.unexpectedArgument("extra", usage: spec.usage)) {
                try Command(parsing: full + " extra")
            }
        }
    }

    @Test(arguments: names)
    func helpAndTheManPageShowItsUsageAndSummary(_ name: String) throws {
        let spec = try #require(CommandCatalogue.spec(named: name))
        let frontend = Frontend(Session(contacts: ContactBook(), history: InMemoryHistory()))
        let help = frontend.handle(.line("/help")).lines.map(\.text)
        #expect(help.contains { $0.contains(spec.usage) && $0.hasSuffix(spec.summary) }, "\(help)")
        #expect(ManPage.commandTable().contains(".BI \"/\(name) \"") || ManPage.commandTable().contains(".B /\(name)"))
    }

    @Test(arguments: names)
    func tabCompletesItsNameAndItsFirstArgument(_ name: String) throws {
        let spec = try #require(CommandCatalogue.spec(named: name))
        let session = Session(contacts: ContactBook(), history: InMemoryHistory())
        switch session.complete("/" + name.prefix(1)) {
        case .insert(let rest): #expect(("/" + name.prefix(1) + rest).hasPrefix("/" + name) || name.count == 1)
        case .list(let names): #expect(names.contains("/" + name))
        case .none: Issue.record("/\(name.prefix(1)) completes nothing")
        }
        #expect(session.complete("/" + name) == .insert(" "))
        if let first = spec.arguments.first, case .globalKey = first.kind {
            #expect(session.complete("/\(name) al") == .insert("ice"))
        }
    }

    @Test func theManPageHoldsTheCurrentTable() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Documentation/draftline.1")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(ManPage.updating(text) == text, "run 'make man' to make the table from the declarations")
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
}
