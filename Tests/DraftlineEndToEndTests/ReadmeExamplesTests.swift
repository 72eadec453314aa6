import DraftlineTestSupport
import Foundation
import Testing

/// Every ```sh block of the README and of the guides in Documentation/ (QA.md has its own
/// test), run as written from the repository's root: a scratch HOME and TMPDIR, a deadline,
/// and `swift run <product>` standing for the product the tests already built. A block
/// passes when it exits 0 and prints no `error:` line. ```text blocks are not run.
@Suite("README examples")
struct ReadmeExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// One shell block: where it is and what it says.
    struct Example: Sendable, CustomTestStringConvertible {
        let file: String
        let line: Int
        let script: String
        var testDescription: String { "\(file):\(line)" }
    }

    /// The documents whose shell blocks are run, relative to the repository.
    static var documents: [String] {
        let guides = (try? FileManager.default.contentsOfDirectory(atPath: repository.path + "/Documentation")) ?? []
        return ["README.md"]
            + guides.filter { $0.hasSuffix(".md") && $0 != "QA.md" }.sorted().map { "Documentation/\($0)" }
    }

    /// The ```sh blocks of one document, each with the line its fence is on.
    static func examples(in document: String) -> [Example] {
        guard let text = try? String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8) else {
            return []
        }
        var examples: [Example] = []
        var open: (line: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let block = open {
                if line.hasPrefix("```") {
                    examples.append(
                        Example(file: document, line: block.line, script: block.lines.joined(separator: "\n")))
                    open = nil
                } else {
                    open = (block.line, block.lines + [String(line)])
                }
            } else if line == "```sh" {
                open = (index + 1, [])
            }
        }
        return examples
    }

    static let all = documents.flatMap(examples(in:))

    /// Stands in for the toolchain: `swift run PRODUCT ARGS` runs the built product,
    /// `swift build --show-bin-path` names where the products are; nothing else is known.
    static func swiftStub(products: String) -> String {
        """
        #!/bin/sh
        if [ "$1" = run ] && [ -n "$2" ] && [ "${2#-}" = "$2" ]; then
            product=$2
            shift 2
            exec "\(products)/$product" "$@"
        elif [ "$1 $2" = "build --show-bin-path" ] && [ $# = 2 ]; then
            echo "\(products)"
        else
            echo "swift stand-in: unknown in a README example: swift $*" >&2
            exit 127
        fi

        """
    }

    @Test func theReadmeHasItsShellExamples() {
        #expect(Self.all.filter { $0.file == "README.md" }.count >= 3)
    }

    /// The documents hold no control bytes but newlines: a raw byte is lost when a reader
    /// copies an example from a rendered page.
    @Test func noDocumentHoldsARawControlByte() throws {
        for document in Self.documents + ["Documentation/QA.md"] {
            let url = Self.repository.appendingPathComponent(document)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let bytes = try Data(contentsOf: url)
            let raw = bytes.enumerated().filter { $0.element < 0x20 && $0.element != 0x0A }
            #expect(raw.isEmpty, "\(document): control byte at offset \(raw.first?.offset ?? 0)")
        }
    }

    @Test(arguments: all)
    func runsAsWritten(_ example: Example) throws {
        let fixture = try Fixture()
        let products = URL(fileURLWithPath: Fixture.executable).deletingLastPathComponent().path
        let bin = fixture.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: bin + "/swift", contents: Data(Self.swiftStub(products: products).utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/swift")
        let script = fixture.root + "/example.sh"
        #expect(FileManager.default.createFile(atPath: script, contents: Data(example.script.utf8)))
        let result = try Fixture.run(
            "/bin/sh",
            arguments: ["-c", "cd \"$1\" && exec /bin/sh -e \"$2\" 2>&1", "sh", Self.repository.path, script],
            environment: fixture.environment(["PATH": bin + ":/usr/bin:/bin"]),
            timeout: 60)
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0, "\(example.testDescription) exited \(result.status):\n\(output)")
        let errors = output.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.isEmpty, "\(example.testDescription) printed errors:\n\(output)")
    }
}
