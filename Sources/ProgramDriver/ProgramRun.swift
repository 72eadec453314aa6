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
        ignoreBrokenPipes
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw PseudoTerminal.Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // The test's ends must not leak into the child (or into other tests' children).
        for descriptor in inPipe + outPipe + errPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                executable, arguments: arguments, environment: environment,
                standard: .descriptors([inPipe[0], outPipe[1], errPipe[1]]))
        } catch {
            (inPipe + outPipe + errPipe).forEach { close($0) }
            throw error
        }
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        let writer = FileHandle(fileDescriptor: inPipe[1], closeOnDealloc: true)
        Thread {
            // A child that never reads (its standard input closed) must not take the tests
            // down: the write fails with EPIPE instead of raising SIGPIPE.
            try? writer.write(contentsOf: input)
            try? writer.close()
        }.start()
        let output = PipeCollector(FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true))
        let error = PipeCollector(FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true))
        let exit = ExitWatcher(pid)
        guard let status = exit.wait(timeout: timeout) else {
            kill(pid, SIGKILL)
            _ = exit.wait(timeout: .infinity)
            let shown = String(decoding: output.wait().suffix(1500), as: UTF8.self)
            throw PseudoTerminal.Failure(
                description: "\(executable) did not end within \(timeout) s. Last output:\n\(shown.debugDescription)")
        }
        return (status, output.wait(), error.wait())
    }
}

/// Starts programs as a shell would: nothing blocked, every signal at its default.
///
/// A child inherits the signal mask of the thread that spawns it, and the dispositions
/// the test process ignores (SIGPIPE), through exec: a test thread may block most signals
/// (a Dispatch worker does, and Foundation's `Process` spawns from one), and a shell
/// started with SIGCHLD blocked waits for ever in `wait`.
public enum Spawn {
    /// Where a child's descriptors 0, 1 and 2 come from.
    public enum Standard {
        /// These descriptors of the parent, in order (`posix_spawn_file_actions_adddup2`).
        case descriptors([Int32])
        /// The terminal at `path`, opened by the child in a session of its own
        /// (`POSIX_SPAWN_SETSID`), so that it becomes the child's controlling terminal.
        case terminal(path: String)
    }

    /// Spawns `executable` (`posix_spawn`) with `standard` as its 0, 1 and 2.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String], standard: Standard
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var flags: Int32 = 0
        switch standard {
        case .descriptors(let descriptors):
            for (target, descriptor) in descriptors.enumerated() {
                posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target))
            }
        case .terminal(let path):
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            flags = 0x80  // POSIX_SPAWN_SETSID: glibc's value, which the Glibc module does not import
        }
        // Nothing else goes with it: a file another test has open for writing (a script it
        // is about to run) held by this child would make that exec fail (ETXTBSY).
        _ = closeFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        cleanSignals(&attributes, flags: flags)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw PseudoTerminal.Failure(
                description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        return child
    }

    /// Kills the child (SIGKILL) and waits for it: how it ended.
    @discardableResult
    public static func kill(_ pid: pid_t) -> PseudoTerminal.Termination {
        Glibc.kill(pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
        return PseudoTerminal.Termination(waitStatus: raw)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does
    /// not declare (it is a GNU extension), looked up once.
    nonisolated(unsafe) static let closeFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Sets `attributes` to start the child with no signal blocked and each at its
    /// default (`flags` added to the flags).
    static func cleanSignals(_ attributes: inout posix_spawnattr_t, flags: Int32 = 0) {
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }
}

/// Waits for a child's end on a thread of its own (`waitpid`), so that a test can wait
/// with a deadline.
final class ExitWatcher: @unchecked Sendable {
    private var status: Int32 = 0
    private let ended = DispatchSemaphore(value: 0)

    init(_ pid: pid_t) {
        Thread {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            // Exited: its status; killed: 128 plus the signal, as a shell says.
            self.status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            self.ended.signal()
        }.start()
    }

    /// The exit status, or `nil` when the child has not ended within `timeout` seconds.
    func wait(timeout: Double) -> Int32? {
        if timeout.isFinite {
            guard ended.wait(timeout: .now() + timeout) == .success else { return nil }
        } else {
            ended.wait()
        }
        ended.signal()
        return status
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
