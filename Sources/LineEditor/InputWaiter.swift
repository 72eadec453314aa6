import Glibc

/// The one place draftline waits: for a key on standard input, a signal, a descriptor
/// that something else makes readable (the history feed), or a time, whichever comes
/// first.
///
/// The line editor's key reading, `/wait` and the tour's pause between keys all wait
/// here (`poll`), so each sees the same signals the same way: a signal a wait does not
/// handle (a resize while no line is shown) is kept for the next wait that does.
/// Keys come before the watched descriptor, so a flood on the descriptor never delays
/// the keyboard.
public final class InputWaiter {
    /// Signals, as the executable's handlers record them.
    public struct Signals: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// SIGINT: stop what is going on.
        public static let interrupt = Signals(rawValue: 1)
        /// SIGWINCH: the terminal changed size.
        public static let resize = Signals(rawValue: 2)
    }

    /// What ended a wait.
    public enum Wake: Equatable, Sendable {
        /// Standard input (or the given input descriptor) has bytes to read.
        case input
        /// These signals, all of them ones the caller handles.
        case signals(Signals)
        /// The watched descriptor is readable.
        case watched
        /// The time ran out.
        case timeout
        /// `poll` failed with this `errno`.
        case failed(Int32)
    }

    /// Readable when a signal arrived (the handlers write to a pipe); -1 for none.
    private let signalDescriptor: Int32
    private let takeSignals: () -> Signals
    /// Signals taken from the pipe that no wait has handed out yet.
    private var pending: Signals = []

    /// Between reads, where the interrupt key is a key like any other (the line editor
    /// keeps the terminal in its own mode): takes the keys typed ahead and says whether the
    /// interrupt key was among them, taking it out (`nil`: standard input ended). `reading`
    /// says standard input is readable; without it only the keys already taken are looked
    /// at. When set, a wait that handles ``Signals/interrupt`` but reads no input (`input`
    /// -1) watches standard input too, and the interrupt key ends it as SIGINT would; the
    /// other keys stay for the next read (the line editor acts on its suspend key at once).
    public var typedInterrupt: ((_ reading: Bool) -> Bool?)?

    /// A waiter that learns of signals through `descriptor`, emptied by `take`; without
    /// one it sees no signals.
    public init(signals: (descriptor: Int32, take: () -> Signals)? = nil) {
        signalDescriptor = signals?.descriptor ?? -1
        takeSignals = signals?.take ?? { [] }
    }

    /// Takes the signals that arrived and that `handling` names; the others stay pending.
    public func take(_ handling: Signals) -> Signals {
        pending.formUnion(takeSignals())
        let taken = pending.intersection(handling)
        pending.subtract(taken)
        return taken
    }

    /// Waits for the first of: a signal in `handling`, bytes on `input` (none when -1), the
    /// `watched` descriptor readable, `timeout` seconds (`nil`: no limit). When several are
    /// ready at once, that is their order. The interrupt key typed ahead counts as SIGINT
    /// when `input` is -1 (``typedInterrupt``).
    ///
    /// Wraps `poll`, restarted when a signal interrupts it.
    public func wait(input: Int32 = 0, handling: Signals, watched: Int32 = -1, timeout: Double? = nil) -> Wake {
        let deadline = timeout.map { Self.now() + max(0, $0) }
        var typedKeys = input < 0 && handling.contains(.interrupt) ? typedInterrupt : nil
        if typedKeys?(false) == true { return .signals(.interrupt) }
        while true {
            let signals = take(handling)
            if !signals.isEmpty { return .signals(signals) }
            var descriptors = [
                pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: typedKeys == nil ? input : 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watched, events: Int16(POLLIN), revents: 0),
            ]
            var milliseconds: Int32 = -1
            if let deadline {
                milliseconds = Int32(min(max(0, ((deadline - Self.now()) * 1000).rounded(.up)), 86_400_000))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if descriptors[0].revents != 0 { continue }  // the pipe: look at the signals again
            if descriptors[1].revents != 0, let keys = typedKeys {
                switch keys(true) {
                case true?: return .signals(.interrupt)
                case false?: continue
                case nil: typedKeys = nil  // standard input ended: no key will come
                }
                continue
            }
            if descriptors[1].revents != 0 { return .input }
            if descriptors[2].revents != 0 { return .watched }
            if let deadline, Self.now() >= deadline { return .timeout }
        }
    }

    /// Seconds on the monotonic clock (`SuspendingClock`: `CLOCK_MONOTONIC` on Linux).
    public static func now() -> Double { (SuspendingClock.now - SuspendingClock().systemEpoch) / .seconds(1) }
}
