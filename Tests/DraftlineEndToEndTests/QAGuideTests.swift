import DraftlineTestSupport
import Foundation
import Testing

/// `Documentation/QA.md` runs as written: every `sh` block with `sh`, every `python` block
/// with `python3` (pexpect), from the repository's root, each with a deadline; each must
/// end with status 0.
@Suite("The QA guide's examples")
struct QAGuideTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The fenced blocks of a Markdown text in this language, in order.
    static func blocks(_ language: String, in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append((current ?? []).joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static var guide: String {
        (try? String(contentsOfFile: repository + "/Documentation/QA.md", encoding: .utf8)) ?? ""
    }

    @Test func theGuideHasTheExamplesItPromises() {
        #expect(Self.blocks("sh", in: Self.guide).count == 5)
        #expect(Self.blocks("python", in: Self.guide).count == 2)
        // No raw control bytes, no printf of a file's contents.
        #expect(!Self.guide.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!Self.guide.contains("printf \"$(cat"))
    }

    @Test(arguments: blocks("sh", in: guide).indices)
    func eachShellExampleRunsAsWritten(_ index: Int) throws {
        try run(["/bin/sh", "-c", Self.blocks("sh", in: Self.guide)[index]])
    }

    @Test(arguments: blocks("python", in: guide).indices)
    func eachPexpectExampleRunsAsWritten(_ index: Int) throws {
        try run(["/usr/bin/env", "python3", "-c", Self.blocks("python", in: Self.guide)[index]])
    }

    /// Runs a command in the repository's root with the fixture's environment (its own
    /// `TMPDIR`, so `mktemp -d` makes directories the fixture removes) and the caller's
    /// `PATH`, so `python3` is the one `make test` checked for pexpect.
    func run(_ command: [String]) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", Self.repository] + command,
            environment: fixture.environment(["PATH": path]), timeout: 90)
        #expect(
            result.status == 0,
            "\(String(decoding: result.output, as: UTF8.self))\n\(String(decoding: result.error, as: UTF8.self))")
    }
}
