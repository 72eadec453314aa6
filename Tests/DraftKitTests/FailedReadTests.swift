import Foundation
import Glibc
import Testing

@testable import DraftKit
@testable import DraftlineREPL

/// A read that fails is an error that names its file, never "none" (issue 29): the
/// session's own reads beside the commands, each failed by the one layer that calls C
/// (``FaultPlan``), the way the storage sweep fails the store's.
@Suite("A failed read is an error, never emptiness")
struct FailedReadTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }

    /// Every call on a path under `prefix` fails with `EIO` while `body` runs.
    func unreadable<T>(under prefix: String, _ body: () -> T) -> T {
        FaultPlan.withActive(FaultPlan([FaultPlan.Rule(failing: 0, with: EIO, onward: true, pathPrefix: prefix)]), body)
    }

    /// `/wait total` over a chat whose history cannot be read ends with the error that
    /// names the chat's folder, not "holds 0 of 3".
    @Test func aWaitForATotalOverAnUnreadableChatSaysWhy() throws {
        let session = Frontend(Session(contacts: ContactBook(), history: try PropertyListHistory(directory: data)))
        session.handle(.line("/open alice"))
        session.handle(.line("one"))
        let three = Wait(until: .total(3), seconds: 1)
        let folder = data + "/chats/alice"
        let (over, lines) = unreadable(under: folder) {
            (session.session.waitIsOver(three), session.lines(for: session.session.endWait(three)))
        }
        // The wait does not run its time out over a count it cannot read.
        #expect(over)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.kind == .error)
        #expect(lines.first?.text.contains(folder) == true, "\(lines)")
        #expect(lines.first?.text.contains(String(cString: strerror(EIO))) == true, "\(lines)")
        #expect(lines.first?.text.contains("holds") == false, "\(lines)")
        // Readable again, the same wait counts what is there.
        #expect(session.session.endWait(three) == [.error(.totalNotReached(held: 1, wanted: 3, seconds: 1))])
    }

    /// An arrival whose segment neither parses nor recovers is a warning naming the file,
    /// never dropped without a word.
    @Test func anArrivalInASegmentThatIsNoSegmentIsSaid() throws {
        let alice = ChatID("alice")!
        let writer = try PropertyListHistory(directory: data)
        let feed = try PropertyListHistory(directory: data).follow(notifications: false)
        #expect(feed.take().arrivals.isEmpty)
        try writer.append(Message(chatID: "alice", messageID: "m1", content: "hello", target: "alice"), to: alice)
        let segment = data + "/chats/alice/00000000.plist"
        try Data("not a segment, and nothing of one".utf8).write(to: URL(fileURLWithPath: segment))
        let slice = feed.take()
        #expect(slice.arrivals.isEmpty)
        #expect(slice.warnings.count == 1, "\(slice.warnings)")
        guard case .arrivalUnreadable(alice, let failure) = slice.warnings.first else {
            Issue.record("no warning of the arrival: \(slice.warnings)")
            return
        }
        #expect(failure.refusal == .doesNotParse && failure.path.hasSuffix("/chats/alice/00000000.plist"))
    }

    /// A journal whose read fails is one warning, said once until it reads again, and what
    /// it announced arrives then: never a feed that goes quiet without a word.
    @Test func aJournalThatCannotBeReadIsSaidOnceAndReadAgainLater() throws {
        let alice = ChatID("alice")!
        let writer = try PropertyListHistory(directory: data)
        try writer.append(Message(chatID: "alice", messageID: "m0", content: "before", target: "alice"), to: alice)
        let feed = try PropertyListHistory(directory: data).follow(notifications: false)
        #expect(feed.take().arrivals.isEmpty)
        try writer.append(Message(chatID: "alice", messageID: "m1", content: "hello", target: "alice"), to: alice)
        let (first, second) = unreadable(under: data + "/live/journal") { (feed.take(), feed.take()) }
        #expect(first.arrivals.isEmpty && second.arrivals.isEmpty)
        #expect(first.warnings.count == 1, "\(first.warnings)")
        guard case .journalUnreadable(let failure) = first.warnings.first else {
            Issue.record("no warning of the journal: \(first.warnings)")
            return
        }
        #expect(failure.code == EIO && failure.path.hasSuffix("/live/journal"))
        #expect(second.warnings.isEmpty, "said again: \(second.warnings)")
        #expect(Presenter.describe(first.warnings[0]).contains("could not read"))
        #expect(feed.take().arrivals.map(\.message.content) == ["hello"])
    }
}
