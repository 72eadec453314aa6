import DraftKit
import DraftlineREPL
import Foundation
import Glibc
import ProgramDriver

/// The main run: a durable send, a start, an open and the peak memory at each history size.
extension Benchmark {
    struct Row {
        var name: String
        var messages: Int
        var send: Double = 0
        /// CPU time (user + system) of a send.
        var cpu: Double = 0
        var start: Double = 0
        var open: Double = 0
        var memory: Double = 0
    }

    static func run(quick: Bool, scratch: String) throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scale = quick ? 100 : 1
        let sizes: [(name: String, messages: Int, chats: Int)] = [
            ("empty", 0, 0),
            (count(1000 / scale), 1000 / scale, 1000 / scale),
            ("\(count(1000 / scale)) in 50 chats", 1000 / scale, 50),
            (count(100_000 / scale), 100_000 / scale, 1000 / scale),
            (count(1_000_000 / scale), 1_000_000 / scale, 1000 / scale),
            ("1 chat × \(count(100_000 / scale))", 100_000 / scale, 1),
        ]
        print("draftline-bench: segment capacity \(PropertyListHistory.defaultSegmentCapacity) messages")
        print("(medians, samples taken round-robin across sizes; send: durable, \(sendSamples) sends;")
        print(" start: \(startSamples) starts to the first prompt; open: /open with the last")
        print(" \(Session.openHistoryCount) messages, \(openSamples) opens; peak memory: VmHWM at the first prompt)")
        print("")
        // Fill every size first, then take the samples round-robin across sizes, so that
        // whatever else the machine does lands on all sizes alike.
        var directories: [String] = []
        var fillTimes: [Double] = []
        for (index, size) in sizes.enumerated() {
            let directory = "\(scratch)/data-\(index)"
            fillTimes.append(try time { try fill(directory, messages: size.messages, chats: max(size.chats, 1)) })
            if size.messages == 0 { try? FileManager.default.removeItem(atPath: directory + "/contacts.plist") }
            directories.append(directory)
        }
        var starts = Array(repeating: [Double](), count: sizes.count)
        var memories = Array(repeating: [Double](), count: sizes.count)
        for _ in 0..<startSamples {
            for index in sizes.indices {
                let (seconds, megabytes) = try measureStart(directories[index])
                starts[index].append(seconds)
                memories[index].append(megabytes)
            }
        }
        let sessions = sizes.indices.map { index in
            Frontend(
                Session(
                    contacts: ContactBook.load(directory: directories[index]),
                    history: try! PropertyListHistory(directory: directories[index])))
        }
        var opens = Array(repeating: [Double](), count: sizes.count)
        var sends = Array(repeating: [Double](), count: sizes.count)
        var cpus = Array(repeating: [Double](), count: sizes.count)
        var random = SeededGenerator(seed: 7)
        var generator = MessageGenerator(seed: 99)
        for _ in 0..<(openSamples / 10) {
            for (index, size) in sizes.enumerated() where size.chats > 0 {
                opens[index] += try measureOpens(sessions[index], chats: size.chats, count: 10, random: &random)
            }
        }
        let stores = sessions.map { $0.session.history as? PropertyListHistory }
        for store in stores { store?.timings.reset() }
        for _ in 0..<(sendSamples / 10) {
            for (index, size) in sizes.enumerated() {
                let measured = try measureSends(
                    sessions[index], chats: max(size.chats, 1), hasContacts: size.messages > 0, count: 10,
                    random: &random, generator: &generator)
                sends[index] += measured.map(\.wall)
                cpus[index] += measured.map(\.cpu)
            }
        }
        print(
            pad("history", 22) + pad("send", 12) + pad("send CPU", 12) + pad("start", 12) + pad("open", 12)
                + "peak memory")
        var rows: [Row] = []
        for (index, size) in sizes.enumerated() {
            let row = Row(
                name: size.name, messages: size.messages, send: median(sends[index]), cpu: median(cpus[index]),
                start: median(starts[index]),
                open: median(opens[index]), memory: median(memories[index]))
            rows.append(row)
            print(
                pad(row.name, 22) + pad(format(seconds: row.send), 12) + pad(format(seconds: row.cpu), 12)
                    + pad(format(seconds: row.start), 12)
                    + pad(size.chats == 0 ? "-" : format(seconds: row.open), 12)
                    + String(format: "%.1f MB", row.memory) + "   (filled in \(format(seconds: fillTimes[index])))")
        }

        printBreakdown(stores, sizes.map(\.name))
        let floor = try measureFloor(scratch)
        print("")
        print(
            "fsync floor: append + fsync \(format(seconds: floor.append)) (CPU \(format(seconds: floor.appendCPU)));"
                + " durable replace of 2 KB \(format(seconds: floor.replace)) (CPU \(format(seconds: floor.replaceCPU)))"
        )

        print("")
        print("baseline: the original design, UserDefaults save (read the chat's array, append, set, synchronize)")
        var baseline: [Int: Double] = [:]
        for messages in [1000 / scale, 10_000 / scale, 100_000 / scale] {
            let result = try measureBaselineInChild(scratch, messages: messages)
            baseline[messages] = result.save
            print(
                pad(count(messages), 22) + "save " + pad(format(seconds: result.save), 12) + "start "
                    + format(seconds: result.start))
        }

