import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// A process that runs out of descriptors (`EMFILE`) gets one line, never a trap: an import
/// of twenty chats (whose reading is spread over threads) and a send, at every limit from
/// the three standard streams up, with the real binary. What is stored is read by plistlib:
/// an import that says it finished stored everything, one that stopped stored each chat
/// whole or not at all, and the same import with enough descriptors completes it.
@Suite("No descriptors left")
struct FewDescriptorsTests {
    let fixture: Fixture
    var data: String { fixture.dataDirectory }

    init() throws { fixture = try Fixture() }

    /// Runs draftline with at most `limit` open descriptors (`ulimit -n`).
    func run(
        limit: Int, _ arguments: [String], input: String = ""
    ) throws -> (status: Int32, output: String, error: String) {
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", Fixture.executable] + arguments,
            environment: fixture.environment(), input: Data(input.utf8), timeout: 60)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    /// What one run printed that no run may: a trap, a crash, its backtrace.
    static func trapped(_ error: String) -> Bool {
        ["Signal", "Backtracing", "Fatal error", "Illegal instruction", "crash"].contains { error.contains($0) }
    }

    @Test func anImportOutOfDescriptorsSaysSoInOneLine() throws {
        let chats = (0..<20).map { "u\($0)" }
        let file = fixture.root + "/many.plist"
        let script = """
            import plistlib, sys
            plistlib.dump({c: [{"chatID": c, "messageID": "%s-%d" % (c, i), "content": "%s %d" % (c, i)}
                               for i in range(20)] for c in sys.argv[2:]},
                          open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
            """
        let made = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, file] + chats, environment: fixture.environment(),
            timeout: 60)
        try #require(made.status == 0)
        // The dynamic loader itself needs one descriptor past the three standard streams.
        for limit in 4...24 {
            try? FileManager.default.removeItem(atPath: data)
            let result = try run(limit: limit, ["import", file, "--data-dir", data])
            #expect(!Self.trapped(result.error), "limit \(limit): \(result.error)")
            let lines = result.error.split(separator: "\n")
            #expect([0, 2, 3].contains(result.status), "limit \(limit): status \(result.status)")
            #expect(lines.count == (result.status == 0 ? 0 : 1), "limit \(limit): \(result.error)")
            if result.status != 0 { #expect(result.error.contains("Too many open files"), "limit \(limit)") }
            for chat in chats {
                let stored = try fixture.messages(in: chat).map(\.content)
                let whole = (0..<20).map { "\(chat) \($0)" }
                #expect(stored == whole || (result.status != 0 && stored.isEmpty), "limit \(limit), \(chat): \(stored)")
            }
            let again = try fixture.runPiped("", arguments: ["import", file, "--data-dir", data])
            #expect(again.status == 0, "limit \(limit), the import again: \(again.error)")
            for chat in chats { #expect(try fixture.messages(in: chat).count == 20, "limit \(limit), \(chat)") }
        }
    }

    @Test func aSendOutOfDescriptorsSaysSoInOneLine() throws {
        let first = try fixture.runPiped("/open alice\nfirst\n")
        try #require(first.status == 0)
        var sent = ["first"]
        for limit in 4...20 {
            let text = "at \(limit)"
            let result = try run(limit: limit, ["--data-dir", data], input: "/open alice\n\(text)\n")
            #expect(!Self.trapped(result.error), "limit \(limit): \(result.error)")
            #expect([0, 2, 3].contains(result.status), "limit \(limit): status \(result.status)")
            // One line at most for each of the two lines given (the chat's history, the send).
            let lines = result.error.split(separator: "\n")
            #expect(lines.count <= 2, "limit \(limit): \(result.error)")
            for line in lines { #expect(line.contains("Too many open files"), "limit \(limit): \(line)") }
            let stored = try fixture.messages(in: "alice").map(\.content)
            // Stored exactly when shown as sent, and then once.
            let acknowledged = result.output.contains("  you: \(text)\n")
            if acknowledged { sent.append(text) }
            #expect(stored == sent, "limit \(limit): \(stored)")
            #expect(acknowledged == (result.status == 0), "limit \(limit): \(result.error)")
            #expect(result.status == 0 || result.error.contains("Too many open files"), "limit \(limit)")
        }
        #expect(sent.count > 1, "no send succeeded at any limit")
    }
}
