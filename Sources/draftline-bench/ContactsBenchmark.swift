import DraftKit
import Foundation
import Glibc
import ProgramDriver

/// Issue 30, item 9: many contacts as whole processes. draftline starts on a pipe, runs
/// `/open alice` (which needs the contacts) and `/quit`, with 10,000, 100,000 and
/// 1,000,000 contacts in a binary and an XML `contacts.plist` (and XML at 500,000, the most
/// that fits the 64 MiB limit): the first start (which builds `contacts.index`), later starts
/// (which read it) and starts where the index cannot be written (a directory in its place).
extension Benchmark {
    static func runContacts(quick: Bool, scratch: String) throws {
        let cases: [(form: PropertyListSerialization.PropertyListFormat, count: Int)] =
            quick
            ? [(.binary, 1_000), (.binary, 10_000), (.xml, 1_000), (.xml, 10_000)]
            : [
                (.binary, 10_000), (.binary, 100_000), (.binary, 1_000_000), (.xml, 10_000), (.xml, 100_000),
                (.xml, 500_000), (.xml, 1_000_000),
            ]
        let input = scratch + "/contacts-open.txt"
        try Data("/open alice\n/quit\n".utf8).write(to: URL(fileURLWithPath: input))
        let errors = scratch + "/contacts-errors.txt"
        print("")
        print(
            "many contacts as whole processes (start, /open alice, /quit; pipe): first start (contacts.index built, "
                + "median of \(quick ? 3 : 5)), later starts (index read, median of 21), index not writable (median of 3):"
        )
        print(
            pad("contacts", 12) + pad("format", 8) + pad("file", 11) + pad("first start", 26) + pad("later starts", 22)
                + pad("index not writable", 26) + "Tab (100 names)")
        var later: [String: [Double]] = [:]
        var tab: [String: [Double]] = [:]
        var firstAtLimit: ProcessCost?
        for (form, count) in cases {
            let name = form == .binary ? "binary" : "XML"
            let directory = "\(scratch)/contacts-\(name)-\(count)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let file = directory + "/contacts.plist"
            try contactsFile(count: count, format: form).write(to: URL(fileURLWithPath: file))
            let bytes = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let row =
                pad(Self.count(count), 12) + pad(name, 8) + pad(String(format: "%.1f MB", Double(bytes) / 1e6), 11)
            if bytes > 64 << 20 {
                let refused = try (0..<3).map { _ in try measuredProcess(directory, input: input, errors: errors) }
                let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                print(
                    row + "refused in \(format(seconds: median(refused.map(\.seconds)))), "
                        + "\(Int(refused.map(\.peakMegabytes).max() ?? 0)) MB: " + said.prefix(90) + "…")
                try? FileManager.default.removeItem(atPath: directory)
                continue
            }
            var firsts: [ProcessCost] = []
            for _ in 0..<(quick ? 3 : 5) {
                try? FileManager.default.removeItem(atPath: directory + "/contacts.index")
                firsts.append(try measuredProcess(directory, input: input))
            }
            let laters = try (0..<21).map { _ in try measuredProcess(directory, input: input) }
            let tabs = try tabLatencies(directory, count: count)
            try? FileManager.default.removeItem(atPath: directory + "/contacts.index")
            try FileManager.default.createDirectory(
                atPath: directory + "/contacts.index/in-the-way", withIntermediateDirectories: true)
            let blocked = try (0..<3).map { _ in try measuredProcess(directory, input: input, errors: errors) }
            let warned = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains(
                "contacts.index cannot be written")
            try FileManager.default.removeItem(atPath: directory + "/contacts.index")
            let first = ProcessCost(
                seconds: median(firsts.map(\.seconds)), cpu: median(firsts.map(\.cpu)),
                peakMegabytes: firsts.map(\.peakMegabytes).max() ?? 0)
            print(
                row
                    + pad(
                        "\(format(seconds: first.seconds)) (CPU \(format(seconds: first.cpu))), "
                            + "\(Int(first.peakMegabytes)) MB", 26)
                    + pad(
                        "\(format(seconds: median(laters.map(\.seconds)))), "
                            + "\(Int(laters.map(\.peakMegabytes).max() ?? 0)) MB", 22)
                    + pad(
                        "\(format(seconds: median(blocked.map(\.seconds)))), \(warned ? "one warning" : "NO WARNING")",
                        26)
                    + "median \(format(seconds: median(tabs))), max \(format(seconds: tabs.max() ?? 0))")
            later[name, default: []].append(median(laters.map(\.seconds)))
            tab[name, default: []].append(median(tabs))
            if form == .binary { firstAtLimit = first }
            try FileManager.default.removeItem(atPath: directory)
        }
        print("")
        print("contacts targets:")
        for name in ["binary", "XML"] {
            guard let figures = later[name], let smallest = figures.first, let largest = figures.last else { continue }
            check("later start, \(name)", largest / smallest, "× the smallest file's", atMost: 1.5)
            if let tabs = tab[name], let first = tabs.first, let last = tabs.last {
                check("Tab, \(name)", last / first, "× the smallest file's", atMost: 1.5)
            }
        }
        if let first = firstAtLimit {
            check("first start, largest binary", first.cpu, "s of CPU", atMost: 2)
            check("its peak memory", first.peakMegabytes, "MB", atMost: 192)
        }
    }

    /// Seconds from Tab after `/open u` and five digits (100 contacts start so) to the next
    /// key's echo, 21 presses on a pseudo-terminal with the index built: a press costs the
    /// names it offers, whatever the number of contacts.
    static func tabLatencies(_ directory: String, count: Int) throws -> [Double] {
        let terminal = try PseudoTerminal(
            executable: draftline, arguments: ["--data-dir", directory], environment: benchEnvironment(directory))
        try terminal.waitForPrompt("draftline> ", timeout: 120)
        // Capitals: no key, name or prompt holds them, so an echo is never taken for a list.
        let markers = Array("BCDFGHJKLMNPQRSTVWXYZ")
        var latencies: [Double] = []
        for press in 0..<21 {
            let digits = String(press * 7_919 % max(1, count / 100))
            let prefix = "u" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
            try terminal.send("\u{15}/open \(prefix)")
            try terminal.waitFor(prefix, timeout: 30)
            let marker = String(markers[press % markers.count])
            let pressed = now()
            try terminal.send("\t" + marker)
            try terminal.waitFor(marker, timeout: 120)
            latencies.append(now() - pressed)
        }
        try terminal.send("\u{15}/quit\r")
        try terminal.waitForExit(timeout: 30)
        return latencies
    }

    /// A `contacts.plist` of `count` contacts, `u0000000`… named `User <n>`, in an order
    /// that is not the keys' (the n-th entry is contact n × 7,919 modulo `count`), as
    /// Foundation writes it.
    static func contactsFile(count: Int, format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        let entries = (0..<count).map { index -> [String: String] in
            let number = index * 7_919 % count
            let digits = String(number)
            let key = "u" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
            return ["global_key": key, "name": "User \(number)"]
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        return try encoder.encode(entries)
    }
}
