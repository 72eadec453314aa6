import Foundation
import Glibc

/// Runs a program to its end on pipes, as a script would: input written on a thread of
/// its own, both output streams collected, and a deadline.
public enum ProgramRun {
    /// Runs a program with `input` on a pipe, collecting both output streams; kills it and
    /// throws when it has not ended within `timeout` seconds.
    public static func run(
        _ executable: String, arguments: [String], environment: [String: String], input: Data = Data(),
        timeout: Double
    ) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        ignoreBrokenPipes
        try process.run()
        Thread {
            // A child that never reads (its standard input closed) must not take the tests
            // down: the write fails with EPIPE instead of raising SIGPIPE.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }.start()
        let output = PipeCollector(stdout.fileHandleForReading)
        let error = PipeCollector(stderr.fileHandleForReading)
        guard ended.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
            let shown = String(decoding: output.wait().suffix(1500), as: UTF8.self)
            throw PseudoTerminal.Failure(
                description: "\(executable) did not end within \(timeout) s. Last output:\n\(shown.debugDescription)")
        }
        return (process.terminationStatus, output.wait(), error.wait())
    }
}

/// SIGPIPE ignored in the test process, once: a write to a child that has gone fails with
/// EPIPE rather than killing every test.
let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Reads a pipe to its end on a thread of its own, so that a full pipe cannot block the
/// child while another is read.
final class PipeCollector: @unchecked Sendable {
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
