import Foundation
import Glibc

/// The disk's durable-write floor, measured with plain POSIX calls.
extension Benchmark {
    /// The durable-write floor of this disk, with plain POSIX calls: appending ~300 bytes
    /// and `fsync`; writing a 2 KB temporary file, `fsync`, `rename`, directory `fsync`.
    /// Each figure is a median, with the median CPU time (user + system) of the same calls.
    static func measureFloor(
        _ scratch: String
    ) throws -> (append: Double, appendCPU: Double, replace: Double, replaceCPU: Double) {
        let directory = scratch + "/floor"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let record = [UInt8](repeating: 0x61, count: 300)
        let block = [UInt8](repeating: 0x62, count: 2048)
        let log = open(directory + "/log", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var appends: [(wall: Double, cpu: Double)] = []
        var replaces: [(wall: Double, cpu: Double)] = []
        for index in 0..<200 {
            appends.append(
                timeWithCPU {
                    _ = write(log, record, record.count); fsync(log)
                })
            replaces.append(
                timeWithCPU {
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
        return (
            median(appends.map(\.wall)), median(appends.map(\.cpu)), median(replaces.map(\.wall)),
            median(replaces.map(\.cpu))
        )
    }
}
