import DraftKit
import Foundation
import Glibc
import ProgramDriver

/// The live conversation's figures: how long a message takes from one process's
/// acknowledged send to the other's screen, and what an idle draftline costs.
extension Benchmark {
    /// The executable beside this benchmark.
    static var draftline: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("draftline").path
    }

    /// Delivery latencies, in seconds: draftline runs on a pseudo-terminal with the chat
    /// of `user` open; this process stores `count` messages from `user` in that chat, one
    /// at a time, each once the previous one is on the screen, and times each from the
    /// moment its append returned (stored and synced: acknowledged) to the moment its line
    /// appeared in the terminal's output.
    static func measureDelivery(
        _ directory: String, user: String, count: Int, watch: String? = nil
    ) throws
        -> [Double]
    {
        let terminal = try startInChat(directory, user: user, watch: watch)
        let sender = try PropertyListHistory(directory: directory)
        guard let chat = ChatID(user) else { throw BenchmarkError("'\(user)' is not a chat ID") }
        var latencies: [Double] = []
        for index in 0..<count {
            let text = "live message \(index) from \(user)"
            let message = Message(
                chatID: user, messageID: "live-\(getpid())-\(index)", content: text, target: "me", mineHead: user,
                otherHead: "me", type: "text", sentAt: Date(), sender: user)
            try sender.append(message, to: chat)
            let acknowledged = now()
            try terminal.waitFor("\(user): \(text)\r\n", timeout: 30)
            latencies.append(now() - acknowledged)
        }
        try terminal.send("/quit\r")
        try terminal.waitForExit(timeout: 30)
        return latencies
    }

    /// draftline on a pseudo-terminal over `directory`, with the chat of `user` open.
    static func startInChat(_ directory: String, user: String, watch: String?) throws -> PseudoTerminal {
        var environment = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "HOME": directory]
        if let watch { environment["DRAFTLINE_WATCH"] = watch }
        let terminal = try PseudoTerminal(
            executable: draftline, arguments: ["--data-dir", directory], environment: environment)
        try terminal.waitForPrompt("draftline> ", timeout: 30)
        try terminal.send("/open \(user)\r")
        try terminal.waitForPrompt("\(user)> ", timeout: 30)
        return terminal
    }

    /// The CPU time (user and system) an idle draftline uses in `seconds`: started on a
    /// pseudo-terminal with a chat open, left alone, measured from `/proc/<pid>/stat`.
    static func measureIdle(_ directory: String, user: String, seconds: Double, watch: String? = nil) throws -> Double {
        let terminal = try startInChat(directory, user: user, watch: watch)
        let before = try cpuSeconds(terminal.pid)
        // Nothing to wait for: the point is that nothing happens.
        usleep(UInt32(seconds * 1_000_000))
        let used = try cpuSeconds(terminal.pid) - before
        try terminal.send("/quit\r")
        try terminal.waitForExit(timeout: 30)
        return used
    }

    /// The CPU seconds a process's threads have run so far: the first field of each
    /// `/proc/<pid>/task/<tid>/schedstat`, in nanoseconds (clock ticks would round an
    /// idle minute to nothing).
    static func cpuSeconds(_ pid: pid_t) throws -> Double {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var nanoseconds = 0.0
        for task in tasks {
            let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)
            guard let first = stat.split(separator: " ").first, let value = Double(first) else {
                throw BenchmarkError("unreadable /proc/\(pid)/task/\(task)/schedstat")
            }
            nanoseconds += value
        }
        return nanoseconds / 1e9
    }

    /// The value below which `fraction` of the samples fall (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

extension Benchmark {
    /// Prints the live figures for two data directories and checks them against the
    /// targets: delivery median under 20 ms and p99 under 100 ms, the large directory's
    /// within 1.5× of the small one's; an idle draftline under 0.1 s of CPU a minute.
    static func runLive(
        quick: Bool, small: (name: String, path: String), large: (name: String, path: String)
    )
        throws
    {
        let count = quick ? 50 : 200
        let idleSeconds = quick ? 6.0 : 60
        let user = userName(0)
        print("")
        print("live: \(count) messages stored one at a time by this process in a chat open in draftline on a")
        print("pseudo-terminal; each timed from its acknowledged append to its line on the screen")
        // Round-robin in batches, so that the machine's moods land on both sizes alike.
        var smallLatencies: [Double] = []
        var largeLatencies: [Double] = []
        for _ in 0..<4 {
            smallLatencies += try measureDelivery(small.path, user: user, count: count / 4)
            largeLatencies += try measureDelivery(large.path, user: user, count: count / 4)
        }
        let polled = try measureDelivery(large.path, user: user, count: count / 4, watch: "poll")
        for (name, latencies) in [
            (small.name, smallLatencies), (large.name, largeLatencies),
            ("\(large.name), DRAFTLINE_WATCH=poll", polled),
        ] {
            print(
                pad(name, 36) + "median " + pad(format(seconds: median(latencies)), 12) + "p99 "
                    + format(seconds: percentile(latencies, 0.99)))
        }
        let idle = try measureIdle(large.path, user: user, seconds: idleSeconds)
        let idlePolling = try measureIdle(large.path, user: user, seconds: idleSeconds, watch: "poll")
        print(
            "idle: CPU used in \(Int(idleSeconds)) s with a chat open: \(format(seconds: idle)) (inotify), "
                + "\(format(seconds: idlePolling)) (DRAFTLINE_WATCH=poll)"
        )
        print("")
        print("live targets:")
        check("delivery median", median(largeLatencies) * 1000, "ms at \(large.name)", atMost: 20)
        check("delivery p99", percentile(largeLatencies, 0.99) * 1000, "ms at \(large.name)", atMost: 100)
        check(
            "delivery median", median(largeLatencies) / median(smallLatencies), "× the \(small.name) figure",
            atMost: 1.5)
        check(
            "delivery p99", percentile(largeLatencies, 0.99) / percentile(smallLatencies, 0.99),
            "× the \(small.name) figure", atMost: 1.5)
        check("idle CPU", idle * 60 / idleSeconds, "s a minute", atMost: 0.1)
    }
}
