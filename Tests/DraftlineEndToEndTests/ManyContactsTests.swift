import DraftlineTestSupport
import Foundation
import Testing

/// Issue 30, item 9: contacts of any size allowed cost what the names shown cost. The first
/// start reads `contacts.plist` with the own readers into `contacts.index`; a file they
/// leave to Foundation's decoder is read only up to its limit, and a file over a limit is
/// one line that names it; an index that cannot be written is one warning a start, and
/// every contact is still there. Through the real binary on a pipe, every run with a deadline.
@Suite("Many contacts")
struct ManyContactsTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    var data: String { fixture.dataDirectory }

    func run(_ script: String, _ arguments: [String] = []) throws -> (status: Int32, output: String, error: String) {
        try fixture.runPiped(script, arguments: ["--data-dir", data] + arguments, timeout: 120)
    }

    /// Writes `contacts.plist` with `plistlib` in `format` (`binary` or `xml`): `count`
    /// contacts `u000000`… named `User <n>` (in shuffled order), with `extra` entries after
    /// them, each a dictionary of any values; `integers` adds an `age` number to every
    /// generated contact (a file only Foundation's decoder reads).
    func writeContacts(_ format: String, count: Int, extra: [[String: Any]] = [], integers: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let script = """
            import json, plistlib, random, sys
            path, form, count, integers = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
            order = list(range(count))
            random.Random(7).shuffle(order)
            entries = [dict({"global_key": "u%06d" % i, "name": "User %d" % i}, **({"age": i % 90} if integers else {}))
                       for i in order]
            entries += json.load(sys.stdin)
            plistlib.dump(entries, open(path, "wb"), fmt=plistlib.FMT_BINARY if form == "binary" else plistlib.FMT_XML)
            """
        let result = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c", script, data + "/contacts.plist", format, String(count), integers ? "1" : "0",
            ],
            environment: fixture.environment(), input: try JSONSerialization.data(withJSONObject: extra), timeout: 120)
        try #require(result.status == 0, "\(String(decoding: result.error, as: UTF8.self))")
    }

    /// The title `/open` shows for a user called `name` (the key alone when it is the name).
    func title(_ key: String, _ name: String) -> String {
        name == key ? "── chat with \(key) ──" : "── chat with \(name) (\(key)) ──"
    }

    /// 30,000 contacts, binary or XML, and entries that test the reading: a key given again
    /// later (its last name counts), a name in UTF-16 (binary), names with a tab, a
    /// backslash and `$null`, a contact without a name, and three without a valid key (one
    /// of them `$null`). Every one is found on the first start (the index built) and on the
    /// next (the index read), and the skipped entries are one warning.
    @Test(arguments: ["binary", "xml"])
    func everyContactIsFoundInEitherForm(_ format: String) throws {
        try writeContacts(
            format, count: 30_000,
            extra: [
                ["global_key": "u000100", "name": "Replaced"], ["global_key": "mei2", "name": "李美"],
                ["global_key": "tab", "name": "a\tb \\ c"], ["global_key": "nul", "name": "$null"],
                ["global_key": "noname"], ["global_key": "Bad Key", "name": "x"], ["name": "no key"],
                ["global_key": "$null", "name": "null key"],
            ])
        let script =
            ["u000000", "u029999", "u015000", "u000100", "mei2", "tab", "nul", "noname", "alice"]
            .map { "/open \($0)\n" }.joined() + "/quit\n"
        for start in ["first", "next"] {
            let result = try run(script)
            #expect(result.status == 0, "\(start): \(result.error)")
            for (key, name) in [
                ("u000000", "User 0"), ("u029999", "User 29999"), ("u015000", "User 15000"), ("u000100", "Replaced"),
                ("mei2", "李美"), ("tab", "a\tb \\ c"), ("nul", "$null"), ("noname", "noname"), ("alice", "Alice Chen"),
            ] {
                #expect(
                    result.output.contains(title(key, name)), "\(start) start, \(key): \(result.output.suffix(600))")
            }
            #expect(
                result.error == "warning: 3 entries of contacts.plist have no valid global_key and were skipped\n",
                "\(start): \(result.error)")
        }
        #expect(FileManager.default.fileExists(atPath: data + "/contacts.index"))
    }

    /// `contacts.index` cannot be written (a directory where it belongs): each start says
    /// so in one line, naming why, and still finds every contact (the index built in
    /// memory); the case, and a start as a user of `contacts.plist` (`--as`), which
    /// reads the contacts before the session does (the variant).
    @Test(arguments: ["binary", "xml"])
    func anIndexThatCannotBeWrittenIsOneWarningAStart(_ format: String) throws {
        try writeContacts(format, count: 30_000)
        try FileManager.default.createDirectory(
            atPath: data + "/contacts.index/in-the-way", withIntermediateDirectories: true)
        for arguments in [[], [], ["--as", "u012345"]] {
            let result = try run("/open u000000\n/open u029999\n/open u015000\n/quit\n", arguments)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(result.output.contains(title("u000000", "User 0")), "\(result.output)")
            #expect(result.output.contains(title("u029999", "User 29999")), "\(result.output)")
            #expect(result.output.contains(title("u015000", "User 15000")), "\(result.output)")
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(arguments): \(result.error)")
            #expect(
                lines.first?.hasPrefix("warning: contacts.index cannot be written (") == true
                    && lines.first?.contains("contacts.index: rename: Is a directory): every contact is here") == true
                    && lines.first?.contains("each start reads all of contacts.plist") == true,
                "\(result.error)")
        }
    }

    /// A file over the limit is refused before it is read, in one line that names its size,
    /// the limit and what to do; the demo contacts still work.
    @Test func aFileOverTheLimitIsOneLineNamingIt() throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let handle = try #require(
            FileManager.default.createFile(atPath: data + "/contacts.plist", contents: Data("bplist00".utf8))
                ? FileHandle(forWritingAtPath: data + "/contacts.plist") : nil)
        try handle.truncate(atOffset: 64 << 20 + 1)
        try handle.close()
        let result = try run("/open alice\n/quit\n")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(title("alice", "Alice Chen")))
        #expect(
            result.error
                == "warning: contacts.plist is 64.1 MiB, more than the 64 MiB draftline reads (about a million "
                + "contacts): remove contacts until it fits; only the demo contacts are here\n")
    }

    /// A file only Foundation's decoder reads (every contact holds a number too): read up to
    /// 1 MiB (its contacts found), and past it one line naming the limit and the form read
    /// past it; the demo contacts still work.
    @Test func aFileOnlyFoundationReadsIsReadUpToItsLimit() throws {
        try writeContacts("binary", count: 5_000, integers: true)
        let small = try run("/open u004999\n/quit\n")
        #expect(small.status == 0 && small.error.isEmpty, "\(small.error)")
        #expect(small.output.contains(title("u004999", "User 4999")), "\(small.output)")
        try writeContacts("binary", count: 30_000, integers: true)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: data + "/contacts.plist")[.size] as? Int)
        #expect(size > 1 << 20)
        let large = try run("/open alice\n/open u000001\n/quit\n")
        #expect(large.status == 0, "\(large.error)")
        #expect(large.output.contains(title("alice", "Alice Chen")))
        let lines = large.error.split(separator: "\n")
        #expect(lines.count == 2, "\(large.error)")
        #expect(
            lines.first?.hasPrefix("warning: contacts.plist is ") == true
                && lines.first?.contains(
                    "and not an array of dictionaries whose every key and value is a string, "
                        + "the one form draftline reads past 1 MiB: keep only strings in it") == true,
            "\(large.error)")
        #expect(lines.last?.hasPrefix("error: no user 'u000001'") == true, "\(large.error)")
    }
}
