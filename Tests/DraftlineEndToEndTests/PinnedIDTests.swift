import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// Message IDs with the clock pinned (`SOURCE_DATE_EPOCH`): unique across processes and
/// identities on one data directory, and the same for the same script on a fresh one.
/// Every step is a process of the built binary.
@Suite("Message IDs with a pinned clock")
struct PinnedIDTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let pinned = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// Runs draftline on a pipe with the clock pinned.
    func draftline(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
        let result = try Fixture.run(
            Fixture.executable, arguments: arguments, environment: fixture.environment(Self.pinned),
            input: Data(input.utf8), timeout: 60)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    @Test func twoIdentitiesKeepTheirMessagesThroughAnExportAndAnImport() throws {
        let data = fixture.dataDirectory
        #expect(
            try draftline(["--data-dir", data, "--as", "alice", "--strict"], input: "/open bob\nfrom alice\n").status
                == 0)
        #expect(
            try draftline(["--data-dir", data, "--as", "bob", "--strict"], input: "/open alice\nfrom bob\n").status == 0
        )
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.map(\.content) == ["from alice", "from bob"])
        #expect(stored.map(\.messageID) == ["1700000000000-alice-1.1", "1700000000000-bob-2.1"])

        let file = fixture.root + "/both.plist"
        #expect(try draftline(["export", file, "--data-dir", data]).status == 0)
        let other = fixture.root + "/other"
        let imported = try draftline(["import", file, "--data-dir", other])
        #expect(imported.output == "imported 2 messages into 1 chat from \(file)\n", "\(imported.error)")
        let shown = try draftline(["--data-dir", other, "--as", "bob"], input: "/open alice\n").output
        #expect(shown.contains("  alice: from alice\n  you: from bob\n"), "\(shown)")
    }

    @Test func oneScriptRunTwiceOnOneDirectoryKeepsBothRunsAndOnAFreshOneMakesTheSameIDs() throws {
        let script = "/open alice\nsame words\n"
        for _ in 0..<2 { #expect(try draftline(["--data-dir", fixture.dataDirectory], input: script).status == 0) }
        let stored = try fixture.messages(in: "alice")
        #expect(stored.map(\.messageID) == ["1700000000000-me-1.1", "1700000000000-me-2.1"])
        // Deterministic: a fresh directory gives the first run's IDs again.
        let fresh = fixture.root + "/fresh"
        _ = try draftline(["--data-dir", fresh], input: script)
        let again = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import plistlib,sys; print([m['messageID'] for m in plistlib.load(open(sys.argv[1],'rb'))])",
                fresh + "/chats/alice/00000000.plist",
            ], environment: fixture.environment(), timeout: 60)
        #expect(String(decoding: again.output, as: UTF8.self) == "['1700000000000-me-1.1']\n")
    }

    /// Two pinned processes of one identity: neither takes the other's message for its own;
    /// each message is stored under its own ID and shown once, and `/wait` counts the other's.
    @Test func twoProcessesOfOneIdentityNeverTakeEachOthersMessages() throws {
        let first = try fixture.startPiped(["--as", "alice", "--strict"], environment: Self.pinned)
        defer { first.closeInput() }
        try first.write("/open bob\nfrom the first\n/expect last-message \"from the first\"\n")
        _ = try first.waitFor("  you: from the first\n")
        let second = try draftline(
            ["--data-dir", fixture.dataDirectory, "--as", "alice", "--strict"], input: "/open bob\nfrom the second\n")
        #expect(second.status == 0, "\(second.error)")
        try first.write("/wait 1 10\n/quit\n")
        first.closeInput()
        #expect(try first.waitForExit(timeout: 30) == .exited(0), "\(first.text)")
        let shown = first.text
        #expect(shown.components(separatedBy: "you: from the first").count == 2, "\(shown)")
        #expect(shown.components(separatedBy: "you: from the second").count == 2, "\(shown)")
        let stored = try fixture.messages(in: "alice+bob")
        #expect(stored.map(\.content) == ["from the first", "from the second"])
        #expect(Set(stored.map(\.messageID)).count == 2, "\(stored.map(\.messageID))")
    }
}
