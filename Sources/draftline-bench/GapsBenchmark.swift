import DraftKit
import Foundation
import Glibc
import ProgramDriver

/// Issue 30, item 6: empty segments in the gaps. A chat whose one real segment is followed
/// by 10, 2,000 and 4,000 empty ones (every other number): `/open` steps back past them to
/// its messages. Whole processes on a pipe (start, `/open alice`, `/quit`), median of 21
/// taken round-robin, after a first open that removes some of the empty segments (timed
/// apart; a read removes at most a bounded number, so the next few remove the rest and the
/// slowest later open is printed too); the issue measured 8 s at 2,000 and 33 s at 4,000.
extension Benchmark {
    static func runGaps(quick: Bool, scratch: String) throws {
        let counts = quick ? [10, 500] : [10, 2_000, 4_000]
        let input = scratch + "/gaps-open.txt"
        try Data("/open alice\n/quit\n".utf8).write(to: URL(fileURLWithPath: input))
        var directories: [String] = []
        var first: [Double] = []
        for count in counts {
            let directory = "\(scratch)/gaps-\(count)"
            try emptySegmentsInTheGaps(directory, count: count)
            // The first open removes empty segments it steps back past (a bounded number).
            first.append(try timeProcess(directory, input: input))
            let check = try ProgramRun.run(
                draftline, arguments: ["--data-dir", directory], environment: benchEnvironment(directory),
                input: Data("/open alice\n/quit\n".utf8), timeout: 120)
            let output = String(decoding: check.output, as: UTF8.self)
            guard check.status == 0, output.contains("gap message 2") else {
                throw BenchmarkError("/open alice behind \(count) empty segments showed: \(output.prefix(300))")
            }
            directories.append(directory)
        }
        var samples = Array(repeating: [Double](), count: directories.count)
        for _ in 0..<21 {
            for (index, directory) in directories.enumerated() {
                samples[index].append(try timeProcess(directory, input: input))
            }
        }
        print("")
        print("/open behind empty segments in the gaps as whole processes (start, /open alice, /quit; median of 21):")
        print(pad("", 32) + pad("later opens", 16) + pad("the slowest", 16) + "the first (removes some)")
        for (index, count) in counts.enumerated() {
            print(
                pad("\(Self.count(count)) empty segments", 32) + pad(format(seconds: median(samples[index])), 16)
                    + pad(format(seconds: samples[index].max() ?? 0), 16) + format(seconds: first[index]))
        }
        print("")
        print("empty segments targets:")
        for index in 1..<counts.count {
            check(
                "/open behind \(Self.count(counts[index]))", median(samples[index]) / median(samples[0]),
                "× the \(counts[0])-segment figure", atMost: 1.5)
        }
        for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// A data directory where `alice`'s chat holds three messages in its first segment,
    /// then `count` empty segments numbered 2, 4, … (as draftline writes an empty one).
    static func emptySegmentsInTheGaps(_ directory: String, count: Int) throws {
        let history = try PropertyListHistory(directory: directory)
        guard let alice = ChatID("alice") else { throw BenchmarkError("no chat alice") }
        try history.appendAll(
            (0..<3).map { Message(chatID: "alice", messageID: "gap-\($0)", content: "gap message \($0)") }, to: alice,
            durable: false, announce: false)
        let empty = PropertyListReaders.segmentBytes([])
        for number in stride(from: 2, through: 2 * count, by: 2) {
            try empty.write(
                to: URL(fileURLWithPath: directory + "/chats/alice/" + String(format: "%08d.plist", number)))
        }
        sync()
    }
}
