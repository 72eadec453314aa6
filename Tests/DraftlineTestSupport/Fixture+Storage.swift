import DraftKit
import Foundation
import Glibc

/// Hand-made data directories: files written as another program (or an attacker) would,
/// without going through draftline.
extension Fixture {
    /// Writes `messages` as segment `number` of a chat (a binary property list, as
    /// draftline writes them), making the chat's directory when missing.
    public func writeSegment(_ messages: [Message], chat: String, number: Int, kind: String = "chats") throws {
        let directory = dataDirectory + "/" + kind + "/" + chat
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(messages).write(
            to: URL(fileURLWithPath: directory + "/" + String(format: "%08d.plist", number)))
    }

    /// Appends bytes to a file of the data directory, making it when missing.
    public func append(_ bytes: Data, to relative: String) throws {
        let path = dataDirectory + "/" + relative
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw PseudoTerminal.Failure(description: "cannot make \(path)")
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
    }

    /// A property list of arrays nested `depth` deep, as XML: what overflows a recursive
    /// reader's stack.
    public static func nestedXML(depth: Int) -> Data {
        Data(
            ("<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
                + String(repeating: "</array>", count: depth) + "</plist>").utf8)
    }
}

extension PipedProcess {
    /// The child's peak resident memory so far, in KiB (`VmHWM` of `/proc/<pid>/status`).
    public var peakMemoryKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// The CPU time the child has used so far, in seconds (`utime` and `stime` of
    /// `/proc/<pid>/stat`).
    public var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

extension HistoryFeed {
    /// Every slice the feed has now, taken until it says nothing more waits (at most
    /// 10,000 slices): what a loop that serves keys between slices shows in the end.
    public func takeAll() -> [Arrival] {
        var arrivals: [Arrival] = []
        for _ in 0..<10_000 {
            let slice = take()
            arrivals += slice.arrivals
            if !slice.hasMore { break }
        }
        return arrivals
    }
}
