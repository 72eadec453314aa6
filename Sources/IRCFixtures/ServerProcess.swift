import Foundation
import Glibc
import ProgramDriver

/// A program started as a process of its own, its output going to a log file, stopped by
/// its process ID with a deadline. The test process waits for it itself (orphans are not
/// reaped on this machine).
public final class ServerProcess {
    /// The child's process ID.
    public let pid: pid_t
    /// Where its standard output and error go.
    public let logPath: String
    private var ended: PseudoTerminal.Termination?

    /// Starts `arguments[0]` (a path) with the rest as its arguments.
    public init(_ arguments: [String], environment: [String: String] = [:], logPath: String) throws {
        self.logPath = logPath
        var base = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        base.merge(environment) { _, new in new }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { [input, log].filter { $0 >= 0 }.forEach { close($0) } }
        guard input >= 0, log >= 0 else {
            throw PseudoTerminal.Failure(description: "open \(logPath): \(String(cString: strerror(errno)))")
        }
        // A clean signal state (Spawn): the test runner's blocked or ignored signals
        // (SIGTERM, SIGPIPE) must not be the server's, or SIGTERM would not stop it.
        pid = try Spawn.start(
            arguments[0], arguments: Array(arguments.dropFirst()), environment: base,
            standard: .descriptors([input, log, log]))
    }

    deinit { _ = stop(timeout: 5) }

    /// Whether it has ended (and how), without waiting.
    public var termination: PseudoTerminal.Termination? {
        if ended == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { ended = PseudoTerminal.Termination(waitStatus: raw) }
        }
        return ended
    }

    /// Sends `signal`, waits up to `timeout` seconds for the end, then SIGKILL; returns how
    /// it ended.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 5) -> PseudoTerminal.Termination {
        if let ended { return ended }
        kill(pid, signal)
        let deadline = PseudoTerminal.now() + timeout
        while PseudoTerminal.now() < deadline {
            if let ended = termination { return ended }
            usleep(5_000)
        }
        let result = Spawn.kill(pid)
        ended = result
        return result
    }

    /// Runs a short command to its end (`timeout` seconds at most), with a clean signal
    /// state and its output in a file rather than a pipe: a program that leaves a daemon
    /// behind (`tmux new-session -d`) hands that daemon its output, and a pipe would never
    /// reach its end. Returns the exit status and the output.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], outputPath: String, timeout: Double = 10
    ) throws -> (status: Int32, output: String) {
        unlink(outputPath)
        let process = try ServerProcess(arguments, environment: environment, logPath: outputPath)
        let deadline = PseudoTerminal.now() + timeout
        while process.termination == nil {
            guard PseudoTerminal.now() < deadline else {
                process.stop(signal: SIGKILL)
                throw PseudoTerminal.Failure(
                    description: "\(arguments.joined(separator: " ")) did not end within \(timeout) s")
            }
            usleep(2_000)
        }
        let status: Int32
        switch process.termination {
        case .exited(let code)?: status = code
        default: status = -1
        }
        return (status, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// The end of its log, for a failure's message.
    public var logTail: String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return String(text.suffix(2000))
    }
}
