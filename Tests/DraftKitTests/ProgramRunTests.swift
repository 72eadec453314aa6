import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// The harness that runs programs on pipes starts them as a shell would: no signal
/// blocked, whatever the test thread that starts them blocks.
@Suite("Programs run on pipes")
struct ProgramRunTests {
    /// A thread that blocks SIGCHLD (as a Dispatch worker blocks most signals) starts a
    /// shell: the shell has nothing blocked, so its `wait` for a background job returns (it
    /// waited for ever when SIGCHLD came blocked, the QA guide's two-party script). The
    /// mask is read by what the shell execs, so it is the shell's own: dash blocks every
    /// signal for a moment around running a command, and a `grep` of the shell's status
    /// from a child caught that moment once in a parallel run.
    @Test func aChildStartsWithNoSignalBlocked() throws {
        var blocked = sigset_t()
        var saved = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGCHLD)
        pthread_sigmask(SIG_BLOCK, &blocked, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "sleep 0.1 & wait $!; exec grep SigBlk /proc/self/status"], environment: [:],
            timeout: 20)
        #expect(result.status == 0)
        #expect(String(decoding: result.output, as: UTF8.self) == "SigBlk:\t0000000000000000\n")
    }

    /// A descriptor the test process has open without close-on-exec (a script another test
    /// is writing) does not go to the child: held there, it made that script's exec fail
    /// with "Text file busy".
    @Test func aChildGetsOnlyItsThreeStandardDescriptors() throws {
        let path = NSTemporaryDirectory() + "/program-run-\(getpid()).txt"
        let open = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(open >= 0)
        defer {
            close(open)
            unlink(path)
        }
        let result = try Fixture.run(
            "/bin/sh", arguments: ["-c", "ls /proc/$$/fd"], environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        let listed = String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(!listed.contains(Int(open)), "\(listed)")
        #expect(listed.filter { $0 > 2 }.count <= 1, "\(listed)")
    }
}
