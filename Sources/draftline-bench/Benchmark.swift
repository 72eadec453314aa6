import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Glibc

/// The benchmark's commands, figures and targets.
enum Benchmark {
    static let usage = """
        usage: draftline-bench [--quick] [--scratch DIR] [--only chats|interop|bounds]
               draftline-bench populate DIR --messages N [--chats C]

        Without a command: fills scratch data directories at 1,000, 100,000 and 1,000,000
        messages (1,000 chats) and one chat of 100,000, and prints, for each, medians of a
        durable send, process start to first prompt, opening a chat with its last 20
        messages, and the peak memory of a start; then the fsync floor, the original
        design's UserDefaults save as a baseline; the live figures (delivery from one
        process's send to another's screen, idle CPU); /chats at 1,000 and 10,000 chats;
        import and export beside the original's synchronize(); /chats and a chat's title as
        whole processes at 1,000, 10,000 and 100,000 chats, and key echo and memory during a
        10 MB/s journal flood (bounds); and the targets. --quick uses sizes a hundred times
        smaller (a smoke run; its ratios mean little); --only runs one of the last three
        parts.

        populate: fills DIR (a draftline data directory) with N generated messages spread
        over C chats (default 1,000; users user0001...), with the chats' users as contacts,
        for manual QA: draftline --data-dir DIR.
        """

