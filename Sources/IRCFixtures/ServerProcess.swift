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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var base = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        base.merge(environment) { _, new in new }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = base.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // A clean signal state: the test runner's blocked or ignored signals (SIGTERM, SIGPIPE)
        // must not be the server's, or SIGTERM would not stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw PseudoTerminal.Failure(
                description: "posix_spawn \(arguments[0]): \(String(cString: strerror(status)))")
        }
        pid = child
    }

    deinit { _ = stop(timeout: 5) }

    /// Whether it has ended (and how), without waiting.
    public var termination: PseudoTerminal.Termination? {
        if ended == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { ended = Self.termination(raw) }
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
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
        let result = Self.termination(raw)
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

    private static func termination(_ raw: Int32) -> PseudoTerminal.Termination {
        raw & 0x7F == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(raw & 0x7F)
    }
}
