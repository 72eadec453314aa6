import Foundation
import Glibc

/// Runs a program on a fresh pseudo-terminal and talks to it as a person at a keyboard
/// would: keystrokes in, bytes of the screen out.
///
/// The child is spawned as a session leader with the terminal as its controlling
/// terminal (so Ctrl-C reaches it). Every wait has a deadline; at the deadline the child
/// is killed and a ``Failure`` carries what the screen showed.
public final class PseudoTerminal {
    /// The child's process ID.
    public let pid: pid_t
    /// Every byte the child has written so far.
    public private(set) var output: [UInt8] = []
    /// How far ``waitFor(_:timeout:)`` has read: each match is consumed once.
    public private(set) var consumed = 0

    private let master: Int32
    private var exitStatus: Termination?
    /// The terminal's settings before the child started (`tcgetattr`).
    public let initialAttributes: termios

    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)

        /// How a child ended, from its `waitpid` status.
        public init(waitStatus raw: Int32) {
            self = raw & 0x7F == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(raw & 0x7F)
        }
    }

    /// A wait that ran out of time, or a child that could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// Starts `executable` on a new 24×80 pseudo-terminal.
    ///
    /// `configure` may change the terminal's settings before the child starts, as
    /// `stty` would in the user's shell.
    public init(
        executable: String, arguments: [String], environment: [String: String], rows: UInt16 = 24,
        columns: UInt16 = 80, configure: ((inout termios) -> Void)? = nil
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw Failure(description: "openpty: \(String(cString: strerror(errno)))")
        }
        defer { close(slave) }
        // ttyname_r, not ttyname: ttyname's static buffer is shared by every thread, and
        // tests start terminals in parallel.
        var name = [CChar](repeating: 0, count: 256)
        guard ttyname_r(slave, &name, name.count) == 0 else {
            close(master)
            throw Failure(description: "ttyname_r failed")
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.master = master
        var initial = termios()
        tcgetattr(slave, &initial)
        if let configure {
            configure(&initial)
            tcsetattr(slave, TCSANOW, &initial)
        }
        tcgetattr(master, &initial)
        initialAttributes = initial
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        do {
            pid = try Spawn.start(
                executable, arguments: arguments, environment: environment, standard: .terminal(path: slavePath))
        } catch {
            close(master)
            throw error
        }
    }

    deinit {
        if exitStatus == nil { Spawn.kill(pid) }
        close(master)
    }

    /// Types these keys.
    public func send(_ keys: String) throws { try send(bytes: Array(keys.utf8)) }

    /// Types these bytes, reading what the child writes meanwhile: a child that echoes a
    /// long paste would otherwise block on a full terminal while we block writing to it.
    /// Fails when the terminal takes nothing for 10 seconds or the write fails.
    public func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: master, events: Int16(POLLIN | POLLOUT), revents: 0)
            let ready = poll(&poller, 1, 10_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                throw fail(
                    "could not type \(bytes.count - offset) of \(bytes.count) bytes: the terminal took none for 10 s")
            }
            if poller.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n > 0 { output.append(contentsOf: buffer[0..<n]) }
            }
            if poller.revents & Int16(POLLOUT) != 0 {
                let chunk = min(bytes.count - offset, 1024)
                let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, chunk) }
                if n < 0 && errno != EINTR && errno != EAGAIN {
                    throw fail("typing failed: \(String(cString: strerror(errno)))")
                }
                if n > 0 { offset += n }
            }
        }
    }

    /// Changes the terminal's size (`TIOCSWINSZ`); the child gets SIGWINCH.
    public func resize(rows: UInt16, columns: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// The output as text, escape sequences and all.
    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Waits until `expected` appears in the output after what earlier waits consumed,
    /// and consumes it. Returns the text between the previous point and the match.
    ///
    /// Fails after `timeout` seconds; or, with `idle`, as soon as the child has written
    /// nothing for `idle` seconds (a stall), however long it has been working before.
    @discardableResult
    public func waitFor(_ expected: String, timeout: Double = 10, idle: Double? = nil) throws -> String {
        let needle = Array(expected.utf8)
        let deadline = Self.now() + timeout
        var lastOutput = Self.now()
        while true {
            if let range = Self.find(needle, in: output, from: consumed) {
                let before = String(decoding: output[consumed..<range.lowerBound], as: UTF8.self)
                consumed = range.upperBound
                return before
            }
            let limit = idle.map { min(deadline, lastOutput + $0) } ?? deadline
            if try pump(until: limit) {
                lastOutput = Self.now()
            } else if Self.now() >= limit {
                let why =
                    idle != nil && limit < deadline ? "no output for \(idle!) s (a stall)" : "not within \(timeout) s"
                throw fail("'\(expected)' did not appear: \(why)")
            }
        }
    }

    /// Waits until one of `expected` appears after what earlier waits consumed (the first
    /// to appear wins), and consumes it: its index and the text before it. Returns `nil`
    /// when the child exits first.
    public func waitForAny(_ expected: [String], timeout: Double = 10) throws -> (index: Int, before: String)? {
        let needles = expected.map { Array($0.utf8) }
        let deadline = Self.now() + timeout
        while true {
            let found = needles.enumerated().compactMap { index, needle in
                Self.find(needle, in: output, from: consumed).map { (index, $0) }
            }.min { $0.1.lowerBound < $1.1.lowerBound }
            if let (index, range) = found {
                let before = String(decoding: output[consumed..<range.lowerBound], as: UTF8.self)
                consumed = range.upperBound
                return (index, before)
            }
            if exitStatus == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    while try pump(until: Self.now() + 0.05) {}
                    exitStatus = Termination(waitStatus: status)
                    continue
                }
            } else {
                return nil  // it ended, and none of them came
            }
            guard Self.now() < deadline else {
                throw fail("none of \(expected.map(\.debugDescription)) appeared within \(timeout) s")
            }
            _ = try pump(until: min(deadline, Self.now() + 0.05))
        }
    }

    /// Waits for this prompt to appear, then for the terminal to enter raw mode: only then
    /// does the line editor read keys. (libedit writes the prompt before switching modes.)
    @discardableResult
    public func waitForPrompt(_ prompt: String, timeout: Double = 10, idle: Double? = nil) throws -> String {
        let before = try waitFor(prompt, timeout: timeout, idle: idle)
        try waitForRawMode(timeout: timeout)
        return before
    }

    /// Waits until the terminal is in raw mode: the line editor is reading keys.
    public func waitForRawMode(timeout: Double = 10) throws { try waitUntil(canonical: false, timeout) }

    /// Waits until the terminal is in canonical mode: no line editor is reading keys.
    public func waitForCookedMode(timeout: Double = 10) throws { try waitUntil(canonical: true, timeout) }

    private func waitUntil(canonical: Bool, _ timeout: Double) throws {
        let deadline = Self.now() + timeout
        while isCanonical != canonical {
            guard try pump(until: min(deadline, Self.now() + 0.01)) || Self.now() < deadline else {
                throw fail(canonical ? "the terminal did not leave raw mode" : "the terminal did not enter raw mode")
            }
        }
    }

    /// The terminal's settings now (`tcgetattr`).
    public var attributes: termios {
        var attributes = termios()
        tcgetattr(master, &attributes)
        return attributes
    }

    /// Whether two sets of terminal settings are the same: flags, control characters and
    /// speeds.
    public static func same(_ a: termios, _ b: termios) -> Bool {
        var a = a
        var b = b
        return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
            && withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
            && cfgetispeed(&a) == cfgetispeed(&b) && cfgetospeed(&a) == cfgetospeed(&b)
    }

    /// Whether the terminal is in canonical (cooked) mode (`tcgetattr`).
    public var isCanonical: Bool {
        var attributes = termios()
        guard tcgetattr(master, &attributes) == 0 else { return false }
        return attributes.c_lflag & tcflag_t(ICANON) != 0
    }

    /// Waits for the child to end, reading what it writes meanwhile.
    @discardableResult
    public func waitForExit(timeout: Double = 10) throws -> Termination {
        if let exitStatus { return exitStatus }
        let deadline = Self.now() + timeout
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                while try pump(until: Self.now() + 0.05) {}
                let termination = Termination(waitStatus: status)
                exitStatus = termination
                return termination
            }
            if Self.now() >= deadline { throw fail("the program did not exit within \(timeout) s") }
            _ = try pump(until: min(deadline, Self.now() + 0.05))
        }
    }

    /// Waits (reading what it writes) until the child is stopped (Ctrl-Z, SIGTSTP); false
    /// when it is not within `timeout` seconds.
    public func waitUntilStopped(timeout: Double = 10) throws -> Bool {
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG | WUNTRACED) == pid && status & 0xFF == 0x7F { return true }
            _ = try pump(until: min(deadline, Self.now() + 0.02))
        }
        return false
    }

    /// Sends a signal to the child.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Seconds on the monotonic clock (`SuspendingClock`: `CLOCK_MONOTONIC` on Linux):
    /// deadlines do not move when the wall clock does.
    public static func now() -> Double { (SuspendingClock.now - SuspendingClock().systemEpoch) / .seconds(1) }

    /// Reads what is available until the deadline; returns whether anything came.
    private func pump(until deadline: Double) throws -> Bool {
        let remaining = max(0, deadline - Self.now())
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(remaining * 1000))
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        guard n > 0 else {
            // EIO: the child closed the terminal. Nothing more will come.
            if Self.now() < deadline { usleep(UInt32(min(remaining, 0.01) * 1_000_000)) }
            return false
        }
        output.append(contentsOf: buffer[0..<n])
        return true
    }

    private func fail(_ reason: String) -> Failure {
        if exitStatus == nil { exitStatus = Spawn.kill(pid) }
        let tail = String(decoding: output.suffix(1500), as: UTF8.self)
        return Failure(description: "\(reason). Last output:\n\(tail.debugDescription)")
    }

    /// Where `needle` first appears in `haystack` at or after `start`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count - start >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }
}
