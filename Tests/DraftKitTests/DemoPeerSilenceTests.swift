import DraftKit
import DraftlineREPL
import Foundation
import Testing

/// A demo peer falls silent for good once the person it plays is really there, and says
/// so once.
@Suite("A demo peer and the person it plays")
struct DemoPeerSilenceTests {
    let history = MemoryHistory()
    static let bob = LiveConversationTests.bobKey

    @Test func aMessageBobTypedElsewhereSilencesBobsPeerForGoodWithOneLine() throws {
        nonisolated(unsafe) var now = 0.0
        let peers = DemoPeers(
            people: [Self.bob, LiveConversationTests.aliceKey], delay: 1, history: history,
            clock: { Date(timeIntervalSince1970: 0) }, now: { now })
        let me = Frontend(Session(contacts: ContactBook(), history: history, peers: peers))
        let realBob = Frontend(Session(contacts: ContactBook(), history: history, identity: Self.bob))
        let feed = history.follow(notifications: false)
        me.handle(.line("/open bob"))
        me.handle(.line("first"))
        // bob, in another process, types before his peer's answer is due.
        realBob.handle(.line("/open me"))
        realBob.handle(.line("I am really here"))
        let lines = me.receive(from: feed).lines
        #expect(
            lines == [
                OutputLine(.info, "  bob: I am really here"),
                OutputLine(.info, "bob wrote from another draftline: the demo no longer answers as bob"),
            ])
        #expect(peers.secondsToNextAnswer == nil)
        now += 5
        me.handle(.line("second"))
        #expect(me.receive(from: feed).lines.isEmpty)
        #expect(history.messages(ChatID("bob")!).map(\.sender) == ["me", "bob", "me"])
        // Another peer still answers, its reply marked as the demo's.
        me.handle(.line("/open alice"))
        me.handle(.line("hello"))
        now += 1
        #expect(me.receive(from: feed).lines.map(\.text) == ["  alice: got it: “hello”"])
        let reply = try #require(history.messages(ChatID("alice")!).last)
        #expect(DemoPeers.isReply(reply) && reply.sender == "alice")
    }

    /// Where bob, really there in another draftline, writes while the user talks to the
    /// demo: each way an arrival is shown, and each way it is not.
    enum Way: String, CaseIterable {
        /// In the chat the user has open: shown.
        case inTheOpenChat
        /// In his chat with the user, not open: announced.
        case inAChatNotOpen
        /// To alice: someone else's chat, passed over.
        case toSomeoneElse
        /// In a comment thread, to no one: passed over.
        case inAThreadToNoOne
    }

    /// Every arrival reaches the demo peers before anything decides what the user is shown
    /// of it: bob typing silences bob's peer, whether his message is shown, announced or
    /// passed over. A rule that hides arrivals (`Session.shown(_:)`) adds its case here.
    @Test(arguments: Way.allCases)
    func everyArrivalReachesThePeers(_ way: Way) throws {
        let peers = DemoPeers(
            people: [Self.bob], delay: 1, history: history, clock: { Date(timeIntervalSince1970: 0) }, now: { 0 })
        let me = Frontend(Session(contacts: ContactBook(), history: history, peers: peers))
        let realBob = Frontend(Session(contacts: ContactBook(), history: history, identity: Self.bob))
        let feed = history.follow(notifications: false)
        me.handle(.line(way == .inTheOpenChat ? "/open bob" : "/open alice"))
        switch way {
        case .inTheOpenChat, .inAChatNotOpen: realBob.handle(.line("/open me"))
        case .toSomeoneElse: realBob.handle(.line("/open alice"))
        case .inAThreadToNoOne: realBob.handle(.line("/comment tweet 7"))
        }
        realBob.handle(.line("I am really here"))
        let lines = me.receive(from: feed).lines.map(\.text)
        #expect(lines.last == "bob wrote from another draftline: the demo no longer answers as bob")
        let shown = lines.dropLast()
        switch way {
        case .inTheOpenChat: #expect(shown == ["  bob: I am really here"])
        case .inAChatNotOpen: #expect(shown.count == 1 && shown[0].contains("I am really here"), "\(shown)")
        case .toSomeoneElse, .inAThreadToNoOne: #expect(shown.isEmpty, "\(shown)")
        }
        #expect(peers.silenced[Self.bob] == .spoke)
    }

    @Test func aPeerWhosePersonRunsIsSilentFromTheStart() throws {
        nonisolated(unsafe) var asked: [GlobalKey] = []
        let peers = DemoPeers(
            people: [Self.bob], delay: 0, history: history, clock: { Date(timeIntervalSince1970: 0) },
            presence: { peer in
                asked.append(peer)
                return .now
            })
        let me = Frontend(Session(contacts: ContactBook(), history: history, peers: peers))
        me.handle(.line("/open bob"))
        let notice = OutputLine(
            .info, "a draftline runs as bob on this data directory: the demo no longer answers as bob")
        #expect(me.handle(.line("one")).lines.contains(notice))
        #expect(!me.handle(.line("two")).lines.contains(notice))
        #expect(me.receive(from: history.follow(notifications: false)).lines.isEmpty)
        #expect(history.messages(ChatID("bob")!).map(\.sender) == ["me", "me"])
        #expect(asked == [Self.bob])
    }
}
