import DraftlineTestSupport
import Foundation
import Testing

/// Results a CI reads: the exit statuses, and `--report tap|junit FILE` read back by real
/// parsers (Perl's TAP::Parser, from Perl's core, for TAP; Python's xml.etree for JUnit)
/// and held to the TAP 13/14 rules line by line.
@Suite("Results a CI reads")
struct ScriptReportTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// A script with a held check, a failed one, an error of another line, a quote, a `#`
    /// and a control character in what a check states.
    static let script = [
        "/open alice",  // 1
        "hello #1 \"quoted\"",  // 2
        #"/expect message 1 "hello #1 \"quoted\"" from me"#,  // 3: held
        "/expect messages 2",  // 4: failed, found 1
        "/nope",  // 5: an error of another line
        #"/expect last-message "tab\there""#,  // 6: failed, with a tab in the statement
        "/expect screen alice",  // 7: held
    ]

    func run(
        _ lines: [String], _ extra: [String] = [], data: String? = nil
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        try fixture.runPiped(
            lines.joined(separator: "\n") + "\n",
            arguments: ["--data-dir", data ?? fixture.dataDirectory] + extra)
    }

    @Test func theTAPReportIsOneResultPerExpectationWithItsLineAndWhatWasFound() throws {
        let tap = fixture.root + "/run.tap"
        let result = try run(Self.script, ["--report", "tap", tap])
        #expect(result.status == 1, "a failed expectation without --strict: status 1")
        let text = try String(contentsOfFile: tap, encoding: .utf8)
        try Self.checkTAPRules(text)
        #expect(
            text.split(separator: "\n").filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") } == [
                // TAP 14's escapes: \# a hash, \\ a backslash.
                ##"ok 1 - line 3: last message is "hello \#1 \\"quoted\\"" from me"##,
                "not ok 2 - line 4: the chat holds 2 messages",
                #"not ok 3 - line 6: last message is "tab\\there""#,
                "ok 4 - line 7: screen is alice",
            ])
        #expect(text.contains("  ---\n  message: \"expectation failed: the chat holds 2 messages; found 1\"\n"))
        #expect(text.contains("  found: \"1\"\n  line: 4\n  ...\n"))
        #expect(text.contains("# line 5: error: unknown command '/nope': type /help for the list, or // to send a /\n"))
        #expect(text.hasSuffix("1..4\n"))
        // And a real TAP parser reads it so.
        let parsed = try Self.tapParser(tap)
        #expect(parsed["plan"] == "1..4", "\(parsed)")
        #expect(parsed["passed"] == "1,4" && parsed["failed"] == "2,3", "\(parsed)")
        #expect(parsed["errors"] == "", "\(parsed)")
        #expect(parsed["yaml2"] == "found=1;line=4;message=expectation failed: the chat holds 2 messages; found 1")
        #expect(parsed["description1"] == ##"- line 3: last message is "hello \#1 \\"quoted\\"" from me"##)
    }

    @Test func theJUnitReportIsReadByARealXMLParser() throws {
        let junit = fixture.root + "/login flow.xml"
        let result = try run(Self.script, ["--report", "junit", junit, "--report", "tap", fixture.root + "/b.tap"])
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: fixture.root + "/b.tap"), "both reports written")
        let python = try Fixture.run(
            "/usr/bin/env",
            arguments: [
                "python3", "-c",
                """
                import sys, xml.etree.ElementTree as ET
                root = ET.parse(sys.argv[1]).getroot()
                suite = root.find("testsuite")
                print(root.tag, root.get("tests"), root.get("failures"), root.get("errors"))
                print(suite.get("name"), suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("timestamp"))
                for case in suite.findall("testcase"):
                    failure = case.find("failure")
                    print(case.get("classname"), "|", case.get("name"), "|",
                          failure.get("message") + " / " + failure.text.replace("\\n", " / ") if failure is not None else "ok")
                print("system-err:", suite.find("system-err").text)
                """, junit,
            ], environment: fixture.environment(["SOURCE_DATE_EPOCH": "1700000000"]), timeout: 30)
        #expect(python.status == 0, "\(String(decoding: python.error, as: UTF8.self))")
        let lines = String(decoding: python.output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "testsuites 4 2 0")
        #expect(lines.dropFirst().first?.hasPrefix("login flow 4 2 0 ") == true, "\(lines)")
        #expect(
            Array(lines.dropFirst(2)) == [
                #"draftline.login flow | line 3: last message is "hello #1 \"quoted\"" from me | ok"#,
                "draftline.login flow | line 4: the chat holds 2 messages | expectation failed: the chat holds 2 "
                    + "messages; found 1 / line 4: expectation failed: the chat holds 2 messages; found 1 / found: 1",
                #"draftline.login flow | line 6: last message is "tab\there" | expectation failed: last message is "tab\there"; found "hello #1 \"quoted\"" / line 6: expectation failed: last message is "tab\there"; found "hello #1 \"quoted\"" / found: "hello #1 \"quoted\"""#,
                "draftline.login flow | line 7: screen is alice | ok",
                "system-err: line 5: error: unknown command '/nope': type /help for the list, or // to send a /",
            ])
    }

    /// `--strict` decides only whether the run stops: the line it stopped at (an error of a
    /// line that is no check) is a failed result of its own, and nothing after it runs; the
    /// checks after it are skipped results, so a report says what did not run (it listed
    /// none).
    @Test func strictStopsAtTheFirstAndTheStopIsAFailedResult() throws {
        let tap = fixture.root + "/strict.tap"
        let junit = fixture.root + "/strict.xml"
        let result = try run(
            ["/open alice", "/expect screen alice", "/nope", "/expect screen bob", "hello", "/expect drafts 0"],
            ["--strict", "--report", "tap", tap, "--report", "junit", junit])
        #expect(result.status == 1)
        #expect(result.error.hasSuffix("draftline: stopped at line 3 (--strict)\n"))
        let text = try String(contentsOfFile: tap, encoding: .utf8)
        try Self.checkTAPRules(text)
        #expect(text.contains("ok 1 - line 2: screen is alice\nnot ok 2 - line 3: stopped the run (--strict)\n"))
        #expect(
            text.contains(
                "  message: \"unknown command '/nope': type /help for the list, or // to send a /\"\n  line: 3\n"))
        #expect(
            text.contains(
                "ok 3 - line 4: screen is bob # SKIP not run: --strict stopped at line 3\n"
                    + "ok 4 - line 6: 0 drafts in memory # SKIP not run: --strict stopped at line 3\n1..4\n"),
            "\(text)")
        let parsed = try Self.tapParser(tap)
        #expect(parsed["failed"] == "2" && parsed["skipped"] == "3,4", "\(parsed)")
        #expect(try fixture.messages(in: "alice").isEmpty, "nothing after the stop ran")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="strict" tests="4" failures="0" errors="1" skipped="2""#), "\(xml)")
        #expect(xml.contains(#"<skipped message="not run: --strict stopped at line 3"/>"#))
        #expect(
            xml.contains(#"<error message="unknown command &apos;/nope&apos;"#)
                || xml.contains("<error message=\"unknown command '/nope'"))
        // The same failed check, with and without --strict: status 1 both ways.
        #expect(try run(["/open alice", "/expect screen bob", "/expect screen alice"]).status == 1)
        #expect(try run(["/open alice", "/expect screen bob", "/expect screen alice"], ["--strict"]).status == 1)
        // Only errors of other lines, without --strict: a person would carry on, status 0.
        #expect(try run(["/nope", "/open zed", "/wait 1 0.1"]).status == 0)
        #expect(try run(["/open alice", "/expect screen alice"]).status == 0)
    }

    /// Under `--strict` an error the very next line checks (`/expect error [kind]`) is no
    /// surprise: the run goes on, and the check is a result of its own. Any other next line,
    /// the wrong kind, or no error to check stops the run; an error answering a question
    /// (a name refused) is checked after the question's end; a failed check is never
    /// excused.
    @Test func strictGoesOnPastAnErrorTheNextLineChecks() throws {
        let tap = fixture.root + "/checked.tap"
        let checked = try run(
            ["/open alice", "/nope", "/expect error unknown-command", "/wait 1 0.1", "/expect error", "hi"],
            ["--strict", "--report", "tap", tap])
        #expect(checked.status == 0, "\(checked.error)")
        let text = try String(contentsOfFile: tap, encoding: .utf8)
        try Self.checkTAPRules(text)
        #expect(text.contains("# line 2: error: unknown command '/nope'"))
        #expect(text.contains("ok 1 - line 3: the line before got the error unknown-command\n"))
        #expect(text.contains("ok 2 - line 5: the line before got an error\n"))
        #expect(try fixture.messages(in: "alice").map(\.content) == ["hi"])
        let stops: [([String], Int, String)] = [
            (["/open alice", "/nope", "/expect screen alice"], 2, ""),
            (["/open alice", "/nope"], 2, ""),
            (["/open alice", "/nope", "/expect error file-missing"], 3, "found unknown-command"),
            (["/open alice", "/expect error"], 2, "found no error"),
            (["/open alice", "/nope", "/expect error", "/expect screen bob"], 4, "found alice"),
            (["/open alice", "/expect screen bob", "/expect error"], 2, "found alice"),
            (["/open alice", "\u{18}o", "nobody", "bob", "/expect screen bob"], 3, ""),
        ]
        for (script, line, found) in stops {
            let stopped = try run(script, ["--strict"], data: try Fixture().dataDirectory)
            #expect(stopped.status == 1, "\(script)")
            #expect(
                stopped.error.hasSuffix("draftline: stopped at line \(line) (--strict)\n"),
                "\(script): \(stopped.error)")
            #expect(found.isEmpty || stopped.error.contains(found), "\(script): \(stopped.error)")
        }
        let answered = try run(
            ["/open alice", "\u{18}o", "nobody", "bob", "/expect error unknown-user", "/expect screen bob"],
            ["--strict"],
            data: try Fixture().dataDirectory)
        #expect(answered.status == 0, "\(answered.error)")
    }

    /// 2: the command line or the data directory cannot be used; 3: a message could not be
    /// stored (the storing failure wins over a failed expectation).
    @Test func theOtherStatusesSayWhatCouldNotBeDone() throws {
        #expect(try run([], ["--bogus"]).status == 2)
        #expect(try run([], ["--report", "xml", "f"]).status == 2)
        #expect(try run([], ["--report", "tap"]).status == 2)
        let notes = fixture.root + "/notes.txt"
        #expect(FileManager.default.createFile(atPath: notes, contents: Data("mine".utf8)))
        #expect(try run(["/open alice"], data: notes).status == 2)
        // A report that could not be written is refused before the data directory is made.
        let inside = try run(["/open alice"], ["--report", "tap", fixture.dataDirectory + "/x.tap"])
        #expect(inside.status == 2)
        #expect(inside.error.contains("cannot write the tap report"), "\(inside.error)")
        let missing = try run(["/open alice"], ["--report", "junit", fixture.root + "/no/such/dir/r.xml"])
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory))
        // A file where alice's chat directory belongs: a send to her cannot be stored.
        try FileManager.default.createDirectory(
            atPath: fixture.dataDirectory + "/chats", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: fixture.dataDirectory + "/chats/alice", contents: Data()))
        #expect(try run(["/open alice", "lost?", "/expect screen bob"]).status == 3)
    }

    // MARK: - Reading TAP

    /// The TAP 13/14 rules, line by line: the version first, then test points numbered 1, 2,
    /// ... in order (`ok`/`not ok`, a number, ` - `, a description with every `#` escaped),
    /// each YAML block right after a test point, indented two spaces from `---` to `...`,
    /// comments, and one plan, last, naming as many tests as there are.
    static func checkTAPRules(_ text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "the report ends with a line break")
        lines.removeLast()
        #expect(lines.first == "TAP version 13")
        var number = 0
        var inYAML = false
        var lastWasTestPoint = false
        var plan: String?
        // A test point, and a skipped one's directive (the one # not escaped).
        let point = /^(ok|not ok) (\d+) - (.*?)(?: # SKIP \S.*)?$/
        for line in lines.dropFirst() {
            #expect(plan == nil, "nothing after the plan: \(line)")
            if inYAML {
                #expect(line.hasPrefix("  "), "a YAML line is indented two spaces: \(line)")
                if line == "  ..." { inYAML = false }
                continue
            }
            if line == "  ---" {
                #expect(lastWasTestPoint, "a YAML block follows a test point")
                inYAML = true
                lastWasTestPoint = false
                continue
            }
            lastWasTestPoint = false
            if let match = line.wholeMatch(of: point) {
                number += 1
                #expect(Int(match.2) == number, "test points are numbered in order: \(line)")
                let description = String(match.3)
                // Every # is escaped: none reads as a directive.
                var escaped = false
                for character in description {
                    if character == "#" { #expect(escaped, "an unescaped # in \(line)") }
                    escaped = !escaped && character == "\\"
                }
                lastWasTestPoint = true
            } else if line.hasPrefix("1..") {
                plan = line
            } else {
                #expect(line.hasPrefix("#"), "a line TAP does not name: \(line)")
            }
        }
        #expect(!inYAML, "a YAML block is closed")
        #expect(plan == "1..\(number)")
    }

    /// What Perl's TAP::Parser (a real TAP reader, in Perl's core) makes of a file: the plan,
    /// the numbers of the tests that passed and failed, its parse errors, each test's
    /// description and each YAML block as `key=value` pairs.
    static func tapParser(_ path: String) throws -> [String: String] {
        let perl = """
            use TAP::Parser;
            my $p = TAP::Parser->new({ source => $ARGV[0] });
            my %out;
            while (my $r = $p->next) {
                $out{plan} = $r->as_string if $r->is_plan;
                $out{"description" . $r->number} = $r->description if $r->is_test;
                if ($r->is_yaml) {
                    my $d = $r->data;
                    $out{"yaml" . $p->tests_run} = join(";", map { "$_=$d->{$_}" } sort keys %$d);
                }
            }
            $out{passed} = join(",", $p->passed);
            $out{failed} = join(",", $p->failed);
            $out{skipped} = join(",", $p->skipped);
            $out{errors} = join(";", $p->parse_errors);
            print "$_\\t$out{$_}\\n" for sort keys %out;
            """
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["perl", "-e", perl, path], environment: ["PATH": "/usr/bin:/bin"],
            timeout: 30)
        #expect(result.status == 0, "\(String(decoding: result.error, as: UTF8.self))")
        var parsed: [String: String] = [:]
        for line in String(decoding: result.output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            parsed[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return parsed
    }
    /// A report renamed into place whose directory's sync fails is there, and one line says
    /// it is not yet confirmed on disk (the sync's result was dropped without a word). The
    /// sync is failed by strace, on the report's directory alone (`-P`).
    @Test func aReportWhoseDirectorySyncFailsIsSaidToBeUnconfirmed() throws {
        let directory = fixture.root + "/reports"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tap = directory + "/run.tap"
        let result = try Fixture.run(
            "/usr/bin/strace",
            arguments: [
                "-f", "-qq", "-o", "/dev/null", "-P", directory, "-e", "trace=fsync", "-e", "inject=fsync:error=EIO",
                Fixture.executable, "--data-dir", fixture.dataDirectory, "--report", "tap", tap,
            ],
            environment: fixture.environment(), input: Data("/expect screen home\n".utf8), timeout: 60)
        let error = String(decoding: result.error, as: UTF8.self)
        #expect(result.status == 0, "\(error)")
        #expect(try String(contentsOfFile: tap, encoding: .utf8).contains("ok 1 "))
        #expect(
            error.contains("warning: the tap report is written, but not yet confirmed on disk: could not write "),
            "\(error)")
        #expect(error.contains("Input/output error"), "\(error)")
    }
    /// A piped line over 64 KiB (skipped unread: only its length is known) is an error the
    /// next line may check, as any line's: `/expect error line-too-long` holds and `--strict`
    /// goes on; any other next line stops the run at the long line. (It stopped at once, and
    /// the check found no error, so a recorded session with such a line never replayed.)
    @Test func aPipedLineTooLongToReadIsAnErrorTheNextLineMayCheck() throws {
        let long = String(repeating: "y", count: 70_000)
        let checked = try run(["/open alice", long, "/expect error line-too-long", "/expect messages 0"], ["--strict"])
        #expect(checked.status == 0, "\(checked.error)")
        #expect(checked.output.contains("ok: the line before got the error line-too-long"), "\(checked.output)")
        let unchecked = try run(["/open alice", long, "hello"], ["--strict"], data: try Fixture().dataDirectory)
        #expect(unchecked.status == 1)
        #expect(unchecked.error.hasSuffix("draftline: stopped at line 2 (--strict)\n"), "\(unchecked.error)")
    }
    /// A failed command checked with `/expect error`, then an empty line: still Enter again
    /// on the failed line (the same attempt, nothing sent), since a check changes nothing;
    /// so a `--strict` script can check the error and then press Enter again. (The check
    /// ended the Enter again, and the empty line sent the draft.)
    @Test func enterAgainAfterACheckedErrorIsStillEnterAgain() throws {
        let result = try run(
            [
                "/open alice", "draft\u{18}b", "/open alice", "/opne x", "/expect error unknown-command", "",
                "/expect error unknown-command", "/expect messages 0", "/expect draft privateMessage_alice \"draft\"",
            ], ["--strict"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(!result.output.contains("you: draft"), "\(result.output)")
    }
}
