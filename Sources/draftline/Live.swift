import CTerminalSignals
import DraftKit
import DraftlineREPL
import Foundation
import Glibc

/// The other side, wired: what other processes and the demo peers store reaches the
/// screen through the console, above the edit line while one is read.
final class Live {
    let frontend: Frontend
    let feed: any HistoryFeed

    init(frontend: Frontend, feed: any HistoryFeed) {
        self.frontend = frontend
        self.feed = feed
    }

    /// Seconds until something is due that no descriptor announces: a demo peer's answer,
    /// or the next look at a feed that has no descriptor; `nil` when nothing is.
    var timeout: Double? {
        var seconds = frontend.session.peers?.secondsToNextAnswer
        if feed.descriptor < 0 { seconds = min(seconds ?? .infinity, HistoryFeedPolling.interval) }
        return seconds
    }

    /// Stores the peers' due answers (unless `answering` is off) and shows what arrived;
    /// returns how many messages.
    @discardableResult
    func check(answering: Bool = true) -> Int {
        let (lines, arrived) = frontend.receive(from: feed, answering: answering)
        Console.show(lines)
        return arrived
    }

    /// `/wait`: shows arrivals as they come until `count` messages have arrived that no
    /// earlier wait counted, or `seconds` have passed, or an interrupt (Ctrl-C on a
    /// terminal) ends it; then the session's word on it. Returns whether every message came.
    @discardableResult
    func wait(count: Int, seconds: Double, interruptible: Bool) -> Bool {
        let start = ProcessInfo.processInfo.systemUptime
        let session = frontend.session
        check()
        var interrupted = false
        while session.arrivalsNotWaitedFor < count {
            let remaining = seconds - (ProcessInfo.processInfo.systemUptime - start)
            guard remaining > 0 else { break }
            var watched = [
                pollfd(fd: feed.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(
                    fd: interruptible ? dl_interrupt_descriptor() : -1, events: Int16(POLLIN), revents: 0),
            ]
            let wake = min(remaining, timeout ?? remaining)
            let ready = poll(&watched, 2, Int32(min((wake * 1000).rounded(.up), 3_600_000)))
            if ready < 0 && errno != EINTR { break }
            if watched[1].revents != 0 && dl_take_signals() & Int32(DL_SIGNAL_INTERRUPT) != 0 {
                interrupted = true
                break
            }
            check()
        }
        let complete = session.arrivalsNotWaitedFor >= count
        Console.show(
            frontend.lines(for: session.endWait(wanted: count, seconds: seconds, interrupted: interrupted)))
        return complete
    }
}