    static func main(arguments: [String]) -> Int32 {
        do {
            if arguments.first == "populate" { return try populate(Array(arguments.dropFirst())) }
            if arguments.first == "interop" { return try interopChild(Array(arguments.dropFirst())) }
            if arguments.first == "flood" { return try flood(Array(arguments.dropFirst())) }
            if arguments.first == "baseline", arguments.count == 3, let messages = Int(arguments[2]) {
                // Run by `run` in a child process whose XDG_CONFIG_HOME is the scratch suite's
                // directory: Foundation reads that variable once, at start.
                let result = try measureBaseline(config: arguments[1], messages: messages)
                print("\(result.save) \(result.start)")
                return 0
            }
            var quick = false
            var only: String?
            var scratch = NSTemporaryDirectory() + "/draftline-bench-\(getpid())"
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--quick": quick = true
                case "--scratch": scratch = rest.popFirst() ?? scratch
                case "--only": only = rest.popFirst()
                case "--help", "-h":
                    print(usage)
                    return 0
                default:
                    print("draftline-bench: unknown argument '\(argument)'\n\(usage)")
                    return 64
                }
            }
            if only != nil {
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            }
            defer { if only != nil { try? FileManager.default.removeItem(atPath: scratch) } }
            switch only {
            case nil: try run(quick: quick, scratch: scratch)
            case "chats": try runChatList(quick: quick, scratch: scratch)
            case "interop": try runInterop(quick: quick, scratch: scratch)
            case "bounds": try runBounds(quick: quick, scratch: scratch)
            default:
                print("draftline-bench: --only takes chats, interop or bounds\n\(usage)")
                return 64
            }
            return 0
        } catch {
            print("draftline-bench: \(error)")
            return 1
        }
    }

    // MARK: - populate

    static func populate(_ arguments: [String]) throws -> Int32 {
        guard let directory = arguments.first else {
            print(usage)
            return 64
        }
        var messages = 0
        var chats = 1000
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst().flatMap(Int.init), value >= 0 else {
                print("draftline-bench: \(flag) needs a whole number")
                return 64
            }
            switch flag {
            case "--messages": messages = value
            case "--chats": chats = max(1, value)
            default:
                print("draftline-bench: unknown option '\(flag)'")
                return 64
            }
        }
        let seconds = try time { try fill(directory, messages: messages, chats: chats) }
        print("populated \(directory): \(messages) messages in \(chats) chats (\(format(seconds: seconds)))")
        return 0
    }

    /// Fills a data directory: `messages` spread evenly over `chats` chats, the chats'
    /// users as contacts. Files are written without syncing each, then synced once.
    static func fill(_ directory: String, messages: Int, chats: Int) throws {
        let history = try PropertyListHistory(directory: directory)
        var generator = MessageGenerator(seed: 42)
        var contacts: [Contact] = []
        var number = 0
        for index in 0..<chats {
            let key = try GlobalKey(validating: userName(index))
            contacts.append(Contact(key: key, name: "User \(index)"))
            let count = messages / chats + (index < messages % chats ? 1 : 0)
            let batch = (0..<count).map { _ in
                number += 1
                return generator.message(chat: key.rawValue, number: number)
            }
            try history.appendAll(
                batch, to: InputTarget.privateChat(key).chatID(as: .me), durable: false, announce: false)
        }
        try ContactBook.write(contacts, directory: directory)
        sync()
    }

    static func userName(_ index: Int) -> String {
        let digits = String(index)
        return "user" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - the run

    struct Row {
        var name: String
        var messages: Int
        var send: Double = 0
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
        var random = SeededGenerator(seed: 7)
        var generator = MessageGenerator(seed: 99)
        for _ in 0..<(openSamples / 10) {
            for (index, size) in sizes.enumerated() where size.chats > 0 {
                opens[index] += try measureOpens(sessions[index], chats: size.chats, count: 10, random: &random)
            }
        }
        for _ in 0..<(sendSamples / 10) {
            for (index, size) in sizes.enumerated() {
                sends[index] += try measureSends(
                    sessions[index], chats: max(size.chats, 1), hasContacts: size.messages > 0, count: 10,
                    random: &random, generator: &generator)
            }
        }
        print(pad("history", 22) + pad("send", 12) + pad("start", 12) + pad("open", 12) + "peak memory")
        var rows: [Row] = []
        for (index, size) in sizes.enumerated() {
            let row = Row(
                name: size.name, messages: size.messages, send: median(sends[index]), start: median(starts[index]),
                open: median(opens[index]), memory: median(memories[index]))
            rows.append(row)
            print(
                pad(row.name, 22) + pad(format(seconds: row.send), 12) + pad(format(seconds: row.start), 12)
                    + pad(size.chats == 0 ? "-" : format(seconds: row.open), 12)
                    + String(format: "%.1f MB", row.memory) + "   (filled in \(format(seconds: fillTimes[index])))")
        }

        let floor = try measureFloor(scratch)
        print("")
        print(
            "fsync floor: append + fsync \(format(seconds: floor.append)); durable replace of 2 KB \(format(seconds: floor.replace))"
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
        check("open", large.open / small.open, "× the \(small.name) figure", atMost: 1.5)
        print("    (at \(small.name) in 1,000 chats a chat holds 1 message, so opening it shows 1, not 20;")
        check("    open, 20 shown", large.open / smallIn50.open, "× the \(smallIn50.name) figure", atMost: 1.5)
        print("     with 20 shown on both sides, the figure compares like with like)")
        check("send", large.send / floor.replace, "× the durable-replace floor", atMost: 3)
        check("start-up peak memory", large.memory - empty.memory, "MB over an empty history", atMost: 10)
        check(
            "send at \(count(100_000 / scale))", baselineLarge / rows[3].send, "× faster than the baseline",
            atLeast: 1000)
        try runLive(quick: quick, small: (small.name, directories[1]), large: (large.name, directories[4]))
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
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("draftline").path
        let started = now()
        let terminal = try PseudoTerminal(
            executable: executable, arguments: ["--data-dir", directory],
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

    /// The times of `count` durable sends (stored, synced, directory synced) to a random chat.
    static func measureSends(
        _ session: Frontend, chats: Int, hasContacts: Bool, count: Int, random: inout SeededGenerator,
        generator: inout MessageGenerator
    ) throws -> [Double] {
        let user = hasContacts ? userName(Int.random(in: 0..<chats, using: &random)) : "alice"
        session.handle(.line("/open \(user)"))
        defer { session.handle(.line("/back")) }
        var times: [Double] = []
        for _ in 0..<count {
            let text = generator.content()
            var output: [OutputLine] = []
            times.append(time { output = session.handle(.line(text)).lines })
            guard output.first?.kind == .info else { throw BenchmarkError("send failed: \(output)") }
        }
        return times
    }

    // MARK: - floor and baseline

    /// The durable-write floor of this disk, with plain POSIX calls: appending ~300 bytes
    /// and `fsync`; writing a 2 KB temporary file, `fsync`, `rename`, directory `fsync`.
    static func measureFloor(_ scratch: String) throws -> (append: Double, replace: Double) {
        let directory = scratch + "/floor"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let record = [UInt8](repeating: 0x61, count: 300)
        let block = [UInt8](repeating: 0x62, count: 2048)
        let log = open(directory + "/log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var appends: [Double] = []
        var replaces: [Double] = []
        for index in 0..<200 {
            appends.append(
                time {
                    _ = write(log, record, record.count); fsync(log)
                })
            replaces.append(
                time {
                    let temporary = directory + "/t\(index)"
                    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                    _ = write(fd, block, block.count)
                    fsync(fd)
                    close(fd)
                    rename(temporary, directory + "/target")
                    let dir = open(directory, O_RDONLY | O_DIRECTORY)
                    fsync(dir)
                    close(dir)
                })
        }
        close(log)
        return (median(appends), median(replaces))
    }

    /// Runs ``measureBaseline(config:messages:)`` in a child process with its own
    /// `XDG_CONFIG_HOME`.
    static func measureBaselineInChild(_ scratch: String, messages: Int) throws -> (save: Double, start: Double) {
        let config = "\(scratch)/defaults-\(messages)"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let figures = try child(["baseline", config, String(messages)], environment: ["XDG_CONFIG_HOME": config])
        return (figures.0, figures.1)
    }

    /// The original design: every chat in one UserDefaults property list, `save()` reads
    /// the chat's array, appends, sets it and synchronizes. Returns the median save and
    /// the time to load the suite and read one chat (its start-up). `XDG_CONFIG_HOME` must
    /// be `config` in this process's environment.
    static func measureBaseline(config: String, messages: Int) throws -> (save: Double, start: Double) {
        let suite = "draftline-baseline"
        guard ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] == config else {
            throw BenchmarkError("run the baseline with XDG_CONFIG_HOME=\(config)")
        }
        var generator = MessageGenerator(seed: 42)
        var all: [String: [Message]] = [:]
        for number in 0..<messages {
            let chat = userName(number % 1000)
            all[chat, default: []].append(generator.message(chat: chat, number: number))
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        try encoder.encode(all).write(to: URL(fileURLWithPath: "\(config)/\(suite).plist"))
        var defaults: UserDefaults?
        let start = time {
            defaults = UserDefaults(suiteName: suite)
            _ = defaults?.array(forKey: userName(0))
        }
        guard let defaults, defaults.array(forKey: userName(0))?.count == all[userName(0)]?.count else {
            throw BenchmarkError("UserDefaults did not read the baseline suite in \(config)")
        }
        var saves: [Double] = []
        let samples = messages >= 100_000 ? 3 : 10
        for index in 0..<samples {
            let message = generator.message(chat: userName(index), number: messages + index)
            saves.append(
                time {
                    var array = defaults.array(forKey: message.chatID) as? [[String: Any]] ?? []
                    array.append(message.dictionary)
                    defaults.set(array, forKey: message.chatID)
                    defaults.synchronize()
                })
        }
        return (median(saves), start)
    }

    // MARK: - helpers

    static func check(_ what: String, _ value: Double, _ unit: String, atMost limit: Double) {
        let verdict = value <= limit ? "met" : "MISSED"
        print(
            "  " + pad(what, 24) + pad(String(format: "%.2f", value) + " " + unit, 44) + "(at most \(limit)) \(verdict)"
        )
    }

    static func check(_ what: String, _ value: Double, _ unit: String, atLeast limit: Double) {
        let verdict = value >= limit ? "met" : "MISSED"
        print(
            "  " + pad(what, 24) + pad(String(format: "%.0f", value) + " " + unit, 44)
                + "(at least \(Int(limit))) \(verdict)")
    }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 0.001 { return String(format: "%.2f ms", seconds * 1000) }
        return String(format: "%.0f µs", seconds * 1e6)
    }

    static func count(_ number: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: number)) ?? String(number)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
