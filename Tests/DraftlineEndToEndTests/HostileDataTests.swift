import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Issue 30: hostile data, third round. Each defect an attacker found, through the real
/// binary, and one more of each that the issue does not name.
@Suite("Hostile data, third round")
struct HostileDataTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    var data: String { fixture.dataDirectory }

    func run(
        _ script: String, _ arguments: [String] = [], timeout: Double = 60
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        try fixture.runPiped(script, arguments: ["--data-dir", data] + arguments, timeout: timeout)
    }

    func importing(_ file: String) throws -> (status: Int32, output: String, error: String) {
        try fixture.runPiped("", arguments: ["import", file, "--data-dir", data])
    }

    func write(_ bytes: Data, to name: String) throws -> String {
        let path = fixture.root + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: 1. depth hidden from the scan

    /// `<?>` (the issue's) and UTF-16 text whose bytes read as a comment (the variant): an
    /// import is one line and status 1, nothing made; Foundation never sees the bytes.
    @Test(arguments: ["instruction", "utf-16"])
    func depthHiddenFromTheScanIsMeasuredInAnImport(_ form: String) throws {
        let bytes =
            form == "instruction" ? Fixture.instructionHiddenXML(depth: 50_000) : Fixture.wideHiddenXML(depth: 50_000)
        let result = try importing(try write(bytes, to: "deep.plist"))
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1 && result.error.contains("nests deeper than"))
        #expect(!FileManager.default.fileExists(atPath: data), "nothing made")
    }

    /// The same bytes where a segment, the contacts or the edit line's history belong, and
    /// in a segment that a journal record announces to a running draftline.
    @Test(arguments: ["segment", "contacts", "line-history", "arrival"])
    func depthHiddenFromTheScanWhereDataBelongs(_ place: String) throws {
        #expect(try run("/open alice\nhi\n").status == 0)
        let deep = Fixture.instructionHiddenXML(depth: 50_000)
        switch place {
        case "segment":
            try deep.write(to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
            let result = try run("/open alice\n")
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1 && result.error.contains("moved aside"))
        case "contacts":
            try deep.write(to: URL(fileURLWithPath: data + "/contacts.plist"))
            let result = try run("/open alice\n/chats\n")
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.contains("contacts.plist is not a property list"))
        case "line-history":
            try deep.write(to: URL(fileURLWithPath: data + "/line-history.me.plist"))
            let terminal = try fixture.startTerminal()
            try terminal.waitForPrompt("draftline> ")
            try terminal.open("alice")
            #expect(try terminal.quit() == .exited(0))
        default:
            let piped = try fixture.startPiped()
            try piped.write("/open bob\n")
            try piped.waitFor("(no messages yet)")
            try deep.write(to: URL(fileURLWithPath: data + "/chats/alice/00000001.plist"))
            try fixture.append(Data("c\talice\t1\t0\t-\n".utf8), to: "live/journal")
            try piped.write("/wait 1 1\nstill here\n/quit\n")
            #expect(try piped.waitForExit() == .exited(0), "\(piped.text)")
            #expect(piped.text.contains("you: still here"))
        }
    }
}
