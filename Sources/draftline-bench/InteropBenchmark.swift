import DraftKit
import DraftlineREPL
import Foundation
import Glibc

/// The chat list at 1,000 and 10,000 chats, and import and export beside the original
/// design's one `synchronize()` of the same data.
extension Benchmark {
    /// `/chats` timings, in process: the default list (20 chats) over each directory,
    /// round-robin, `runs` times each; then one `/chats all` each, for scale.
    static func runChatList(quick: Bool, scratch: String) throws {
        let scale = quick ? 100 : 1
        let sizes = [(1000 / scale, 100_000 / scale), (10_000 / scale, 100_000 / scale)]
        var directories: [String] = []
        for (index, size) in sizes.enumerated() {
            let directory = "\(scratch)/chats-\(index)"
            try fill(directory, messages: size.1, chats: size.0)
            directories.append(directory)
        }
        let sessions = directories.map { directory in
            Frontend(
                Session(
                    contacts: ContactBook.load(directory: directory),
                    history: try! PropertyListHistory(directory: directory)))
        }
        let runs = 31
        func size(_ index: Int) -> Int { sizes[index].0 }
        var times = Array(repeating: [Double](), count: sizes.count)
        for _ in 0..<runs {
            for index in sizes.indices {
                var lines: [OutputLine] = []
                times[index].append(time { lines = sessions[index].handle(.line("/chats")).lines })
                guard lines.count == min(size(index), 20) + (size(index) >= 20 ? 1 : 0),
                    lines.allSatisfy({ $0.kind == .info })
                else {
                    throw BenchmarkError("/chats showed \(lines.count) lines: \(lines.prefix(3))")
                }
            }
        }
        // The store's part alone: the index read and the shown chats' last segments.
        var storeTimes = Array(repeating: [Double](), count: sizes.count)
        for _ in 0..<runs {
            for index in sizes.indices {
                storeTimes[index].append(
                    try time { _ = try sessions[index].session.history.recentChats(limit: 20, where: { _ in true }) })
            }
        }
        var all: [Double] = []
        for index in sizes.indices { all.append(time { sessions[index].handle(.line("/chats all")) }) }
        print("")
        print("chat list: /chats (the 20 most recent), in process, median of \(runs) runs; /chats all once")
        for (index, size) in sizes.enumerated() {
            print(
                pad("\(count(size.1)) in \(count(size.0)) chats", 36) + "/chats "
                    + pad(format(seconds: median(times[index])), 12)
                    + pad("(store \(format(seconds: median(storeTimes[index]))))", 20) + "/chats all "
                    + format(seconds: all[index]))
        }
        print("")
        print("chat list target:")
        check(
            "/chats", median(times[1]) / median(times[0]),
            "× the \(count(sizes[0].0))-chat figure at \(count(sizes[1].0))",
            atMost: 2)
    }

