import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import Testing

/// History survives kills, concurrent writers, damage and odd umasks, with the real binary.
@Suite("History durability, with the real binary")
struct DurabilityTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    /// Every message of a chat, read by Python's plistlib: a segment that does not parse,
    /// or a stray file in the chat's directory, fails.
    func decodeEverySegment(of chat: String) throws -> [Message] {
        try fixture.messages(in: chat)
    }

    /// Starts draftline on a pipe with all of `input` already written, so that the test
    /// never blocks on, or is signalled by, a pipe whose reader died.
    func startPiped(_ input: String) throws -> (process: Process, output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixture.executable)
        process.arguments = ["--data-dir", fixture.dataDirectory]
        process.environment = fixture.environment()
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        precondition(input.utf8.count < 60_000, "must fit in the pipe buffer")
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        try process.run()
        // The deadline: a child still running after a minute is killed, and its status shows it.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [weak process] in
            if process?.isRunning == true { kill(pid, SIGKILL) }
        }
        return (process, stdout.fileHandleForReading)
    }

    @Test func killDashNineAtFiftyRandomMomentsLosesNoAcknowledgedMessage() throws {
        var random = SeededGenerator(seed: 0x5EED)
        var acknowledged: Set<String> = []
        for round in 0..<50 {
            let lines = (0..<1500).map { "r\(round)-m\($0)" }
            let child = try startPiped("/open alice\n" + lines.joined(separator: "\n") + "\n")
            usleep(UInt32.random(in: 0...150_000, using: &random))
            kill(child.process.processIdentifier, SIGKILL)
            let output = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
            child.process.waitUntilExit()
            // A message is acknowledged when draftline shows it as sent.
            for line in output.split(separator: "\n") where line.hasPrefix("  you: ") {
                acknowledged.insert(String(line.dropFirst(7)))
            }
            // A kill between the pages of an append's one write leaves a torn end, which the
            // next read cuts off (the file as found moved aside): a start that opens the chat
            // does that before the independent reader looks.
            _ = try fixture.runPiped("/open alice\n")
            let stored = try decodeEverySegment(of: "alice").map(\.content)
            #expect(Set(stored).count == stored.count, "round \(round): a message is stored twice")
            #expect(acknowledged.isSubset(of: Set(stored)), "round \(round): an acknowledged message is missing")
        }
        #expect(acknowledged.count > 100, "the kills came too early to test anything")
        // The next start removes what killed writers left in tmp/.
        _ = try fixture.runPiped("")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.dataDirectory + "/tmp") == [])
    }

    @Test func twoProcessesSendingToOneChatLoseAndDuplicateNothing() throws {
        let first = try startPiped("/open alice\n" + (0..<200).map { "one-\($0)" }.joined(separator: "\n") + "\n")
        let second = try startPiped("/open alice\n" + (0..<200).map { "two-\($0)" }.joined(separator: "\n") + "\n")
        _ = first.output.readDataToEndOfFile()
        _ = second.output.readDataToEndOfFile()
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0 && second.process.terminationStatus == 0)
        let stored = try decodeEverySegment(of: "alice").map(\.content)
        #expect(stored.count == 400)
        #expect(Set(stored) == Set((0..<200).flatMap { ["one-\($0)", "two-\($0)"] }))
        // Each writer's own messages stay in the order it sent them.
        #expect(stored.filter { $0.hasPrefix("one-") } == (0..<200).map { "one-\($0)" })
    }

    @Test func damagedFileGetsOneWarningAndIsKeptAside() throws {
        _ = try fixture.runPiped("/open alice\n" + (0..<40).map { "m\($0)" }.joined(separator: "\n") + "\n")
        let segment = fixture.dataDirectory + "/chats/alice/00000000.plist"
        let truncated = try Data(contentsOf: URL(fileURLWithPath: segment)).prefix(100)
        try truncated.write(to: URL(fileURLWithPath: segment))
        let result = try fixture.runPiped("/open alice\n/history 100\nafter\n")
        #expect(result.status == 0)
        let warnings = result.error.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: damaged history file moved aside") == true)
        #expect(result.output.contains("you: m39") && result.output.contains("you: after"))
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.dataDirectory + "/chats/alice")
        let aside = try #require(names.first { $0.hasPrefix("00000000.plist.corrupt-") })
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: fixture.dataDirectory + "/chats/alice/" + aside)) == truncated)
    }

    @Test func draftsNeverReachTheDisk() throws {
        let canary = "canary-\(UInt64.random(in: 0...UInt64.max))"
        let result = try fixture.runPiped("/open alice\nsent\n\(canary)\u{18}p\n/back\n/open bob\n")
        #expect(result.status == 0)
        #expect(result.output.contains("1 draft discarded"))
        #expect(fixture.filesContaining(canary) == [])
        #expect(fixture.filesContaining("sent").count == 1)
    }

    /// The umask belongs to the whole process, so each case runs draftline in a child
    /// process of its own (`sh -c 'umask …; exec draftline'`), on a terminal so that the
    /// edit-line history is written too.
    @Test(arguments: ["000", "022", "277"])
    func directoriesAre0700AndFiles0600WhateverTheUmask(_ mask: String) throws {
        let terminal = try PseudoTerminal(
            executable: "/bin/sh",
            arguments: [
                "-c", "umask \(mask); exec \"$0\" --data-dir \"$1\"", Fixture.executable, fixture.dataDirectory,
            ],
            environment: fixture.environment())
        try terminal.waitForPrompt("draftline> ")
        try terminal.open("alice")
        try terminal.send("m\r")
        try terminal.waitForPrompt("alice> ")
        #expect(try terminal.quit() == .exited(0))
        let data = fixture.dataDirectory
        func mode(_ path: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
        }
        for directory in [data, data + "/chats", data + "/threads", data + "/tmp", data + "/chats/alice"] {
            #expect(mode(directory) == 0o700, "\(directory)")
        }
        for file in [
            data + "/chats/alice/00000000.plist", data + "/line-history.me.plist", data + "/lock", data + "/format",
        ] {
            #expect(mode(file) == 0o600, "\(file)")
        }
    }
}
