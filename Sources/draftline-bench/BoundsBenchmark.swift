import DraftKit
import Foundation
import Glibc
import ProgramDriver

/// Issue 19's figures: the chat list and a chat's title as whole processes at 1,000,
/// 10,000 and 100,000 chats with their contacts; and key echo and memory while a third
/// process floods the journal. Issue 30's: many contacts (``runContacts(quick:scratch:)``),
/// empty segments in the gaps and journal records over a big segment
/// (``runGaps(quick:scratch:)``, ``runRecords(quick:scratch:)``).
extension Benchmark {
    static func runBounds(quick: Bool, scratch: String) throws {
        try runWholeProcessChatList(quick: quick, scratch: scratch)
        try runFlood(quick: quick, scratch: scratch)
        try runHostile(quick: quick, scratch: scratch)
    }

    /// Issue 30's bounds alone (`--only hostile`).
    static func runHostile(quick: Bool, scratch: String) throws {
        try runContacts(quick: quick, scratch: scratch)
        try runGaps(quick: quick, scratch: scratch)
        try runRecords(quick: quick, scratch: scratch)
    }

    // MARK: - the chat list and a title, as processes

    /// Times `draftline --data-dir D` on a pipe that says `/chats` (or `/open <last user>`)
    /// then `/quit`: process start to exit, median of 21 runs taken round-robin across
    /// sizes, after one run that makes the contacts' index.
    static func runWholeProcessChatList(quick: Bool, scratch: String) throws {
        let sizes = quick ? [100, 1000] : [1000, 10_000, 100_000]
        var directories: [String] = []
        for size in sizes {
            let directory = "\(scratch)/bounds-\(size)"
            let seconds = try time { try fill(directory, messages: size, chats: size) }
            print("filled \(count(size)) chats, one message and one contact each (\(format(seconds: seconds)))")
            directories.append(directory)
        }
        let scripts = [("/chats", "/chats\n/quit\n"), ("title", "/open \(userName(sizes[0] - 1))\n/quit\n")]
        var times: [String: [[Double]]] = [:]
        for (name, script) in scripts {
            let input = scratch + "/bounds-\(name == "title" ? "title" : "chats").txt"
            try Data(script.utf8).write(to: URL(fileURLWithPath: input))
            for directory in directories {
                // Once, checked, and the contacts' index made.
                let check = try ProgramRun.run(
                    draftline, arguments: ["--data-dir", directory], environment: benchEnvironment(directory),
                    input: Data(script.utf8), timeout: 120)
                let output = String(decoding: check.output, as: UTF8.self)
                guard check.status == 0, output.contains("User ") else {
                    throw BenchmarkError("\(name) in \(directory) showed no names: \(output.prefix(300))")
                }
            }
            var samples = Array(repeating: [Double](), count: directories.count)
            for _ in 0..<21 {
                for (index, directory) in directories.enumerated() {
                    samples[index].append(try timeProcess(directory, input: input))
                }
            }
            times[name] = samples
        }
        print("")
        print("the chat list and a chat's title as whole processes (start, the command, /quit; pipe; median of 21):")
        for (index, size) in sizes.enumerated() {
            let chats = median(times["/chats"]?[index] ?? [])
            let title = median(times["title"]?[index] ?? [])
            print(
                pad("\(count(size)) chats and contacts", 32) + pad("/chats \(format(seconds: chats))", 22)
                    + "title \(format(seconds: title))")
        }
        print("")
        print("chat list and title targets:")
        for name in ["/chats", "title"] {
            let samples = times[name] ?? []
            check(
                "\(name) at \(count(sizes[1]))", median(samples[1]) / median(samples[0]),
                "× the \(count(sizes[0]))-chat figure", atMost: 1.5)
            if samples.count > 2 {
                check(
                    "\(name) at \(count(sizes[2]))", median(samples[2]) / median(samples[0]),
                    "× the \(count(sizes[0]))-chat figure", atMost: 2)
            }
        }
    }