    /// Import and export of `messages` messages (1,000 chats), each in a child process
    /// (time, and peak memory from its own `VmHWM`), beside the original design's one
    /// `synchronize()` of the same data in a child of its own.
    static func runInterop(quick: Bool, scratch: String) throws {
        let messages = quick ? 1000 : 100_000
        let config = "\(scratch)/interop-defaults"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let baseline = try child(
            ["interop", "baseline", config, String(messages)], environment: ["XDG_CONFIG_HOME": config])
        // The domain's file as XML and as binary, the two forms an import meets.
        let suite = "\(config)/draftline-interop.plist"
        let plist = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: URL(fileURLWithPath: suite)), format: nil)
        let forms: [(name: String, format: PropertyListSerialization.PropertyListFormat)] = [
            ("xml", .xml), ("binary", .binary),
        ]
        for form in forms {
            try PropertyListSerialization.data(fromPropertyList: plist, format: form.format, options: 0).write(
                to: URL(fileURLWithPath: "\(scratch)/interop.\(form.name).plist"))
        }
        let fromXML = try child(["interop", "import", "\(scratch)/interop.xml.plist", "\(scratch)/interop-xml"])
        let fromBinary = try child(["interop", "import", "\(scratch)/interop.binary.plist", "\(scratch)/interop-data"])
        let exported = try child(["interop", "export", "\(scratch)/interop-data", "\(scratch)/interop-export.plist"])
        print("")
        print("import and export of \(count(messages)) messages in 1,000 chats (each in a child process; peak: VmHWM)")
        for (name, figures) in [
            ("original: one synchronize()", baseline), ("draftline import from XML", fromXML),
            ("draftline import from binary", fromBinary), ("draftline export", exported),
        ] {
            print(
                pad(name, 36) + "time " + pad(format(seconds: figures.seconds), 12)
                    + String(format: "peak %.1f MB", figures.megabytes))
            if !figures.detail.isEmpty { print(pad("", 36) + figures.detail.trimmingCharacters(in: .newlines)) }
        }
        print("")
        print("interop targets (beside the original's one synchronize()):")
        check("import from XML", fromXML.seconds / baseline.seconds, "× the synchronize", atMost: 0.5)
        check("import from binary", fromBinary.seconds / baseline.seconds, "× the synchronize", atMost: 0.25)
        check("export time", exported.seconds / baseline.seconds, "× the synchronize", atMost: 0.5)
        for (name, figures) in [("import from XML", fromXML), ("import from binary", fromBinary), ("export", exported)]
        {
            check("\(name) peak", figures.megabytes / baseline.megabytes, "× the synchronize's", atMost: 0.25)
        }
    }

    /// Runs this benchmark in a child process with `arguments`; it prints seconds and megabytes.
    static func child(
        _ arguments: [String], environment extra: [String: String] = [:]
    ) throws -> (
        seconds: Double, megabytes: Double, detail: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n", maxSplits: 1)
        let figures = (lines.first ?? "").split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, figures.count == 2 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) failed: \(output)")
        }
        return (figures[0], figures[1], lines.count > 1 ? String(lines[1]) : "")
    }

    /// The child's side: `interop baseline CONFIG N`, `interop import FILE DIR`,
    /// `interop export DIR FILE`; prints the seconds the work took and the peak memory, then
    /// where an import's time went.
    static func interopChild(_ arguments: [String]) throws -> Int32 {
        var seconds = 0.0
        var detail = ""
        switch (arguments.first, arguments.count) {
        case ("baseline", 3):
            guard let messages = Int(arguments[2]) else { return 64 }
            seconds = try synchronizeOnce(config: arguments[1], messages: messages)
        case ("import", 3):
            let history = try PropertyListHistory(directory: arguments[2])
            var summary: HistoryTransfer.ImportSummary?
            var parse = 0.0
            seconds = try time {
                var file: ChatLogFile?
                parse = try time { file = try ChatLogFile(contentsOf: arguments[1]) }
                if let file { summary = try HistoryTransfer(history: history).importChats(file) }
            }
            guard let summary, summary.added > 0 else { throw BenchmarkError("nothing imported from \(arguments[1])") }
            let spent = history.timings
            let store = seconds - parse
            let phases: [(String, Double)] = [
                ("directories", spent.directories), ("files", spent.create), ("encode", spent.encode),
                ("write", spent.write), ("rename", spent.rename), ("index", spent.announce), ("syncfs", spent.sync),
            ]
            let rest = store - phases.map(\.1).reduce(0, +)
            detail =
                "read and parse \(format(seconds: parse)); store \(format(seconds: store)): "
                + (phases + [("the rest (plan, look-ups)", rest)]).map { "\($0.0) \(format(seconds: $0.1))" }
                .joined(separator: ", ")
        case ("export", 3):
            let history = try PropertyListHistory(directory: arguments[1])
            let output = try OutputPath(arguments[2], dataDirectory: arguments[1])
            seconds = try time { _ = try HistoryTransfer(history: history).export(to: output) }
        default:
            return 64
        }
        print("\(seconds) \(peakMegabytes())")
        if !detail.isEmpty { print(detail) }
        return 0
    }

    /// The original design holding `messages` messages in its UserDefaults domain: one
    /// chat's array changed, then one `synchronize()`, timed. The domain's file is left
    /// for the import.
    static func synchronizeOnce(config: String, messages: Int) throws -> Double {
        let suite = "draftline-interop"
        var generator = MessageGenerator(seed: 42)
        var all: [String: [[String: Any]]] = [:]
        for number in 0..<messages {
            let chat = userName(number % 1000)
            all[chat, default: []].append(generator.message(chat: chat, number: number).dictionary)
        }
        let data = try PropertyListSerialization.data(fromPropertyList: all, format: .xml, options: 0)
        try data.write(to: URL(fileURLWithPath: "\(config)/\(suite).plist"))
        guard let defaults = UserDefaults(suiteName: suite), var first = defaults.array(forKey: userName(0)) else {
            throw BenchmarkError("UserDefaults did not read \(config)/\(suite).plist")
        }
        first.append(generator.message(chat: userName(0), number: messages).dictionary)
        defaults.set(first, forKey: userName(0))
        return time { defaults.synchronize() }
    }

    /// This process's peak resident memory, in MB (`VmHWM` in `/proc/self/status`).
    static func peakMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return kilobytes / 1024
    }
}
