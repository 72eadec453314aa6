import DraftKit
import Foundation
import Glibc
import ProgramDriver

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
            // A crash prints its backtrace at once, rather than waiting for a key.
            "SWIFT_BACKTRACE": "interactive=no,color=no",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Starts draftline on a pseudo-terminal with this fixture's data directory.
    ///
    /// `columns`: the terminal's width; draftline breaks its own lines to fit it, so a test
    /// that looks for a whole long line gives a wide one.
    public func startTerminal(
        _ arguments: [String] = [], environment extra: [String: String] = [:], columns: UInt16 = 80
    ) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            executable: Self.executable, arguments: ["--data-dir", dataDirectory] + arguments,
            environment: environment(extra), columns: columns)
    }

    /// Runs draftline with `input` on its standard input (a pipe) and returns its exit
    /// status, standard output and standard error.
    public func runPiped(
        _ input: String, arguments: [String]? = nil, timeout: Double = 60
    ) throws -> (status: Int32, output: String, error: String) {
        try runPiped(bytes: Data(input.utf8), arguments: arguments, timeout: timeout)
    }

    /// Runs draftline with these bytes on its standard input (any bytes: invalid UTF-8,
    /// NUL, escape sequences).
    public func runPiped(
        bytes input: Data, arguments: [String]? = nil, timeout: Double = 60
    ) throws -> (status: Int32, output: String, error: String) {
        let result = try Self.run(
            Self.executable, arguments: arguments ?? ["--data-dir", dataDirectory], environment: environment(),
            input: input, timeout: timeout)
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self)
        )
    }

    /// Runs a program with `input` on a pipe, collecting both output streams; kills it and
    /// throws when it has not ended within `timeout` seconds (``ProgramRun/run(_:arguments:environment:input:timeout:)``).
    public static func run(
        _ executable: String, arguments: [String], environment: [String: String], input: Data = Data(),
        timeout: Double
    ) throws -> (status: Int32, output: Data, error: Data) {
        try ProgramRun.run(executable, arguments: arguments, environment: environment, input: input, timeout: timeout)
    }

    /// The messages stored for a chat, oldest first, read by an independent reader:
    /// Python's `plistlib`. Every segment must parse; a chat with no directory has none.
    /// `thread` names a comment thread (`tweet_123`) instead of a private chat.
    public func messages(in chat: String, thread: Bool = false) throws -> [Message] {
        try storedDictionaries(in: chat, thread: thread).map { dictionary in
            var message = Message(dictionary: dictionary)
            if let seconds = dictionary["sentAt"] as? Double { message.sentAt = Date(timeIntervalSince1970: seconds) }
            return message
        }
    }

    /// The message dictionaries stored for a chat, oldest first, as Python's `plistlib` reads
    /// them: each key and value as the file holds it (`sentAt` as seconds since 1970), read
    /// without draftline's own idea of a message (see ``messages(in:thread:)``).
    public func storedDictionaries(in chat: String, thread: Bool = false) throws -> [[String: Any]] {
        let script = """
            import json, os, plistlib, re, sys
            from datetime import timezone
            directory = sys.argv[1]
            names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
            strays = [n for n in names if not re.fullmatch(r"\\d{8}\\.plist|last|count|.*\\.corrupt-.*", n)]
            if strays: sys.exit("unexpected files: %r" % strays)
            messages = []
            for name in names:
                if re.fullmatch(r"\\d{8}\\.plist", name):
                    with open(os.path.join(directory, name), "rb") as f:
                        for message in plistlib.load(f):
                            if "sentAt" in message:
                                message["sentAt"] = message["sentAt"].replace(tzinfo=timezone.utc).timestamp()
                            messages.append(message)
            json.dump(messages, sys.stdout)
            """
        let directory = dataDirectory + (thread ? "/threads/" : "/chats/") + chat
        let result = try Self.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, directory], environment: environment(), timeout: 60)
        guard result.status == 0 else {
            throw PseudoTerminal.Failure(
                description: "plistlib could not read \(directory): \(String(decoding: result.error, as: UTF8.self))")
        }
        return try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] ?? []
    }

    /// The edit line's stored history of one identity, read by Python's `plistlib`.
    public func lineHistory(of identity: String = "me") throws -> [String] {
        let script = """
            import json, plistlib, sys
            with open(sys.argv[1], "rb") as f: json.dump(plistlib.load(f), sys.stdout)
            """
        let result = try Self.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, dataDirectory + "/line-history.\(identity).plist"],
            environment: environment(), timeout: 60)
        guard result.status == 0 else { return [] }
        return try JSONSerialization.jsonObject(with: result.output) as? [String] ?? []
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

extension Fixture {
    /// Starts draftline on pipes with this fixture's data directory, for a test that
    /// writes its lines one at a time.
    public func startPiped(
        _ arguments: [String] = [], environment extra: [String: String] = [:]
    ) throws
        -> PipedProcess
    {
        try PipedProcess(
            executable: Self.executable, arguments: ["--data-dir", dataDirectory] + arguments,
            environment: environment(extra))
    }
}
