import DraftKit
import DraftlineREPL
import Testing

@Suite("The tour's script, played as data")
struct TourTests {
    @Test func theStoryEndsWithTheMessageSentAndTheLastDraftDiscarded() {
        let history = MemoryHistory()
        let session = Frontend(Session(contacts: ContactBook(), history: history, tracing: true))
        var trace: [String] = []
        for step in Tour.steps {
            #expect(!session.hasQuit)
            let output = session.handle(Tour.event(for: step, prefill: session.prefill))
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
                "trace: restored privateMessage_bob", "trace: discarded privateMessage_bob",
                "trace: restored privateMessage_bob", "trace: saved privateMessage_bob",
                "trace: discarded privateMessage_bob",
            ])
        #expect(history.contents("bob").isEmpty)
    }

    @Test func everyStepIsOneEditLine() {
        for step in Tour.steps {
            let scalars = Array(step.keys.unicodeScalars)
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
}
