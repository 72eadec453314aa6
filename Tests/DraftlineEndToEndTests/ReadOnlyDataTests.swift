import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// A data directory that cannot be written here (a read-only file system) opens for
/// reading: `/open`, `/history`, `/chats` and `export` work, a send and an import are
/// refused in one line that says why, and nothing in it changes. The read-only disk is
/// played by the one layer that calls C (every call that would change the data directory
/// fails with `EROFS`, `DRAFTLINE_FAULTS`), and, where this machine lets a test mount, by a
/// real read-only bind mount.
@Suite("A read-only data directory")
struct ReadOnlyDataTests {
    let fixture: Fixture
    var data: String { fixture.dataDirectory }

    init() throws {
        fixture = try Fixture()
        for (opening, texts) in [("/open alice", ["a1", "a2", "a3"]), ("/comment tweet 1", ["t1"])] {
            let made = try fixture.runPiped(([opening] + texts).joined(separator: "\n") + "\n")
            guard made.status == 0 else { throw PseudoTerminal.Failure(description: made.error) }
        }
    }

    /// Runs draftline with every call that would change the data directory failing with
    /// `EROFS`.
    func readOnly(_ input: String, arguments: [String]? = nil) throws -> (status: Int32, output: String, error: String)
    {
        let result = try Fixture.run(
            Fixture.executable, arguments: arguments ?? ["--data-dir", data],
            environment: fixture.environment(["DRAFTLINE_FAULTS": "fail=0+:EROFS:changes:" + data]),
            input: Data(input.utf8), timeout: 60)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    /// Every file under the data directory with its bytes (a link: its target).
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: data)?.allObjects ?? [] {
            let path = data + "/" + name
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                files[name] = Data(target.utf8)
            } else {
                files[name] = FileManager.default.contents(atPath: path) ?? Data()
            }
        }
        return files
    }

    @Test func readsWorkAndASendIsRefusedInOneLineThatSaysWhy() throws {
        let before = snapshot()
        let result = try readOnly("/chats\n/open alice\n/history 2\nhello\n")
        #expect(result.output.contains("alice (Alice Chen) · you: a3"), "\(result.output)")
        #expect(result.output.contains("tweet 1 · you: t1"))
        for text in ["a1", "a2", "a3"] { #expect(result.output.contains("  you: \(text)\n")) }
        #expect(!result.output.contains("you: hello"))
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(lines.first?.contains("message not sent (the data directory cannot be written here: ") == true)
        #expect(lines.first?.contains(data + "/lock: Read-only file system") == true, "\(result.error)")
        #expect(!result.error.contains("remove it") && !result.error.contains("damaged"))
        // Pipe mode: a message that could not be stored is exit status 3.
        #expect(result.status == 3)
        #expect(snapshot() == before, "the read-only data directory changed")
    }

    @Test func anExportWorksAndAnImportIsRefusedChangingNothing() throws {
        let before = snapshot()
        let file = fixture.root + "/export.plist"
        let export = try readOnly("", arguments: ["export", file, "--data-dir", data])
        #expect(export.status == 0 && export.error.isEmpty, "\(export.error)")
        let exported = try fixture.propertyList(at: file)
        #expect(
            ((exported["alice"] as? [[String: Any]]) ?? []).compactMap { $0["content"] as? String } == [
                "a1", "a2", "a3",
            ])
        #expect(((exported["tweet_1"] as? [[String: Any]]) ?? []).count == 1)
        try FileManager.default.removeItem(atPath: file)
        let source = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import plistlib,sys; plistlib.dump({'bob': [{'content': 'b1', 'messageID': 'b1'}]}, open(sys.argv[1], 'wb'))",
                fixture.root + "/import.plist",
            ], environment: fixture.environment(), timeout: 60)
        #expect(source.status == 0)
        let imported = try readOnly("", arguments: ["import", fixture.root + "/import.plist", "--data-dir", data])
        #expect(imported.status == 3)
        #expect(imported.error.split(separator: "\n").count == 1, "\(imported.error)")
        #expect(imported.error.contains("the data directory cannot be written here: "), "\(imported.error)")
        #expect(imported.error.contains("nothing was imported"))
        #expect(snapshot() == before, "the read-only data directory changed")
    }

    /// A segment that does not parse is shown as far as it is whole, and left where it is
    /// with one warning: it cannot be moved aside.
    @Test func aTornSegmentIsShownAsFarAsItIsWholeAndLeftAsItIs() throws {
        try fixture.append(Data([0x01, 0x02, 0x03]), to: "chats/alice/00000000.plist")
        let before = snapshot()
        let result = try readOnly("/open alice\n")
        for text in ["a1", "a2", "a3"] { #expect(result.output.contains("  you: \(text)\n"), "\(result.output)") }
        #expect(result.status == 0)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains("chats/alice/00000000.plist is damaged and is left as it is"), "\(result.error)")
        #expect(snapshot() == before, "the read-only data directory changed")
    }

    /// Whether this machine lets a test mount a directory read-only in a mount namespace of
    /// its own (`unshare -m`, as root or with user namespaces).
    static let canMountReadOnly: Bool = {
        guard let probe = try? Fixture() else { return false }
        let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && ! touch \"$1/probe\" 2>/dev/null"
        for prefix in [["unshare", "-m"], ["unshare", "-rm"]] {
            let result = try? Fixture.run(
                "/usr/bin/env", arguments: prefix + ["sh", "-c", script, "sh", probe.root],
                environment: probe.environment(),
                timeout: 30)
            if result?.status == 0 { return true }
        }
        return false
    }()

    /// The same on a real read-only bind mount: the kernel's own `EROFS`.
    @Test(.enabled(if: canMountReadOnly, "this machine does not let a test mount a directory read-only"))
    func onARealReadOnlyMount() throws {
        let before = snapshot()
        let script =
            "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && exec \"$2\" --data-dir \"$1\""
        var result: (status: Int32, output: Data, error: Data)?
        for prefix in [["unshare", "-m"], ["unshare", "-rm"]] {
            result = try Fixture.run(
                "/usr/bin/env", arguments: prefix + ["sh", "-c", script, "sh", data, Fixture.executable],
                environment: fixture.environment(), input: Data("/chats\n/open alice\nhello\n".utf8), timeout: 60)
            if result?.status != 0 && String(decoding: result?.error ?? Data(), as: UTF8.self).contains("mount") {
                continue
            }
            break
        }
        let output = String(decoding: result?.output ?? Data(), as: UTF8.self)
        let error = String(decoding: result?.error ?? Data(), as: UTF8.self)
        for text in ["a1", "a2", "a3"] { #expect(output.contains("  you: \(text)\n"), "\(output) \(error)") }
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.contains("message not sent (the data directory cannot be written here: "), "\(error)")
        #expect(error.contains("Read-only file system"))
        #expect(result?.status == 3)
        #expect(snapshot() == before, "the read-only data directory changed")
    }
}
