import DraftlineTestSupport
import Foundation
import Testing

/// `/wait` in a script, with the other side in another process: every arrival not yet
/// waited for counts, whenever it came.
@Suite("Waiting on a pipe, two processes")
struct PipedWaitTests {
    @Test func aMessageThatArrivedBetweenTwoLinesIsCountedByTheNextWait() throws {
        let fixture = try Fixture()
        let bob = try fixture.startPiped(["--as", "bob", "--strict"])
        try bob.write("/open alice\n")
        try bob.waitFor("── chat with Alice Chen (alice) ──")
        // alice sends while bob's script is between two lines.
        let alice = try fixture.runPiped(
            "/open bob\nare you there?\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        #expect(alice.status == 0, "\(alice.error)")
        // bob's next line shows it; the /wait after that counts it.
        try bob.write("/drafts\n")
        try bob.waitFor("alice: are you there?")
        try bob.write("/wait 1 5\n")
        bob.closeInput()
        #expect(try bob.waitForExit() == .exited(0), "\(bob.text)")
        #expect(!bob.text.contains("0 of 1"), "\(bob.text)")
    }

    @Test func aWaitCountsEachArrivalOnce() throws {
        let fixture = try Fixture()
        let bob = try fixture.startPiped(["--as", "bob", "--strict"])
        try bob.write("/open alice\n")
        try bob.waitFor("── chat with Alice Chen (alice) ──")
        let alice = try fixture.runPiped(
            "/open bob\none\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        #expect(alice.status == 0, "\(alice.error)")
        try bob.write("/drafts\n")
        try bob.waitFor("alice: one")
        // The first wait takes the one arrival; the second has none left and times out.
        try bob.write("/wait 1 1\n/wait 1 0.2\n")
        bob.closeInput()
        #expect(try bob.waitForExit() == .exited(1), "\(bob.text)")
        #expect(bob.text.contains("waited 0.2 s: 0 of 1 message arrived"), "\(bob.text)")
    }
}
