import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// Issue 19: nothing written outside what draftline owns, nothing of its own written by an
/// output path, no flood that holds memory or the process, and one clear line for a bad
/// command line or standard input. Through the real binary, each with a deadline.
@Suite("What draftline writes, and floods it reads")
struct OwnedFilesTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    var data: String { fixture.dataDirectory }

    func run(
        _ script: String, _ arguments: [String], timeout: Double = 20
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        try fixture.runPiped(script, arguments: arguments, timeout: timeout)
    }

    func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    // MARK: 5. a flood of the journal

    /// 64 MB of lines that are not records, then a real message: memory stays near an idle
    /// draftline's, the flood is one warning, and the next message arrives.
    @Test(arguments: ["lines", "zeros"])
    func aFloodOfTheJournalIsSkippedWithOneWarningInBoundedMemory(_ junk: String) throws {
        let piped = try fixture.startPiped()
        try piped.write("/open alice\n")
        try piped.waitFor("(no messages yet)")
        let idle = piped.peakMemoryKilobytes ?? 0
        let block =
            junk == "lines"
            ? Data(String(repeating: String(repeating: "junk ", count: 19) + "\n", count: 10_000).utf8)
            : Data(count: 1 << 20)
        for _ in 0..<(64 << 20) / block.count { try fixture.append(block, to: "live/journal") }
        try piped.write("/wait 1 1\n")
        try piped.waitFor("waited 1 s: 0 of 1 message arrived")
        if junk == "zeros" { try fixture.append(Data("\n".utf8), to: "live/journal") }
        let sent = try run("/open me\nstill live\n", ["--data-dir", data, "--as", "alice"])
        #expect(sent.status == 0, "\(sent.error)")
        try piped.write("/wait 1 10\n")
        try piped.waitFor("alice: still live")
        let grown = (piped.peakMemoryKilobytes ?? .max) - idle
        #expect(grown < 64 * 1024, "peak memory grew by \(grown) KiB")
        try piped.write("/quit\n")
        #expect(try piped.waitForExit() == .exited(0))
        #expect(piped.text.components(separatedBy: "warning: the journal ran").count == 2, "\(piped.text)")
    }

    // MARK: 7. output paths into the data directory

    /// `export DATA/lock` while another draftline holds the lock, and a trace file onto a
    /// segment: both refused, the files as they were.
    @Test func outputPathsIntoTheDataDirectoryAreRefused() throws {
        #expect(try run("/open alice\nhi\n", ["--data-dir", data]).status == 0)
        let running = try fixture.startPiped()
        try running.write("/open alice\n")
        try running.waitFor("you: hi")
        let lock = inode(data + "/lock")
        let export = try run("", ["export", data + "/lock", "--data-dir", data])
        #expect(export.status == 2)
        #expect(export.error.contains("is inside the data directory"), "\(export.error)")
        #expect(inode(data + "/lock") == lock)
        let segment = data + "/chats/alice/00000000.plist"
        let before = try Data(contentsOf: URL(fileURLWithPath: segment))
        let trace = try run("/open alice\n", ["--data-dir", data, "--trace-file", segment])
        #expect(trace.status == 2)
        #expect(trace.error.contains("is inside the data directory"), "\(trace.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == before)
        try running.write("/quit\n")
        #expect(try running.waitForExit() == .exited(0))
    }

    /// Each way an output path or an import file cannot be used is one line that names the
    /// path and what is wrong with it, status 2, and nothing is made at the path.
    @Test func everyUnusablePathIsNamedInOneLine() throws {
        #expect(try run("/open alice\nhi\n", ["--data-dir", data]).status == 0)
        let root = fixture.root
        #expect(mkfifo(root + "/fifo", 0o600) == 0)
        let cases: [(arguments: [String], line: String)] = [
            (
                ["export", root + "/."],
                "draftline export: cannot write the export: \(root)/. names a directory, not a file; nothing was written"
            ),
            (
                ["export", root + "/fifo"],
                "draftline export: cannot write the export: \(root)/fifo is a FIFO, not a regular file: it is left as it "
                    + "is; nothing was written"
            ),
            (
                ["export", root + "/no/such/dir/x.plist"],
                "draftline export: cannot write the export: \(root)/no/such/dir/x.plist: No such file or directory; "
                    + "nothing was written"
            ),
            (
                ["import", root + "/nope.plist"],
                "draftline import: cannot read the file: \(root)/nope.plist: no such file"
            ),
            (
                ["--trace-file", root + "/"],
                "draftline: cannot write the trace file: \(root)/ names a directory, not a file"
            ),
        ]
        for (arguments, line) in cases {
            let result = try run("", arguments + ["--data-dir", data])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.split(separator: "\n").first.map(String.init) == line, "\(arguments): \(result.error)")
        }
        #expect(inode(root + "/nope.plist") == nil && inode(root + "/no") == nil)
    }

    /// Other spellings of the same places: through a link to the data directory, through
    /// `..`, and a trace file that is a hard link to a segment.
    @Test func otherSpellingsOfTheDataDirectoryAreRefusedToo() throws {
        #expect(try run("/open alice\nhi\n", ["--data-dir", data]).status == 0)
        let link = fixture.root + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: data)
        for path in [link + "/chats/alice/00000000.plist", data + "/chats/../recent", link + "/new-file"] {
            let export = try run("", ["export", path, "--data-dir", data])
            #expect(export.status == 2 && export.error.contains("is inside the data directory"), "\(path)")
        }
        let hard = fixture.root + "/hard"
        #expect(Glibc.link(data + "/chats/alice/00000000.plist", hard) == 0)
        let trace = try run("/open alice\n", ["--data-dir", data, "--trace-file", hard])
        #expect(trace.status == 2 && trace.error.contains("other names"), "\(trace.error)")
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hi"])
    }

    // MARK: 8. never replace what is not a regular file

    @Test(arguments: ["fifo", "link", "directory"])
    func anExportOntoAnythingButARegularFileIsRefused(_ what: String) throws {
        #expect(try run("/open alice\nhi\n", ["--data-dir", data]).status == 0)
        let path = fixture.root + "/out"
        let target = fixture.root + "/target"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("kept".utf8)))
        switch what {
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "link": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let before = kind(path)
        let export = try run("", ["export", path, "--data-dir", data])
        #expect(export.status == 2)
        #expect(export.error.split(separator: "\n").count == 1 && export.error.contains("not a regular file"))
        #expect(kind(path) == before)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept")
    }

    // MARK: 9. a directory swapped for a link while draftline runs

    @Test func directoriesSwappedForLinksWhileRunningAreNeverFollowed() throws {
        let piped = try fixture.startPiped()
        try piped.write("/open alice\nfirst\n")
        try piped.waitFor("you: first")
        let elsewhere = fixture.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        for name in ["live", "chats"] {
            try FileManager.default.moveItem(atPath: data + "/" + name, toPath: data + "/" + name + ".orig")
            try FileManager.default.createSymbolicLink(atPath: data + "/" + name, withDestinationPath: elsewhere)
        }
        try piped.write("second\n/open bob\nto bob\n/quit\n")
        #expect(try piped.waitForExit() == .exited(0), "\(piped.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(piped.text.contains("you: to bob"))
        let journal = try String(contentsOfFile: data + "/live.orig/journal", encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 3)
        #expect(FileManager.default.fileExists(atPath: data + "/chats.orig/bob/00000000.plist"))
    }

    /// The variant: one chat's directory swapped for a link is a damaged chat, read and
    /// written through never.
    @Test func aChatDirectorySwappedForALinkIsNeverFollowed() throws {
        let piped = try fixture.startPiped()
        try piped.write("/open alice\nfirst\n/open bob\n")
        try piped.waitFor("you: first")
        try piped.waitFor("(no messages yet)")
        let elsewhere = fixture.root + "/elsewhere"
        let segment = try Data(contentsOf: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
        try FileManager.default.moveItem(atPath: data + "/chats/alice", toPath: elsewhere)
        try FileManager.default.createSymbolicLink(atPath: data + "/chats/alice", withDestinationPath: elsewhere)
        try piped.write("/open alice\nsecond\n/quit\n")
        _ = try piped.waitForExit()
        #expect(piped.text.contains("symbolic link"), "\(piped.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).sorted() == ["00000000.plist", "last"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/00000000.plist")) == segment)
    }

    // MARK: 11. contacts at any number

    func writeContacts(_ count: Int, name: (Int) -> String) throws {
        let list = (0..<count).map { ["global_key": "user\($0)", "name": name($0)] }
        let data = try PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0)
        try data.write(to: URL(fileURLWithPath: self.data + "/contacts.plist"))
    }

    /// 40,000 contacts (2 MB of contacts.plist, past where a 1 MiB cap made every name go):
    /// each chat still has its name, and a chat opens by a key at the end of the file.
    @Test func fortyThousandContactsAllHaveTheirNames() throws {
        #expect(try run("/open alice\nhi\n", ["--data-dir", data]).status == 0)
        try writeContacts(40_000) { "Person Number \($0) \u{1F600}\twith\nlines" }
        let result = try run("/open user39999\nhello\n/open user0\nhi 0\n/chats\n", ["--data-dir", data])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.contains("── chat with Person Number 39999 \u{1F600}"), "\(result.output)")
        #expect(result.output.contains("user0 (Person Number 0 \u{1F600}"))
        #expect(FileManager.default.fileExists(atPath: data + "/contacts.index"))
    }

    /// The variant: contacts.plist changed since its index was made: the index is made again.
    @Test func aChangedContactsFileIsReadAgain() throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try writeContacts(3) { "Old \($0)" }
        #expect(try run("/open user1\n", ["--data-dir", data]).output.contains("chat with Old 1"))
        try writeContacts(3) { "New \($0)" }
        #expect(try run("/open user1\n", ["--data-dir", data]).output.contains("chat with New 1"))
        try Data("garbage without a newline".utf8).write(to: URL(fileURLWithPath: data + "/contacts.index"))
        #expect(try run("/open user2\n", ["--data-dir", data]).output.contains("chat with New 2"))
    }

    // MARK: 12. the command line and standard input

    @Test func aBadTraceFileChangesNothing() throws {
        let result = try run("", ["--data-dir", data, "--trace-file", fixture.root])
        #expect(result.status == 2)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: data), "the data directory was made")
    }

    @Test(arguments: [
        (["--as", "a\nb"], "'a^Jb'"), (["--demo-delay", "0x10"], "'0x10'"), (["--tour-speed", "0x2"], "'0x2'"),
    ])
    func badValuesAreOneLineEach(_ arguments: [String], _ shown: String) throws {
        let result = try run("", ["--data-dir", data] + arguments)
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix("draftline: ") && result.error.split(separator: "\n").first?.contains(shown) == true)
        #expect(!result.error.split(separator: "\n").contains("b'"))
    }

    @Test(arguments: ["directory", "write-only"])
    func standardInputThatCannotBeReadIsOneLine(_ what: String) throws {
        let input = what == "directory" ? fixture.root : fixture.root + "/file"
        if what != "directory" { #expect(FileManager.default.createFile(atPath: input, contents: Data())) }
        let script = "exec \"$0\" --data-dir \"$1\" " + (what == "directory" ? "<\"$2\"" : "0>>\"$2\"")
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", script, Fixture.executable, data, input], environment: fixture.environment(),
            timeout: 20)
        let error = String(decoding: result.error, as: UTF8.self)
        #expect(result.status == 2)
        #expect(error.split(separator: "\n").count == 1 && error.contains("standard input"), "\(error)")
    }
}
