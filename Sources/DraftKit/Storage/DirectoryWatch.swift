import Glibc

/// A descriptor that becomes readable when a file in a directory is written, created or
/// renamed into it (`inotify`, the only user of it). What changed is not kept: a reader
/// drains the events and looks for itself.
final class DirectoryWatch {
    /// Readable when there are events: the `inotify` instance.
    let descriptor: Int32

    /// Watches `directory` (by `/proc/self/fd/N`, not its path); `nil` when the kernel refuses.
    init?(directory: Directory) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        guard inotify_add_watch(fd, "/proc/self/fd/\(directory.descriptor.rawValue)", mask) >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Reads and drops every pending event (`read` until it would block).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
        }
    }
}
