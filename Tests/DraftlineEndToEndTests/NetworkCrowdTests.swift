import DraftlineTestSupport
import Foundation
import IRCFixtures
import ProgramDriver
import Testing

/// Fifty draftlines over two linked servers (SPEC §6: "servers link into networks, so two
/// classrooms on two servers talk as one"): each on a pipe and a data directory of its own,
/// half on each of two linked InspIRCd servers, each sending twenty messages; every message
/// must be in its sender's and its recipient's histories exactly once, and nowhere else, as
/// Python's `plistlib` reads the data directories.
extension NetworkEndToEndTests {
    static let crowd = 50
    static let messagesEach = 20

    /// Whom the `k`th message of draftline `i` goes to: its partner on the other server for
    /// an even `k`, the next draftline (on either server) for an odd one.
    static func recipient(of i: Int, _ k: Int) -> Int { k % 2 == 0 ? (i + crowd / 2) % crowd : (i + 1) % crowd }

    static func nick(_ i: Int) -> String { String(format: "p%02d", i) }

    /// The text of the `k`th message of draftline `i`.
    static func text(_ i: Int, _ k: Int) -> String { "\(nick(i)) #\(k) to \(nick(recipient(of: i, k))) 你好 👋" }

    /// Each chat's messages, as `sender: text` in the order stored, by chat, by data
    /// directory: every segment of every chat read by `plistlib` in one run.
    func storedLines(_ fixtures: [Fixture]) throws -> [[String: [String]]] {
        let script = """
            import json, os, plistlib, re, sys
            result = []
            for data in sys.argv[1:]:
                chats = {}
                folder = os.path.join(data, "chats")
                for chat in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                    lines = []
                    for name in sorted(os.listdir(os.path.join(folder, chat))):
                        if re.fullmatch(r"\\d{8}\\.plist", name):
                            with open(os.path.join(folder, chat, name), "rb") as f:
                                lines += ["%s: %s" % (m["sender"], m["content"]) for m in plistlib.load(f)]
                    chats[chat] = lines
                result.append(chats)
            json.dump(result, sys.stdout)
            """
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script] + fixtures.map(\.dataDirectory),
            environment: fixtures[0].environment(), timeout: 60)
        guard result.status == 0,
            let read = try JSONSerialization.jsonObject(with: result.output) as? [[String: [String]]]
        else {
            throw PseudoTerminal.Failure(description: "plistlib: \(String(decoding: result.error, as: UTF8.self))")
        }
        return read
    }

    @Test("Fifty draftlines over two linked servers, twenty messages each: each in the right histories exactly once")
    func fiftyOverTwoLinkedServers() throws {
        let (a, b) = try IRCServer.linkedPair(.inspircd)
        let indices = 0..<Self.crowd
        let server = { (i: Int) in i < Self.crowd / 2 ? a : b }
        let fixtures = try indices.map { _ in try Fixture() }
        let processes = try indices.map { i in
            try start(fixtures[i], arguments(fixtures[i], server(i), as: Self.nick(i)) + ["--strict"])
        }
        for i in indices { try processes[i].waitFor("as \(Self.nick(i))\n", timeout: 30) }
        // Everyone is known on both servers before anyone writes (a nick not there yet is a 401).
        for (watched, name) in [(a, "watcha"), (b, "watchb")] {
            let watcher = try RawIRCPeer(port: watched.port, nick: name)
            let deadline = PseudoTerminal.now() + 10
            while true {
                try watcher.send("ISON " + indices.map(Self.nick).joined(separator: " "))
                let online = try watcher.waitFor { $0.contains(" 303 ") }
                if online.split(separator: ":").last?.split(separator: " ").count == Self.crowd { break }
                guard PseudoTerminal.now() < deadline else { throw PseudoTerminal.Failure(description: online) }
            }
        }
        for i in indices {
            var script = ""
            for k in 0..<Self.messagesEach {
                script += "/open \(Self.nick(Self.recipient(of: i, k)))\n\(Self.text(i, k))\n"
            }
            // Then until what the others send is here: 10 from the one before, 10 from the partner.
            let partner = Self.nick((i + Self.crowd / 2) % Self.crowd)
            let before = Self.nick((i + Self.crowd - 1) % Self.crowd)
            script += "/open \(before)\n/wait total 10 90\n/open \(partner)\n/wait total 20 90\n/quit\n"
            try processes[i].write(script)
        }
        for i in indices {
            let ended = try processes[i].waitForExit(timeout: 150)
            #expect(ended == .exited(0), "\(Self.nick(i)): \(processes[i].text.suffix(800))")
        }
        let stored = try storedLines(fixtures)
        for i in indices {
            var expected: [String: [String]] = [:]
            for sender in indices {
                for k in 0..<Self.messagesEach {
                    let to = Self.recipient(of: sender, k)
                    guard sender == i || to == i else { continue }
                    expected[[Self.nick(sender), Self.nick(to)].sorted().joined(separator: "+"), default: []].append(
                        "\(Self.nick(sender)): \(Self.text(sender, k))")
                }
            }
            let got = stored[i]
            // Exactly once each, in no chat but its own; each sender's in the order sent.
            #expect(got.mapValues { $0.sorted() } == expected.mapValues { $0.sorted() }, "\(Self.nick(i)): \(got)")
            for (chat, lines) in got {
                for sender in chat.split(separator: "+") {
                    let own = lines.filter { $0.hasPrefix("\(sender): ") }
                    #expect(own == expected[chat, default: []].filter { $0.hasPrefix("\(sender): ") }, "\(chat)")
                }
            }
        }
    }
}