        let small = rows[1]
        let smallIn50 = rows[2]
        let large = rows[4]
        let empty = rows[0]
        let baselineLarge = baseline[100_000 / scale] ?? 0
        print("")
        print("targets at \(large.name) messages:")
        check("send", large.send / small.send, "× the \(small.name) figure", atMost: 1.5)
        check("start", large.start / small.start, "× the \(small.name) figure", atMost: 1.5)
        // Opening shows the last 20 messages: at 1,000 in 1,000 chats a chat holds one, so
        // the like-for-like figure is 1,000 in 50 chats (20 each); the other is shown alone.
        check("open, 20 shown", large.open / smallIn50.open, "× the \(smallIn50.name) figure", atMost: 1.5)
        print(
            "  " + pad("(open, 1 shown", 24) + String(format: "%.2f", large.open / small.open)
                + " × the \(small.name) figure, where a chat holds one: not a target)")
        for row in rows {
            check("send, \(row.name)", row.send / floor.replace, "× the durable-replace floor", atMost: 2)
        }
        for row in rows {
            check("send CPU, \(row.name)", row.cpu / floor.replaceCPU, "× the floor's CPU", atMost: 2)
        }
        check("start-up peak memory", large.memory - empty.memory, "MB over an empty history", atMost: 10)
        check(
            "send at \(count(100_000 / scale))", baselineLarge / rows[3].send, "× faster than the baseline",
            atLeast: 1000)
        try runLive(quick: quick, small: (small.name, directories[1]), large: (large.name, directories[4]))
        try runNetwork(quick: quick, scratch: scratch)
        try runChatList(quick: quick, scratch: scratch)
        try runInterop(quick: quick, scratch: scratch)
        try runBounds(quick: quick, scratch: scratch)
        if quick { print("(--quick: sizes are a hundredth of the real run; these ratios are not the targets')") }
    }

    static let sendSamples = 200
    static let startSamples = 21
    static let openSamples = 200

    /// One start: the time from spawning draftline on a pseudo-terminal to its first
    /// prompt with the terminal in raw mode, and its peak memory then (MB).
    static func measureStart(_ directory: String) throws -> (Double, Double) {
        let started = now()
        let terminal = try PseudoTerminal(
            executable: draftline, arguments: ["--data-dir", directory],
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm", "HOME": directory])
        try terminal.waitForPrompt("draftline> ", timeout: 30)
        let seconds = now() - started
        let megabytes = Double(terminal.peakMemoryKilobytes ?? 0) / 1024
        try terminal.send("/quit\r")
        try terminal.waitForExit(timeout: 30)
        return (seconds, megabytes)
    }

    /// The times of `count` opens (`/open`, showing the chat's last messages) of random chats.
    static func measureOpens(
        _ session: Frontend, chats: Int, count: Int, random: inout SeededGenerator
    ) throws -> [Double] {
        var times: [Double] = []
        for _ in 0..<count {
            let user = userName(Int.random(in: 0..<chats, using: &random))
            var output: [OutputLine] = []
            times.append(time { output = session.handle(.line("/open \(user)")).lines })
            guard output.first?.text.hasPrefix("── chat with") == true else {
                throw BenchmarkError("open failed: \(output)")
            }
            session.handle(.line("/back"))
        }
        return times
    }

    /// The times of `count` durable sends (stored and synced: acknowledged) to a random
    /// chat: wall-clock time, and the CPU time of this process (user + system) each took.
    static func measureSends(
        _ session: Frontend, chats: Int, hasContacts: Bool, count: Int, random: inout SeededGenerator,
        generator: inout MessageGenerator
    ) throws -> [(wall: Double, cpu: Double)] {
        let user = hasContacts ? userName(Int.random(in: 0..<chats, using: &random)) : "alice"
        session.handle(.line("/open \(user)"))
        defer { session.handle(.line("/back")) }
        var times: [(wall: Double, cpu: Double)] = []
        for _ in 0..<count {
            let text = generator.content()
            var output: [OutputLine] = []
            times.append(timeWithCPU { output = session.handle(.line(text)).lines })
            guard output.first?.kind == .info else { throw BenchmarkError("send failed: \(output)") }
        }
        return times
    }

    /// Where a send's time went, per send, at each size: the store's own figures
    /// (``AppendTimings``); what is left of the median is the session's part and the lock.
    static func printBreakdown(_ stores: [PropertyListHistory?], _ names: [String]) {
        print("")
        print("where a send's time goes (mean per send, in the store):")
        print(
            pad("history", 22) + pad("read", 9) + pad("decode", 9) + pad("encode", 9) + pad("write", 9)
                + pad("fsync", 9) + pad("rename", 9) + "journal+index")
        for (store, name) in zip(stores, names) {
            guard let timings = store?.timings, timings.appends > 0 else { continue }
            let each = Double(timings.appends)
            let figures = [timings.read, timings.decode, timings.encode, timings.write, timings.sync, timings.rename]
            print(
                pad(name, 22) + figures.map { pad(format(seconds: $0 / each), 9) }.joined()
                    + format(seconds: timings.announce / each))
        }
        print("(rename: a new segment's rename and directory sync, one send in 16; fsync: fdatasync of the append)")
    }
}
