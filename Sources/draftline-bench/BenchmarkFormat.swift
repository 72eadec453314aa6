import Foundation
import Glibc
import ProgramDriver

/// Clocks, medians and the printed lines of every part of the benchmark.
extension Benchmark {
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

    static func now() -> Double { PseudoTerminal.now() }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// Seconds of CPU this process used so far (`CLOCK_PROCESS_CPUTIME_ID`: user + system).
    static func cpuNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The wall-clock time and the CPU time `body` took.
    static func timeWithCPU(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let cpu = cpuNow()
        let wall = now()
        try body()
        return (now() - wall, cpuNow() - cpu)
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
