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

    /// Arrays nested `depth` deep behind a processing instruction written `<?>`: Foundation
    /// reads `<?>` as a whole instruction inside an element, so it recurses into every
    /// array (issue 30, 1), while a scan that looks for the instruction's end after its `?`
    /// steps over them to the next `?>`.
    public static func instructionHiddenXML(depth: Int) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>alice</key><array><?>"
                + String(repeating: "<array>", count: depth) + "?></array></dict></plist>").utf8)
    }

    /// Arrays nested `depth` deep in XML written in UTF-16 (with its byte-order mark, which
    /// Foundation converts from): between the letters U+213C U+2D2D, whose bytes read
    /// `<!--`, and U+2D2D `>`, whose bytes read `-->`. A scan of the bytes as they are sees
    /// one comment where Foundation reads every array.
    public static func wideHiddenXML(depth: Int) -> Data {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist version=\"1.0\"><dict><key>alice</key><array>"
            + "<string>\u{213C}\u{2D2D}</string>" + String(repeating: "<array>", count: depth)
            + String(repeating: "</array>", count: depth) + "<string>\u{2D2D}></string></array></dict></plist>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return Data(bytes)
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
