import Foundation

/// What the child costs.
extension PseudoTerminal {
    /// The child's peak resident memory so far, in KiB: `VmHWM` from `/proc/<pid>/status`.
    ///
    /// (Not `ru_maxrss` from `wait4`: Linux carries that across `execve`, so a child
    /// spawned by a large parent reports the parent's size.)
    public var peakMemoryKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
