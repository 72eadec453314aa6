import DraftKit
import Foundation
import Glibc

/// A scratch directory for one test, with a data directory and a home of its own;
/// removed when the fixture goes away.
public final class Fixture {
    /// The scratch directory.
    public let root: String
    /// The data directory draftline is started on.
    public var dataDirectory: String { root + "/data" }
    /// The `HOME` draftline sees (so the user's own `~/.editrc` stays out of tests).
    public var home: String { root + "/home" }

    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/draftline-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PseudoTerminal.Failure(description: "mkdtemp failed") }
        root = String(cString: made)
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The built `draftline` executable, beside the test bundle.
    public static var executable: String {
        let bundle =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("draftline").path
    }

    /// The environment draftline runs with in tests: a UTF-8 locale, a known terminal,
    /// and this fixture's home.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "HOME": home,
            "TMPDIR": root + "/tmp",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Starts draftline on a pseudo-terminal with this fixture's data directory.
    public func startTerminal(
        _ arguments: [String] = [], environment extra: [String: String] = [:]
    ) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            executable: Self.executable, arguments: ["--data-dir", dataDirectory] + arguments,
            environment: environment(extra))
    }

    /// Runs draftline with `input` on its standard input (a pipe) and returns its exit
    /// status, standard output and standard error.
    public func runPiped(
        _ input: String, arguments: [String]? = nil
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        try runPiped(bytes: Data(input.utf8), arguments: arguments)
    }

    /// Runs draftline with these bytes on its standard input (any bytes: invalid UTF-8,
    /// NUL, escape sequences).
    public func runPiped(
        bytes input: Data, arguments: [String]? = nil
    ) throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments ?? ["--data-dir", dataDirectory]
        process.environment = environment()
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = ErrorCollector(stderr.fileHandleForReading)
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData.wait(), as: UTF8.self)
        )
    }

    /// The messages stored for a chat, oldest first, read back through DraftKit.
    public func messages(in chat: String) throws -> [Message] {
        let history = try PropertyListHistory(directory: dataDirectory)
        return try history.recentMessages(in: ChatID(chat)!, limit: Int.max)
    }

    /// Every file under this fixture (the data directory, the home and the `TMPDIR`
    /// draftline was given) whose bytes hold `needle`.
    public func filesContaining(_ needle: String) -> [String] {
        var hits: [String] = []
        for directory in [root] {
            guard let walker = FileManager.default.enumerator(atPath: directory) else { continue }
            for case let name as String in walker {
                let path = directory + "/" + name
                // Regular files only: a symbolic link would count its target twice.
                guard
                    (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
                        == .typeRegular
                else { continue }
                if let data = FileManager.default.contents(atPath: path),
                    data.range(of: Data(needle.utf8)) != nil
                {
                    hits.append(path)
                }
            }
        }
        return hits
    }
}

/// Reads a pipe to its end on a thread of its own, so that a full standard-error pipe
/// cannot block the child while standard output is read.
final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
