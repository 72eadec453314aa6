import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// `--demo` beside a person who is really there: a demo peer never stores a message in the
/// name of an identity a draftline runs, or ran, as on the same data directory.
@Suite("Demo peers and real people, through the real binary")
struct DemoPeerEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// The demo side: opens `peer`, sends `text`, and waits up to `seconds` for an answer.
    func demo(sending text: String, to peer: String, seconds: Int = 2) throws -> (status: Int32, output: String) {
        let run = try fixture.runPiped(
            "/open \(peer)\n\(text)\n/wait 1 \(seconds)\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--demo", "--demo-delay", "0.2"], timeout: 30)
        return (run.status, run.output)
    }

    @Test func theDemoNeverAnswersForAPersonWhoseDraftlineRuns() throws {
        let bob = try fixture.startTerminal(["--as", "bob"], environment: ["NO_COLOR": "1"])
        try bob.waitForPrompt("draftline> ")
        try bob.open("me")
        let demo = try demo(sending: "half a reply to bob", to: "bob")
        try bob.waitFor("me: half a reply to bob")
        try bob.send("this one bob typed\r")
        try bob.waitFor("you: this one bob typed\r\n")
        #expect(try bob.quit() == .exited(0))
        let stored = try fixture.messages(in: "bob")
        #expect(stored.map(\.sender) == ["me", "bob"], "\(stored.map(\.content))")
        #expect(stored.map(\.content) == ["half a reply to bob", "this one bob typed"])
        let notice = "a draftline runs as bob on this data directory: the demo no longer answers as bob"
        #expect(demo.output.components(separatedBy: notice).count == 2, "\(demo.output)")
    }

    @Test func aPersonWhoUsedTheDirectoryBeforeIsNotSpokenForAndOthersStillAnswerMarked() throws {
        let bob = try fixture.runPiped("/quit\n", arguments: ["--data-dir", fixture.dataDirectory, "--as", "bob"])
        #expect(bob.status == 0)
        let silent = try demo(sending: "anyone there?", to: "bob")
        #expect(
            silent.output.contains(
                "a draftline ran as bob on this data directory before: the demo no longer answers as bob"),
            "\(silent.output)")
        #expect(try fixture.messages(in: "bob").map(\.sender) == ["me"])
        // alice never ran here: she still answers, and her reply says it is the demo's.
        let answered = try demo(sending: "hello alice", to: "alice", seconds: 10)
        #expect(answered.output.contains("alice: got it"), "\(answered.output)")
        let alice = try fixture.messages(in: "alice")
        #expect(alice.map(\.sender) == ["me", "alice"])
        #expect(
            alice.map { $0.messageID.hasSuffix(DemoPeers.replyMark) } == [false, true], "\(alice.map(\.messageID))")
    }
}
