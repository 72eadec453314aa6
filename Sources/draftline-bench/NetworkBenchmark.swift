import Foundation
import Glibc
import IRCFixtures
import ProgramDriver

/// The chat server's figures (SPEC §6, issue 33), through a local InspIRCd started for the
/// run (``IRCServer``): delivery from one draftline's terminal to another's screen beside
/// two raw socket clients through the same server; key echo while 10,000 lines arrive; and
/// what a connected draftline costs while idle.
extension Benchmark {
    static func runNetwork(quick: Bool, scratch: String) throws {
        guard IRCServer.isInstalled(.inspircd) else {
            print("\nnetwork: InspIRCd is not installed (make test-setup installs it): skipped")
            return
        }
        let samples = quick ? 50 : 200
        let idleSeconds = quick ? 5.0 : 10
        let server = try IRCServer(.inspircd)
        let alice = try startOnServer(scratch + "/net-alice", server, as: "alice", chat: "bob")
        let bob = try startOnServer(scratch + "/net-bob", server, as: "bob", chat: "alice")
        let sender = try RawIRCPeer(port: server.port, nick: "rawsender")
        let receiver = try RawIRCPeer(port: server.port, nick: "rawreceiver")
        print("")
        print("network: a local InspIRCd; \(samples) messages typed on alice's pseudo-terminal, each timed from its")
        print("Enter to its line on bob's screen and acknowledged (alice shows it sent) before the next; after each,")
        print("one PRIVMSG between two raw socket clients through the same server, timed from send to receipt")
        var delivered: [Double] = []
        var raw: [Double] = []
        for index in 0..<samples {
            // A message at most every 0.75 s: draftline's lines go out paced (5 at once, then
            // 2 a second, typing states only in a spare slot); faster, the pace would be
            // measured instead of the delivery.
            let next = now() + 0.75
            let text = "delivery \(index) of \(samples)"
            try alice.send(text)
            try alice.waitFor(text)
            let entered = now()
            try alice.send("\r")
            try bob.waitFor("alice: \(text)\r\n", timeout: 30)
            delivered.append(now() - entered)
            try alice.waitFor("you: \(text)\r\n", timeout: 30)
            let line = "PRIVMSG \(receiver.nick) :\(text)"
            let sent = now()
            try sender.send(line)
            try receiver.waitFor({ $0.hasSuffix(line) }, timeout: 30)
            raw.append(now() - sent)
            if now() < next { usleep(useconds_t((next - now()) * 1_000_000)) }
        }
        for (name, latencies) in [("draftline to draftline", delivered), ("raw socket to raw socket", raw)] {
            print(
                pad(name, 36) + "median " + pad(format(seconds: median(latencies)), 12) + "p99 "
                    + format(seconds: percentile(latencies, 0.99)))
        }
        let idle = try measureIdle(bob, seconds: idleSeconds)
        print(
            "idle, connected with a chat open: \(format(seconds: idle.cpu)) of CPU and \(idle.wakeups) wake-ups "
                + "in \(Int(idleSeconds)) s")
        try alice.send("/quit\r")
        _ = try alice.waitForExit(timeout: 30)
        let flood = try measureFlood(bob, server: server, lines: 10_000)
        print(
            "a flood of \(count(10_000)) lines from another client while a key is typed every 20 ms: "
                + "key echo median \(format(seconds: median(flood.echoes))), p99 "
                + "\(format(seconds: percentile(flood.echoes, 0.99))), max \(format(seconds: flood.echoes.max() ?? 0)) "
                + "(\(flood.echoes.count) keys, all lines shown in \(format(seconds: flood.seconds)))")
        try bob.send("\u{15}/quit\r")
        _ = try bob.waitForExit(timeout: 30)
        let bound = 1.5 * median(raw) + 0.001
        print("")
        print("network targets:")
        check("delivery median", median(delivered) * 1000, "ms (1.5 × raw + 1 ms)", atMost: rounded(bound * 1000))
        print(
            "  " + pad("(delivery median", 24) + String(format: "%.2f", median(delivered) / bound)
                + " × the bound, \(String(format: "%.1f", median(delivered) / median(raw))) × the raw median)")
        check("key echo, flood, max", (flood.echoes.max() ?? 0) * 1000, "ms", atMost: 100)
        check("idle CPU", idle.cpu * 1000 * 60 / idleSeconds, "ms a minute", atMost: 1)
    }

