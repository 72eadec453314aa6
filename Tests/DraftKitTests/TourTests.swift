import DraftKit
import DraftlineREPL
import Foundation
import Testing

@Suite("The tour's script, played as data")
struct TourTests {
    @Test func theStoryEndsWithTheMessageSentAndTheLastDraftDiscarded() {
        let history = MemoryHistory()
        let session = Frontend(Session(contacts: ContactBook(), history: history, tracing: true))
        var trace: [String] = []
        for step in Tour.steps {
            #expect(!session.hasQuit)
            let output = session.handle(Tour.event(for: step, prefill: session.prefill)).lines
            #expect(output.allSatisfy { $0.kind == .info }, "\(step.keys): \(output)")
            trace += output.map(\.text).filter { $0.hasPrefix("trace: ") }.map {
                $0.split(separator: " ").prefix(3).joined(separator: " ")
            }
        }
        #expect(session.hasQuit)
        #expect(history.contents("alice") == ["Bob's ID is bob"])
        #expect(
            trace == [
                "trace: saved privateMessage_alice", "trace: restored privateMessage_alice",
                "trace: removed privateMessage_alice", "trace: saved privateMessage_bob",
                "trace: restored privateMessage_bob", "trace: removed privateMessage_bob",
                "trace: discarded privateMessage_bob", "trace: restored privateMessage_bob",
                // ^X /: saved; after the command, the return restores it (the original's lookup).
                "trace: saved privateMessage_bob", "trace: restored privateMessage_bob",
                // ^X b keeps it; quitting forgets it.
                "trace: saved privateMessage_bob", "trace: discarded privateMessage_bob",
            ])
        #expect(history.contents("bob").isEmpty)
    }

    @Test func everyStepIsOneEditLine() {
        #expect(Tour.chapter(named: "keys").map { $0.steps.map(\.duration).reduce(0, +) < 60 } == true)
        for step in Tour.chapters.flatMap(\.steps) {
            // A bracketed paste may hold line ends: they are inserted, not entered.
            let pastes = /\x{1B}\[200~.*?\x{1B}\[201~/.dotMatchesNewlines()
            let scalars = Array(step.keys.replacing(pastes, with: "pasted").unicodeScalars)
            let ends =
                ["\r", "\u{3}", "\u{4}"].contains(scalars.last)
                || (scalars.count >= 2 && scalars[scalars.count - 2] == "\u{18}")
            #expect(ends, "\(step.keys.debugDescription) must end with Enter, a leave key, Ctrl-C or Ctrl-D")
            #expect(scalars.dropLast().allSatisfy { $0 != "\r" && $0 != "\n" && $0 != "\u{3}" })
            #expect(
                PipedLine.events(for: String(step.keys.dropLast(step.keys.hasSuffix("\r") ? 1 : 0)), prefill: nil).count
                    == 1)
        }
    }

    /// What each chapter must show, as trace lines and other output; and every chapter
    /// plays in under a minute at speed 1.
    static let shows: [String: [String]] = [
        "undo": [
            "trace: discarded privateMessage_alice (/discard", "the draft that was there is on the undo stack",
            "draft for privateMessage_alice is back: \"Friday works\"",
        ],
        "empty": [
            "trace: removed privateMessage_bob (^X b with an empty line)",
            "trace: cleared privateMessage_bob (a blank line sends nothing)", "draft for privateMessage_bob is back",
        ],
        "comments": [
            "trace: saved tweet_123_ (", "trace: saved tweet_123_bob (", "  tweet_123_  \"Nice shot!\"",
            "  tweet_123_bob  \"@bob thanks\"",
        ],
        "cursor": ["\"Meet at the station\" cursor 12", "you: Meet at the north station"],
        "media": ["attached: 1) photo.png [image]", "you: [image photo.png]", "you: Look!"],
        "live": [
            "  bob: got it: “Are you free on Saturday?”", "● bob (Bob Okafor): I'm typing on the other side",
            "bob (Bob Okafor) · bob: I'm typing on the other side: my lines land … · 1 unread",
            "      Draft: Shall I bring", "you: Shall I bring the boat?",
        ],
    ]

    /// (The `keys` chapter recalls lines with Up, which only the real editor does: it is
    /// checked through the binary, in `TourEndToEndTests`.)
    @Test(arguments: Tour.chapters.dropFirst().map(\.name).filter { $0 != "keys" })
    func everyChapterShowsItsRuleAndPlaysInUnderAMinute(_ name: String) throws {
        let chapter = try #require(Tour.chapter(named: name))
        let scratch = ScratchDirectory()
        try #require(FileManager.default.createFile(atPath: scratch.path + "/photo.png", contents: Data([1])))
        let history = MemoryHistory()
        // Time passes as the player spends it: each step's pause and keys, at speed 1.
        nonisolated(unsafe) var now = 0.0
        let peers = chapter.peerDelay.map { delay in
            DemoPeers(
                people: Set(ContactBook.demo.map(\.key)), delay: delay, history: history, clock: { Date() },
                now: { now })
        }
        let session = Frontend(
            Session(
                contacts: ContactBook(), history: history, tracing: true, workingDirectory: scratch.path,
                peers: peers))
        let feed = history.follow(notifications: false)
        var shown: [String] = []
        for step in chapter.steps {
            now += step.readingPause
            shown += session.receive(from: feed).lines.map(\.text)
            now += step.duration - step.readingPause
            let output = session.handle(Tour.event(for: step, prefill: session.prefill)).lines
            #expect(output.allSatisfy { $0.kind != .error }, "\(step.keys.debugDescription): \(output)")
            shown += output.map(\.text)
        }
        for expected in Self.shows[name] ?? [] {
            #expect(shown.contains { $0.contains(expected) }, "\(name): missing \(expected)")
        }
        #expect(!session.hasQuit)
        #expect(chapter.steps.map(\.duration).reduce(0, +) < 60)
        #expect(Tour.chapters[0].steps.map(\.duration).reduce(0, +) < 120)
    }
}
