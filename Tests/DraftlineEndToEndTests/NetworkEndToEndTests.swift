import DraftKit
import DraftlineTestSupport
import Foundation
import IRCFixtures
import ProgramDriver
import Testing

/// draftline on a real chat server (`--server`, SPEC §6): two draftlines on two data
/// directories through InspIRCd and ngircd, started by the test on free loopback ports.
/// Each side's history is read back with Python's `plistlib`.
@Suite("draftline through a real IRC server", .serialized)
struct NetworkEndToEndTests {
    static let text = "hello bob 你好世界 👩‍👩‍👧"

    func arguments(_ fixture: Fixture, _ server: IRCServer, as key: String) -> [String] {
        ["--data-dir", fixture.dataDirectory, "--server", "irc://127.0.0.1:\(server.port)", "--as", key]
    }

    /// A draftline on a pipe, left running while the test does something else.
    func start(_ fixture: Fixture, _ arguments: [String]) throws -> PipedProcess {
        try PipedProcess(executable: Fixture.executable, arguments: arguments, environment: fixture.environment())
    }

    @Test("A message each way between two draftlines, stored once on each side", arguments: IRCServer.Kind.allCases)
    func aMessageEachWay(kind: IRCServer.Kind) throws {
        let server = try IRCServer(kind)
        let alice = try Fixture()
        let bob = try Fixture()
        let bobs = try start(bob, arguments(bob, server, as: "bob") + ["--strict"])
        try bobs.waitFor("connected to irc://127.0.0.1:\(server.port) as bob")
        let alices = try start(alice, arguments(alice, server, as: "alice") + ["--strict"])
        try alices.waitFor("connected to irc://127.0.0.1:\(server.port) as alice")
        try alices.write(
            "/open bob\n\(Self.text)\n/expect last-message \"\(Self.text)\" from alice\n"
                + "/wait total 2 15\n/expect last-message \"and to you\" from bob\n/quit\n")
        try bobs.write(
            "/open alice\n/wait total 1 15\n/expect last-message \"\(Self.text)\" from alice\n"
                + "and to you\n/expect last-message \"and to you\" from bob\n/quit\n")
        #expect(try bobs.waitForExit(timeout: 30) == .exited(0), "\(bobs.text)")
        #expect(try alices.waitForExit(timeout: 30) == .exited(0), "\(alices.text)")
        #expect(try alice.messages(in: "alice+bob").map(\.content) == [Self.text, "and to you"])
        #expect(try alice.messages(in: "alice+bob").map(\.sender) == ["alice", "bob"])
        #expect(try bob.messages(in: "alice+bob").map(\.content) == [Self.text, "and to you"])
        #expect(try bob.messages(in: "alice+bob").map(\.sender) == ["alice", "bob"])
    }

    @Test("Anyone on the server can be written to, not only the contacts here")
    func anyoneOnTheServerCanBeWrittenTo() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let dana = try Fixture()
        let danas = try start(dana, arguments(dana, server, as: "dana9") + ["--strict"])
        try danas.waitFor("connected to irc://127.0.0.1:\(server.port) as dana9")
        let alices = try start(alice, arguments(alice, server, as: "alice") + ["--strict"])
        try alices.waitFor("connected to irc://127.0.0.1:\(server.port) as alice")
        // dana9 is no contact of alice's, and has no history with her yet.
        try danas.write("/open alice\n/wait total 1 15\nhi alice\n/quit\n")
        try alices.write(
            "/open dana9\nhi dana\n/expect last-message \"hi dana\" from alice\n/wait total 2 15\n"
                + "/expect last-message \"hi alice\" from dana9\n/quit\n")
        #expect(try alices.waitForExit(timeout: 30) == .exited(0), "\(alices.text)")
        #expect(try danas.waitForExit(timeout: 30) == .exited(0), "\(danas.text)")
        #expect(try alice.messages(in: "alice+dana9").map(\.content) == ["hi dana", "hi alice"])
        #expect(try dana.messages(in: "alice+dana9").map(\.content) == ["hi dana", "hi alice"])
    }

    @Test("A send nobody can receive goes to the undo stack with its error line, and nothing is stored")
    func aSendToNobodyIsNotSent() throws {
        let server = try IRCServer(.inspircd)
        let alice = try Fixture()
        let result = try alice.runPiped(
            "/open carol\nhi carol\n/expect undo-top \"hi carol\"\n/expect messages 0\n",
            arguments: arguments(alice, server, as: "alice"), timeout: 60)
        // Status 3: a message could not be sent; its text is not lost.
        #expect(result.status == 3, "\(result.output)\(result.error)")
        #expect(
            result.error.contains(
                "message not sent (nobody called carol is on the server): 'hi carol' is on the undo stack"),
            "\(result.output)\(result.error)")
        #expect(try alice.messages(in: "alice+carol").isEmpty)
    }

    @Test("A server that cannot be used is one line and status 2")
    func aServerThatCannotBeUsedIsOneLine() throws {
        let server = try IRCServer(.ngircd)
        let fixture = try Fixture()
        let bob = try start(fixture, arguments(fixture, server, as: "bob"))
        try bob.waitFor("as bob")
        let closed = try LoopbackPort.free()
        let cases: [(arguments: [String], says: String)] = [
            (["--server", "http://127.0.0.1", "--as", "alice"], "--server takes irc://HOST[:PORT]"),
            (["--server", "irc://127.0.0.1:99999", "--as", "alice"], "its port is not a number"),
            (["--server", "irc://127.0.0.1:\(closed)", "--as", "alice"], "Connection refused"),
            (["--server", "irc://127.0.0.1:\(server.port)", "--as", "bob"], "is in use on the server"),
            (["--server-ca", "/x.pem"], "--server-ca goes with --server"),
        ]
        for (extra, says) in cases {
            let other = try Fixture()
            let result = try other.runPiped(
                "/quit\n", arguments: ["--data-dir", other.dataDirectory] + extra, timeout: 30)
            #expect(result.status == 2, "\(extra): \(result.error)")
            #expect(result.error.contains(says), "\(extra): \(result.error)")
            // One line says what is wrong (a usage error adds where the usage is).
            #expect(result.error.split(separator: "\n").filter { $0.hasPrefix("draftline: ") }.count == 1, "\(extra)")
        }
        try bob.write("/quit\n")
        _ = try bob.waitForExit(timeout: 20)
    }
}