    /// `value` to two decimals, as ``check(_:_:_:atMost:)`` prints it.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// draftline on a pseudo-terminal, connected to `server` as `nick`, in the chat with `chat`.
    static func startOnServer(
        _ directory: String, _ server: IRCServer, as nick: String, chat: String
    ) throws
        -> PseudoTerminal
    {
        let environment = [
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "HOME": directory, "NO_COLOR": "1",
        ]
        let terminal = try PseudoTerminal(
            executable: draftline,
            arguments: ["--data-dir", directory, "--server", "irc://127.0.0.1:\(server.port)", "--as", nick],
            environment: environment)
        try terminal.waitForPrompt("draftline> ", timeout: 30)
        try terminal.send("/open \(chat)\r")
        try terminal.waitForPrompt("\(chat)> ", timeout: 30)
        return terminal
    }

    /// The CPU time (from `/proc/<pid>/task/*/schedstat`) and the wake-ups (context
    /// switches, from `/proc/<pid>/task/*/status`) of `terminal`'s draftline in `seconds`
    /// left alone.
    static func measureIdle(_ terminal: PseudoTerminal, seconds: Double) throws -> (cpu: Double, wakeups: Int) {
        let before = (try cpuSeconds(terminal.pid), try contextSwitches(terminal.pid))
        // Nothing to wait for: the point is that nothing happens.
        usleep(UInt32(seconds * 1_000_000))
        return (try cpuSeconds(terminal.pid) - before.0, try contextSwitches(terminal.pid) - before.1)
    }

    /// The context switches of a process's threads so far, voluntary and not.
    static func contextSwitches(_ pid: pid_t) throws -> Int {
        var total = 0
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return total
    }

    /// Key echo on `terminal` while `lines` messages from another client arrive in its open
    /// chat: a child process (`draftline-bench ircflood`) connects, and once it is welcomed
    /// sends them all as fast as the server takes them; meanwhile this process types a key
    /// every 20 ms and times its echo, until the last line is on the screen.
    static func measureFlood(
        _ terminal: PseudoTerminal, server: IRCServer, lines: Int
    ) throws
        -> (echoes: [Double], seconds: Double)
    {
        let flooder = try PipedProcess(
            executable: CommandLine.arguments[0], arguments: ["ircflood", String(server.port), "bob", String(lines)],
            environment: [:])
        try flooder.waitFor("welcomed\n", timeout: 30)
        try terminal.send("/open flood\r")
        try terminal.waitForPrompt("flood> ", timeout: 30)
        let last = Array("flood: \(floodLine(lines - 1))\r\n".utf8)
        var scanned = terminal.output.count
        // Letters that neither the flood's lines, the prompt nor the terminal's escape
        // sequences hold, so that an echo is never taken for something else.
        let keys = Array("bgjkqtvwxyz")
        var echoes: [Double] = []
        try flooder.write("go\n")
        let started = now()
        var index = 0
        while true {
            let key = String(keys[index % keys.count])
            index += 1
            let typed = now()
            try terminal.send(key)
            try terminal.waitFor(key, timeout: 30)
            echoes.append(now() - typed)
            // Emptied again, so that a line drawn again under an arrival never shows a key
            // typed before.
            try terminal.send("\u{7F}")
            // Only where the last line can end after what was scanned before.
            if PseudoTerminal.find(last, in: terminal.output, from: max(0, scanned - last.count)) != nil { break }
            scanned = terminal.output.count
            guard now() - started < 120 else { throw BenchmarkError("the flood's last line did not show in 120 s") }
            let next = typed + 0.02
            if now() < next { usleep(useconds_t((next - now()) * 1_000_000)) }
        }
        let seconds = now() - started
        _ = try flooder.waitForExit(timeout: 30)
        return (echoes, seconds)
    }

    /// The flood's line number `index`: digits and signs, no letters.
    static func floodLine(_ index: Int) -> String { "#\(index) " + String(repeating: "=", count: 40) }

    /// `draftline-bench ircflood PORT TARGET COUNT`: connects to 127.0.0.1:PORT as `flood`,
    /// prints `welcomed`, and at a line on standard input sends COUNT messages to TARGET
    /// (``floodLine(_:)``) as fast as the server takes them, then quits.
    static func ircFlood(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 3, let port = Int(arguments[0]), let lines = Int(arguments[2]) else { return 64 }
        let peer = try RawIRCPeer(port: port, nick: "flood")
        let welcomed = Array("welcomed\n".utf8)
        guard write(1, welcomed, welcomed.count) == welcomed.count else { return 1 }
        _ = readLine()
        for index in 0..<lines { try peer.send("PRIVMSG \(arguments[1]) :\(floodLine(index))") }
        try peer.send("QUIT")
        _ = try? peer.pending(wait: 5)
        return 0
    }
}
