import DraftKit
import DraftlineREPL
import Testing

@Suite("Command-line options")
struct OptionsTests {
    @Test func dataDirectoryDefaultsFollowXDG() throws {
        let options = try Options(parsing: [])
        #expect(
            try options.resolvedDataDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/draftline")
        #expect(
            try options.resolvedDataDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/draftline")
        #expect(try options.resolvedDataDirectory(environment: ["HOME": "/h"]) == "/h/.local/share/draftline")
        #expect(throws: UsageError.self) { try options.resolvedDataDirectory(environment: [:]) }
    }

    @Test func flagOverrides() throws {
        let options = try Options(parsing: ["--data-dir", "/d", "--editor", "vi"])
        #expect(try options.resolvedDataDirectory(environment: ["HOME": "/h"]) == "/d")
        #expect(options.editor == "vi")
    }

    @Test(arguments: [["--data-dir"], ["--editor", "ed"], ["--bogus"], ["--data-dir", ""]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try Options(parsing: arguments) }
    }

    /// `--tour-speed` and `--demo-delay` read numbers as commands do: decimal, in range.
    @Test func numbersAreReadInTheCommandsGrammar() throws {
        #expect(try Options(parsing: ["--tour", "--tour-speed", "2.5"]).tourSpeed == 2.5)
        #expect(try Options(parsing: ["--demo", "--demo-delay", "0.5"]).demoDelay == 0.5)
        for word in ["0x10", "1e2", "0", "1001", "inf", "nan", "-2"] {
            #expect(throws: UsageError.self, "\(word)") { try Options(parsing: ["--tour", "--tour-speed", word]) }
        }
        for word in ["0x10", "1e1", "-1", "3601", "inf"] {
            #expect(throws: UsageError.self, "\(word)") { try Options(parsing: ["--demo", "--demo-delay", word]) }
        }
    }
}
