import Glibc

/// A descriptor that becomes readable when a file in a directory is written, created or
/// renamed into it (Linux's `inotify`), or when its owner says more is waiting.
///
/// The only user of `inotify` in draftline. What changed is not kept: a reader drains
/// the events (``drain()``) and looks for itself. The ``descriptor`` given out keeps its
/// number; ``setPending(_:)`` points it (`dup2`) at an always-readable pipe while its
/// owner has more to deliver, and back at the `inotify` queue when it has caught up. Where
/// `inotify` is missing or out of watches, there is no watch and the caller asks at
/// intervals instead.
final class DirectoryWatch {
    /// Readable when there are events, or while work is pending.
    let descriptor: Int32
    /// The `inotify` instance.
    private let events: Int32
    /// A pipe's read end with a byte in it and its write end closed: always readable.
    private let ready: Int32
    private var pending = false

    /// Watches `directory` (`inotify_init1`, `inotify_add_watch` on `/proc/self/fd/N`, the
    /// directory opened, not its path), or `nil` when the kernel refuses.
    init?(directory: Directory) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        var ends: [Int32] = [-1, -1]
        guard inotify_add_watch(fd, "/proc/self/fd/\(directory.descriptor.rawValue)", mask) >= 0,
            pipe(&ends) == 0
        else {
            close(fd)
            return nil
        }
        var byte: UInt8 = 1
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard write(ends[1], &byte, 1) == 1, close(ends[1]) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, copy >= 0
        else {
            close(fd)
            close(ends[0])
            if copy >= 0 { close(copy) }
            return nil
        }
        events = fd
        ready = ends[0]
        descriptor = copy
    }

    deinit {
        close(descriptor)
        close(events)
        close(ready)
    }

    /// Reads and drops every pending event (`read` until it would block).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
        }
    }

    /// Keeps ``descriptor`` readable while `more` is set (`dup2` of the ready pipe onto
    /// it), else makes it the `inotify` queue again. A `dup2` that fails leaves the
    /// descriptor as it was: at worst the next slice waits for the next event.
    func setPending(_ more: Bool) {
        guard more != pending else { return }
        guard dup2(more ? ready : events, descriptor) == descriptor, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else {
            return
        }
        pending = more
    }
}
