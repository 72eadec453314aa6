import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// The programs and scripts in Examples/, run as a user would run them.
@Suite("Examples")
struct ExampleTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    /// Runs a program with a deadline; its standard error follows its standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "exec \"$0\" \"$@\" 2>&1", executable] + arguments,
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"], timeout: 60)
        return (result.status, String(decoding: result.output, as: UTF8.self))
    }

    static func sibling(_ name: String) -> String {
        URL(fileURLWithPath: Fixture.executable).deletingLastPathComponent().appendingPathComponent(name).path
    }

    @Test(arguments: ["draft-flow", "two-chats", "comment-thread", "demo-peer"])
    func scriptedSessionPrintsWhatItsExpectedFileSays(_ name: String) throws {
        let fixture = try Fixture()
        let script = Self.examples.appendingPathComponent("sessions/\(name).sh").path
        let expected = try String(
            contentsOfFile: Self.examples.appendingPathComponent("sessions/\(name).expected").path, encoding: .utf8)
        let result = try Self.run("/bin/sh", [script, Fixture.executable, fixture.dataDirectory])
        #expect(result.status == 0)
        #expect(result.output == expected)
    }

    @Test func historyReaderPrintsAChatFromItsFiles() throws {
        let fixture = try Fixture()
        let lines = (1...20).map { "line \($0) 你好" }.joined(separator: "\n")
        let attachment = fixture.root + "/notes.txt"
        #expect(FileManager.default.createFile(atPath: attachment, contents: Data("notes".utf8)))
        _ = try fixture.runPiped("/open alice\n\(lines)\n/attach \(attachment)\n\n")
        let result = try Self.run(Self.sibling("history-reader"), ["alice", "--data-dir", fixture.dataDirectory])
        #expect(result.status == 0)
        let printed = result.output.split(separator: "\n")
        #expect(printed.count == 22)
        #expect(printed[0].hasPrefix("00000000.plist  ") && printed[0].hasSuffix("[text]  line 1 你好"))
        #expect(printed[20].hasPrefix("00000001.plist  ") && printed[20].contains("[file]"))
        #expect(printed[21].hasPrefix("2 segment(s) in "))
    }

    @Test func draftRulesShowsTheWholeLifeOfADraft() throws {
        let result = try Self.run(Self.sibling("draft-rules"), [])
        #expect(result.status == 0)
        #expect(result.output.contains("{ privateMessage_alice = \"Bob's ID is \" @12 }"))
        #expect(result.output.contains("quit: every draft is forgotten               {  }"))
    }

    /// Every file under a directory, by relative path, with its bytes (a link: its target).
    static func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        for case let name as String in walker {
            let path = root + "/" + name
            let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            if type == .typeSymbolicLink {
                files[name] = Data(try FileManager.default.destinationOfSymbolicLink(atPath: path).utf8)
            } else if type == .typeRegular {
                files[name] = FileManager.default.contents(atPath: path)
            }
        }
        return files
    }

    /// With the clock pinned (SOURCE_DATE_EPOCH), a script run twice gives byte-identical
    /// output and identical stored files.
    @Test(arguments: ["draft-flow", "two-chats", "comment-thread", "demo-peer"])
    func aScriptRunTwiceWithAPinnedClockGivesTheSameBytes(_ name: String) throws {
        let script = Self.examples.appendingPathComponent("sessions/\(name).sh").path
        var runs: [(output: Data, files: [String: Data])] = []
        for _ in 0..<2 {
            let fixture = try Fixture()
            let result = try Fixture.run(
                "/bin/sh", arguments: [script, Fixture.executable, fixture.dataDirectory],
                environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": "1700000000"],
                timeout: 60)
            #expect(result.status == 0)
            runs.append((result.output, try Self.snapshot(fixture.dataDirectory)))
        }
        #expect(runs[0].output == runs[1].output)
        #expect(runs[0].files == runs[1].files, "stored files differ")
        #expect(runs[0].files.keys.contains { $0.hasSuffix("00000000.plist") })
    }
}
