import CEventPoll
import Glibc

/// One descriptor that becomes readable when the client has work: an `epoll` set over the
/// socket, a `timerfd` for the next deadline, and an `eventfd` that says "more is waiting"
/// (bytes TLS holds decrypted, lines not yet handled). It owns the three and closes them
/// in `deinit`. Each method wraps the C call its summary names.
///
/// A front end waits on ``descriptor`` beside the keyboard, as on the journal feed's.
final class Poller {
    /// The `epoll` descriptor: readable when the socket is ready, the deadline passed, or
    /// more is waiting.
    let descriptor: Int32
    private let timer: Int32
    private let more: Int32
    private var watched: (descriptor: Int32, events: UInt32)?

    /// Makes the three descriptors (`epoll_create1`, `timerfd_create`, `eventfd`).
    init() throws(ConnectionError) {
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw ConnectionError("epoll_create1", .system(errno)) }
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        more = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard timer >= 0, more >= 0 else {
            let code = errno
            close(descriptor)
            if timer >= 0 { close(timer) }
            if more >= 0 { close(more) }
            throw ConnectionError(timer < 0 ? "timerfd_create" : "eventfd", .system(code))
        }
        for own in [timer, more] { try control(EPOLL_CTL_ADD, own, events: UInt32(EPOLLIN.rawValue)) }
    }

    deinit {
        close(more)
        close(timer)
        close(descriptor)
    }

    /// Watches the socket for reading, and for writing when `writable` (`epoll_ctl`);
    /// `nil` stops watching it (before it is closed).
    func watch(_ socket: Int32?, writable: Bool = false) throws(ConnectionError) {
        let events = UInt32(EPOLLIN.rawValue) | (writable ? UInt32(EPOLLOUT.rawValue) : 0)
        if let watched, watched.descriptor != socket {
            try? control(EPOLL_CTL_DEL, watched.descriptor, events: 0)
            self.watched = nil
        }
        guard let socket else { return }
        if let watched, watched.events == events { return }
        try control(watched == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, events: events)
        watched = (socket, events)
    }

    /// Makes the descriptor readable at `deadline` on the monotonic clock, or never when
    /// `nil` (`timerfd_settime`, absolute).
    func wake(at deadline: Double?) {
        var setting = itimerspec()
        if let deadline {
            let clamped = max(deadline, 0.000_001)
            setting.it_value = timespec(tv_sec: Int(clamped), tv_nsec: Int((clamped - clamped.rounded(.down)) * 1e9))
        }
        _ = timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    /// Keeps the descriptor readable until ``settle()``: more is waiting (`write` on the
    /// `eventfd`).
    func signalMore() {
        var one: UInt64 = 1
        _ = write(more, &one, 8)
    }

    /// Clears what made the descriptor readable: the timer's expiries and the "more"
    /// count (`read` on both).
    func settle() {
        var count: UInt64 = 0
        _ = read(timer, &count, 8)
        _ = read(more, &count, 8)
    }

    /// Waits up to `timeout` seconds for the descriptor to become readable (`poll`): for a
    /// caller without a loop of its own (tests, a blocking quit).
    func wait(timeout: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(max(0, timeout) * 1000)) > 0
    }

    private func control(_ operation: Int32, _ target: Int32, events: UInt32) throws(ConnectionError) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: target))
        guard epoll_ctl(descriptor, operation, target, &event) == 0 else {
            throw ConnectionError("epoll_ctl", .system(errno))
        }
    }
}
