import DraftKit
import Foundation
import Glibc

/// The benchmark's commands, figures and targets.
enum Benchmark {
    static let usage = """
        usage: draftline-bench [--quick] [--scratch DIR] [--only chats|interop|bounds|hostile|network]
               draftline-bench populate DIR --messages N [--chats C]

        Without a command: fills scratch data directories at 1,000, 100,000 and 1,000,000
        messages (1,000 chats) and one chat of 100,000, and prints, for each, medians of a
        durable send, process start to first prompt, opening a chat with its last 20
        messages, and the peak memory of a start; then the fsync floor, the original
        design's UserDefaults save as a baseline; the live figures (delivery from one
        process's send to another's screen, idle CPU); through a local InspIRCd, delivery
        from one draftline's terminal to another's screen beside two raw socket clients, key
        echo during a flood of 10,000 lines and idle CPU (network); /chats at 1,000 and 10,000 chats;
        import and export beside the original's synchronize(); /chats and a chat's title as
        whole processes at 1,000, 10,000 and 100,000 chats, key echo and memory during a
        10 MB/s journal flood, the first and later starts with 10,000 to 1,000,000 contacts
        (binary and XML), /open behind 2,000 and 4,000 empty segments, and key echo while
        journal records point into a 50 MB segment whose times keep changing (bounds); and
        the targets. --quick uses sizes a hundred times
        smaller (a smoke run; its ratios mean little); --only runs network or one of the last
        three parts, or (hostile) only bounds' issue 30 figures: contacts, empty segments, records.

        populate: fills DIR (a draftline data directory) with N generated messages spread
        over C chats (default 1,000; users user0001...), with the chats' users as contacts,
        for manual QA: draftline --data-dir DIR.
        """

    static func main(arguments: [String]) -> Int32 {
        do {
            if arguments.first == "populate" { return try populate(Array(arguments.dropFirst())) }
            if arguments.first == "interop" { return try interopChild(Array(arguments.dropFirst())) }
            if arguments.first == "ircflood" { return try ircFlood(Array(arguments.dropFirst())) }
            if arguments.first == "flood" { return try flood(Array(arguments.dropFirst())) }
            if arguments.first == "records" { return try records(Array(arguments.dropFirst())) }
            if arguments.first == "cost" { return try cost(Array(arguments.dropFirst())) }
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
            case "hostile": try runHostile(quick: quick, scratch: scratch)
            case "network": try runNetwork(quick: quick, scratch: scratch)
            default:
                print("draftline-bench: --only takes chats, interop, bounds, hostile or network\n\(usage)")
                return 64
            }
            return 0
        } catch {
            print("draftline-bench: \(error)")
            return 1
        }
    }
}

/// A benchmark step that did not do what it measures.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