    static func benchEnvironment(_ home: String) -> [String: String] {
        ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "HOME": home, "PATH": "/usr/bin:/bin"]
    }

    /// One run of draftline with `input` as its standard input and its output thrown
    /// away: seconds from spawn to exit (``runProcess(_:input:arguments:errors:)``).
    static func timeProcess(_ directory: String, input: String) throws -> Double {
        try runProcess(directory, input: input).seconds
    }

    /// What one run of a process cost: seconds from spawn to exit, CPU seconds (user and
    /// system) and peak resident memory, as `wait4` reports them.
    struct ProcessCost {
        var seconds: Double
        var cpu: Double
        var peakMegabytes: Double
    }

    /// ``runProcess(_:input:arguments:errors:)`` run by a child of this process
    /// (`draftline-bench cost`), so that the peak memory is draftline's own: Linux carries
    /// `ru_maxrss` across `execve`, so a child spawned by this process, large after it made a
    /// million contacts, reports this process's size (PseudoTerminal+Memory says the same).
    static func measuredProcess(
        _ directory: String, input: String, arguments: [String] = [], errors: String = "/dev/null"
    ) throws -> ProcessCost {
        let run = try ProgramRun.run(
            CommandLine.arguments[0], arguments: ["cost", directory, input, errors] + arguments,
            environment: benchEnvironment(directory), timeout: 600)
        let words = String(decoding: run.output, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard run.status == 0, words.count == 3 else {
            throw BenchmarkError("draftline-bench cost failed: \(String(decoding: run.error, as: UTF8.self))")
        }
        return ProcessCost(seconds: words[0], cpu: words[1], peakMegabytes: words[2])
    }

    /// `draftline-bench cost DIRECTORY INPUT ERRORS [ARGUMENT…]`: one run of draftline
    /// (``runProcess(_:input:arguments:errors:)``), printed as seconds, CPU seconds and
    /// peak megabytes.
    static func cost(_ arguments: [String]) throws -> Int32 {
        guard arguments.count >= 3 else { return 64 }
        let cost = try runProcess(
            arguments[0], input: arguments[1], arguments: Array(arguments.dropFirst(3)), errors: arguments[2])
        print("\(cost.seconds) \(cost.cpu) \(cost.peakMegabytes)")
        return 0
    }

    /// One run of draftline on `directory` with `input` as its standard input, its output
    /// thrown away and its standard error written to `errors` (`posix_spawn`, `wait4`).
    static func runProcess(
        _ directory: String, input: String, arguments: [String] = [], errors: String = "/dev/null"
    ) throws -> ProcessCost {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let words: [String] = [draftline, "--data-dir", directory] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            benchEnvironment(directory).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let started = now()
        guard posix_spawn(&child, draftline, &actions, nil, argv, envp) == 0 else {
            throw BenchmarkError("posix_spawn \(draftline) failed")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed") }
        }
        let elapsed = now() - started
        guard status == 0 else { throw BenchmarkError("draftline exited with status \(status)") }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessCost(
            seconds: elapsed, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peakMegabytes: Double(usage.ru_maxrss) / 1024)
    }

    // MARK: - a journal flood while typing

    /// draftline on a pseudo-terminal with a chat open; a child process appends lines of
    /// junk to the journal at `rate` bytes a second for `seconds`, while this process types
    /// a key every 50 ms and times each one's echo. Prints the echo's median and p99 and
    /// how far draftline's peak memory rose above what it was idle.
    static func runFlood(quick: Bool, scratch: String) throws {
        let directory = scratch + "/flood"
        try fill(directory, messages: 10, chats: 10)
        let seconds = quick ? 3.0 : 10.0
        let rate = 10 << 20
        let terminal = try startInChat(directory, user: userName(0), watch: nil)
        let idle = terminal.peakMemoryKilobytes ?? 0
        let flooder = try PipedProcess(
            executable: CommandLine.arguments[0],
            arguments: ["flood", directory + "/live/journal", String(seconds), String(rate)], environment: [:])
        // Letters the prompt does not hold, so an echo is never taken for a redraw.
        let latencies = try echoLatencies(terminal, seconds: seconds, keys: Array("abcdfghijklmnopqtvwxyz"))
        let peak = terminal.peakMemoryKilobytes ?? 0
        _ = try flooder.waitForExit(timeout: 60)
        let written = flooder.text.trimmingCharacters(in: .whitespacesAndNewlines)
        try terminal.send("\u{15}/quit\r")
        try terminal.waitForExit(timeout: 30)
        let p99 = percentile(latencies, 0.99)
        print("")
        print(
            "a journal flood (\(count(rate >> 20)) MB/s of junk lines from a third process for \(Int(seconds)) s, "
                + "\(written) bytes written) while a key is typed every 50 ms on a pseudo-terminal:")
        print(
            "key echo: median \(format(seconds: median(latencies))), p99 \(format(seconds: p99)) (\(latencies.count) keys); "
                + "peak memory \(peak / 1024) MB, \((peak - idle) / 1024) MB above idle")
        print("")
        print("flood targets:")
        check("key echo p99 during the flood", p99 * 1000, "ms", atMost: 100)
        check("peak memory above an idle draftline", Double(peak - idle) / 1024, "MB", atMost: 64)
    }

    /// `draftline-bench flood FILE SECONDS RATE`: appends lines of junk to FILE at RATE
    /// bytes a second for SECONDS, in writes of 64 KiB; prints how many bytes it wrote.
    static func flood(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 3, let seconds = Double(arguments[1]), let rate = Int(arguments[2]) else { return 64 }
        let fd = open(arguments[0], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchmarkError("cannot open \(arguments[0])") }
        defer { close(fd) }
        let line = Array((String(repeating: "junk ", count: 19) + "\n").utf8)
        let chunk = Array(Array(repeating: line, count: 64 * 1024 / line.count).joined())
        let started = now()
        var written = 0
        while now() - started < seconds {
            let due = Int((now() - started) * Double(rate))
            if written < due {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { throw BenchmarkError("write failed") }
                written += n
            } else {
                usleep(1000)
            }
        }
        print(written)
        return 0
    }
}
