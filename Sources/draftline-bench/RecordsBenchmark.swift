import DraftKit
import Foundation
import Glibc
import ProgramDriver

/// Issue 30, item 7: journal records over a big segment whose times keep changing. draftline
/// runs on a pseudo-terminal with a chat open; a third process touches another chat's segment
/// (a new modification and change time, so no reading of it can be reused) and writes a
/// journal record for one of its first five messages, 20 times a second, while this process
/// types a key every 50 ms and times each one's echo: with a segment of 200 small messages,
/// then with one of 200 messages of 250 KB (50 MB, the issue's: keys echoed after 4.2 s).
extension Benchmark {
    static func runRecords(quick: Bool, scratch: String) throws {
        let seconds = quick ? 3.0 : 10.0
        let rate = 20
        var results: [(label: String, latencies: [Double], peak: Int)] = []
        for (label, size) in [("200 messages of 100 bytes", 100), ("200 messages of 250 KB (50 MB)", 250_000)] {
            let directory = "\(scratch)/records-\(size)"
            try fill(directory, messages: 10, chats: 10)
            let messages = (0..<200).map { index in
                Message(
                    chatID: userName(1), messageID: "big-\(index)", content: String(repeating: "-", count: size),
                    sender: userName(1))
            }
            let segment = directory + "/chats/\(userName(1))/00000000.plist"
            try PropertyListReaders.segmentBytes(messages).write(to: URL(fileURLWithPath: segment))
            let terminal = try startInChat(directory, user: userName(0), watch: nil)
            let writer = try PipedProcess(
                executable: CommandLine.arguments[0],
                arguments: [
                    "records", segment, directory + "/live/journal", userName(1), String(seconds + 5), String(rate),
                ],
                environment: [:])
            // The first five records are new messages, announced; every later one repeats one.
            // The keys typed are capitals a notice never holds ("● User 1 (user0001): ---").
            try terminal.waitFor("5 unread", timeout: 60)
            let latencies = try echoLatencies(terminal, seconds: seconds, keys: Array("BCDFGHJKLMNPQRSTVWXYZ"))
            let peak = terminal.peakMemoryKilobytes ?? 0
            _ = try writer.waitForExit(timeout: 60)
            try terminal.send("\u{15}/quit\r")
            try terminal.waitForExit(timeout: 30)
            results.append((label, latencies, peak))
            try? FileManager.default.removeItem(atPath: directory)
        }
        print("")
        print(
            "journal records over a segment whose times keep changing (\(rate) a second from a third process, "
                + "each segment touched first) while a key is typed every 50 ms on a pseudo-terminal:")
        for result in results {
            print(
                pad(result.label, 34) + "key echo: median \(format(seconds: median(result.latencies))), "
                    + "p99 \(format(seconds: percentile(result.latencies, 0.99))) (\(result.latencies.count) keys); "
                    + "peak memory \(result.peak / 1024) MB")
        }
        print("")
        print("journal records targets:")
        let small = percentile(results[0].latencies, 0.99)
        let big = percentile(results[1].latencies, 0.99)
        check("key echo p99, 50 MB", big * 1000, "ms", atMost: 100)
        check("p99 against small messages", big / max(small, 0.001), "×", atMost: 3)
    }

    /// Types one of `keys` every 50 ms for `seconds` and times each one's echo (letters that
    /// nothing else on the screen holds, so an echo is never taken for a notice or a redraw;
    /// Ctrl-U every 50 keys keeps the line short).
    static func echoLatencies(_ terminal: PseudoTerminal, seconds: Double, keys: [Character]) throws -> [Double] {
        var latencies: [Double] = []
        let started = now()
        var index = 0
        while now() - started < seconds {
            let key = keys[index % keys.count]
            index += 1
            if index % 50 == 0 { try terminal.send("\u{15}") }
            let typed = now()
            try terminal.send(String(key))
            try terminal.waitFor(String(key), timeout: 30)
            latencies.append(now() - typed)
            let next = typed + 0.05
            if now() < next { usleep(useconds_t((next - now()) * 1_000_000)) }
        }
        return latencies
    }

    /// `draftline-bench records SEGMENT JOURNAL CHAT SECONDS RATE`: RATE times a second for
    /// SECONDS, sets SEGMENT's times to now (`utimensat`) and appends a journal record for
    /// message `n % 5` of CHAT's segment 0; prints how many it wrote.
    static func records(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 5, let seconds = Double(arguments[3]), let rate = Int(arguments[4]), rate > 0 else {
            return 64
        }
        let fd = open(arguments[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchmarkError("cannot open \(arguments[1])") }
        defer { close(fd) }
        let started = now()
        var written = 0
        while now() - started < seconds {
            guard utimensat(AT_FDCWD, arguments[0], nil, 0) == 0 else { throw BenchmarkError("utimensat failed") }
            let line = Array("c\t\(arguments[2])\t0\t\(written % 5)\t-\n".utf8)
            guard line.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == line.count else {
                throw BenchmarkError("write failed")
            }
            written += 1
            let next = started + Double(written) / Double(rate)
            if now() < next { usleep(useconds_t((next - now()) * 1_000_000)) }
        }
        print(written)
        return 0
    }
}
