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
}
