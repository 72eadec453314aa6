import Foundation
import Glibc

/// A program on pipes that a test talks to line by line: what it is given on standard
/// input arrives when the test writes it, and what it prints is read as it comes, so a
/// test can wait for one thing before doing the next (two processes taking turns).
///
/// Standard output and standard error share one pipe, in the order written. Every wait
/// has a deadline; at the deadline the child is killed and a failure says what it printed.
public final class PipedProcess {
    /// The child's process ID.
    public let pid: pid_t
    /// Everything the child has printed so far.
    public private(set) var output: [UInt8] = []
    /// How far ``waitFor(_:timeout:)`` has read.
    private var consumed = 0
    private var input: Int32
    private let outputPipe: Int32
    private var status: PseudoTerminal.Termination?

    /// Starts `executable` with pipes for its standard streams.
    public init(executable: String, arguments: [String], environment: [String: String]) throws {
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else {
            throw PseudoTerminal.Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // The test's ends must not leak into the child (or into other tests' children).
        for descriptor in inPipe + outPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let child: pid_t
        do {
            child = try Spawn.start(
                executable, arguments: arguments, environment: environment,
                standard: .descriptors([inPipe[0], outPipe[1], outPipe[1]]))
        } catch {
            (inPipe + outPipe).forEach { close($0) }
            throw error
        }
        close(inPipe[0])
        close(outPipe[1])
        pid = child
        input = inPipe[1]
        outputPipe = outPipe[0]
        _ = fcntl(outputPipe, F_SETFL, fcntl(outputPipe, F_GETFL) | O_NONBLOCK)
        ignoreBrokenPipes
    }

    deinit {
        if status == nil { Spawn.kill(pid) }
        if input >= 0 { close(input) }
        close(outputPipe)
    }

    /// Writes text to the child's standard input.
    public func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw fail("writing to the child failed: \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Closes the child's standard input: the end of its input.
    public func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits until `expected` appears in what the child printed after what earlier waits
    /// consumed, and consumes it; returns what came before it.
    @discardableResult
    public func waitFor(_ expected: String, timeout: Double = 20) throws -> String {
        let needle = Array(expected.utf8)
        let deadline = PseudoTerminal.now() + timeout
        while true {
            if let range = PseudoTerminal.find(needle, in: output, from: consumed) {
                let before = String(decoding: output[consumed..<range.lowerBound], as: UTF8.self)
                consumed = range.upperBound
                return before
            }
            guard PseudoTerminal.now() < deadline else {
                throw fail("'\(expected)' did not appear within \(timeout) s")
            }
            pump(until: deadline)
        }
    }

    /// Waits for the child to end, reading what it prints meanwhile.
    public func waitForExit(timeout: Double = 20) throws -> PseudoTerminal.Termination {
        let deadline = PseudoTerminal.now() + timeout
        while true {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                while pump(until: PseudoTerminal.now() + 0.05) {}
                let ended = PseudoTerminal.Termination(waitStatus: raw)
                status = ended
                return ended
            }
            guard PseudoTerminal.now() < deadline else { throw fail("the program did not exit within \(timeout) s") }
            pump(until: min(deadline, PseudoTerminal.now() + 0.05))
        }
    }

    /// Everything printed, as text.
    public var text: String { String(decoding: output, as: UTF8.self) }

    @discardableResult
    private func pump(until deadline: Double) -> Bool {
        var poller = pollfd(fd: outputPipe, events: Int16(POLLIN), revents: 0)
        let wait = max(0, deadline - PseudoTerminal.now())
        guard poll(&poller, 1, Int32(wait * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(outputPipe, $0.baseAddress, $0.count) }
        guard count > 0 else {
            if count == 0 { usleep(10_000) }  // the write end is closed: nothing more comes
            return false
        }
        output.append(contentsOf: buffer[0..<count])
        return true
    }

    private func fail(_ reason: String) -> PseudoTerminal.Failure {
        if status == nil { status = Spawn.kill(pid) }
        return PseudoTerminal.Failure(description: "\(reason). Output:\n\(text.suffix(1500).debugDescription)")
    }
}
