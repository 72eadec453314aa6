import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// `draftline import` and `draftline export` (the only subcommands) take their options
/// before or after them and their FILE, as git-like tools do, run on pipes through the
/// built binary; a command line they cannot use is one line and a pointer to `--help`,
/// and changes nothing.
@Suite("Subcommands take their options before or after them")
struct SubcommandOptionsTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Where the options go: `D` is the data directory, `F` the file.
    static let importPlacements: [[String]] = [
        ["--data-dir", "D", "import", "F"],
        ["import", "--data-dir", "D", "F"],
        ["import", "F", "--data-dir", "D"],
    ]

    static let exportPlacements: [[String]] = [
        ["--data-dir", "D", "--chat", "bob", "export", "F"],
        ["--chat", "bob", "export", "F", "--data-dir", "D"],
        ["export", "--data-dir", "D", "F", "--chat", "bob"],
        ["--data-dir", "D", "export", "F", "--chat", "bob"],
        ["export", "F", "--chat", "bob", "--data-dir", "D"],
    ]

    /// Runs draftline on pipes with `D` and `F` replaced: its status, output and errors.
    func draftline(_ arguments: [String], data: String, file: String) throws -> (Int32, String, String) {
        let result = try fixture.runPiped(
            "", arguments: arguments.map { $0 == "D" ? data : $0 == "F" ? file : $0 }, timeout: 60)
        return (result.status, result.output, result.error)
    }

    /// A source data directory with a message each for alice and bob.
    func source() throws -> String {
        let data = fixture.root + "/source"
        let made = try fixture.runPiped(
            "/open alice\nfor alice\n/open bob\nfor bob\n", arguments: ["--data-dir", data, "--strict"])
        try #require(made.status == 0, "\(made.error)")
        return data
    }

    @Test(arguments: importPlacements)
    func importTakesItsOptionsAnywhere(_ placement: [String]) throws {
        let file = fixture.root + "/both.plist"
        let exported = try fixture.runPiped("", arguments: ["export", file, "--data-dir", try source()])
        try #require(exported.status == 0, "\(exported.error)")

        let (status, output, error) = try draftline(placement, data: fixture.dataDirectory, file: file)
        #expect(status == 0, "\(placement): \(error)")
        #expect(output == "imported 2 messages into 2 chats from \(file)\n")
        #expect(error.isEmpty)
        #expect(try fixture.messages(in: "alice").map(\.content) == ["for alice"])
        #expect(try fixture.messages(in: "bob").map(\.content) == ["for bob"])
    }

    @Test(arguments: exportPlacements)
    func exportTakesItsOptionsAnywhere(_ placement: [String]) throws {
        let data = try source()
        let file = fixture.root + "/bob.plist"
        let (status, output, error) = try draftline(placement, data: data, file: file)
        #expect(status == 0, "\(placement): \(error)")
        #expect(output == "exported 1 message in 1 chat to \(file)\n")
        let written = try fixture.propertyList(at: file)
        let chats = written.filter { $0.key != ChatLogFile.kindsKey }
        #expect(chats.keys.sorted() == ["bob"], "\(written.keys)")
        let messages = try #require(chats["bob"] as? [[String: Any]])
        #expect(messages.map { $0["content"] as? String } == ["for bob"])
    }

    /// `--help` answers wherever it is, even where a FILE is missing.
    @Test(arguments: [["--data-dir", "D", "import", "--help"], ["export", "-h"], ["--version", "export"]])
    func helpAndVersionAnswerAnywhere(_ arguments: [String]) throws {
        let (status, output, error) = try draftline(arguments, data: fixture.dataDirectory, file: "")
        #expect(status == 0, "\(error)")
        let expected = arguments.contains("--version") ? "draftline 0.1.0" : "usage: draftline"
        #expect(output.hasPrefix(expected), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory))
    }

    static let usageErrors: [([String], String)] = [
        (["--data-dir", "D", "import"], "import needs a FILE"),
        (["export", "--data-dir", "D"], "export needs a FILE"),
        (["--data-dir", "D", "import", "F", "G"], "unexpected 'G': import takes one FILE"),
        (["import", "F", "export"], "unexpected 'export': import takes one FILE"),
        (["--editor", "vi", "import", "F"], "--editor does not go with import, which takes --data-dir"),
        (["--chat", "bob", "import", "F"], "--chat does not go with import, which takes --data-dir"),
        (
            ["export", "F", "--trace-file", "T"],
            "--trace-file does not go with export, which takes --data-dir and --chat"
        ),
        (["--as", "bob", "export", "F"], "--as does not go with export, which takes --data-dir and --chat"),
        (["--data-dir", "D", "--chat", "bob"], "--chat goes with export"),
        (["--data-dir", "D", "imprt", "F"], "unknown command 'imprt': the commands are import and export"),
        (["--data-dir", "D", "--bogus", "import", "F"], "unknown option '--bogus'"),
    ]

    /// Each usage error is one line and the pointer, status 2, and writes nothing: no
    /// data directory, no file.
    @Test(arguments: usageErrors)
    func aCommandLineThatCannotRunIsOneLine(_ arguments: [String], _ message: String) throws {
        let file = fixture.root + "/out.plist"
        let (status, output, error) = try draftline(arguments, data: fixture.dataDirectory, file: file)
        #expect(status == 2)
        #expect(output.isEmpty)
        #expect(error == "draftline: \(message)\n(draftline --help shows the usage)\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory))
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
