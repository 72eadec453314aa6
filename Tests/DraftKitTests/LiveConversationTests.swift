import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// Two people on one store, as data: what one sends reaches the other's screen, counted
/// when the chat is not open, and no draft changes.
@Suite("A chat with two sides, as data")
struct LiveConversationTests {
    let history = MemoryHistory()
    let alice: Frontend
    let bob: Frontend
    let aliceFeed: any HistoryFeed
    let bobFeed: any HistoryFeed
    static let aliceKey = try! GlobalKey(validating: "alice")
    static let bobKey = try! GlobalKey(validating: "bob")

    init() {
        alice = Frontend(Session(contacts: ContactBook(), history: history, identity: Self.aliceKey))
        bob = Frontend(Session(contacts: ContactBook(), history: history, identity: Self.bobKey))
        aliceFeed = history.follow(notifications: false)
        bobFeed = history.follow(notifications: false)
    }

    @Test func aPairHasOneNameWhoeverAsksAndAChatWithMeKeepsItsOldName() throws {
        let carol = try GlobalKey(validating: "carol")
        #expect(ChatID.between(Self.aliceKey, Self.bobKey) == ChatID.between(Self.bobKey, Self.aliceKey))
        #expect(ChatID.between(Self.bobKey, Self.aliceKey).rawValue == "alice+bob")
        #expect(ChatID.between(.me, carol).rawValue == "carol")
        #expect(ChatID.between(carol, .me).rawValue == "carol")
        #expect(InputTarget.privateChat(carol).chatID(as: .me) == ChatID("carol"))
        // Keys with the grammar's punctuation cannot make two pairs share a name.
        let a = try GlobalKey(validating: "a.b")
        let b = try GlobalKey(validating: "c")
        let c = try GlobalKey(validating: "a")
        let d = try GlobalKey(validating: "b.c")
        #expect(ChatID.between(a, b) != ChatID.between(c, d))
        // Names from disk: a pair must be in order and not name `me`.
        #expect(ChatID("alice+bob") != nil)
        #expect(ChatID("bob+alice") == nil)
        #expect(ChatID("me+bob") == nil)
        #expect(ChatID("alice+bob", kind: .thread) == nil)
        #expect(ChatID("a+b+c") == nil)
        #expect(ChatID("alice+bob")?.otherPerson(for: Self.bobKey) == Self.aliceKey)
        #expect(ChatID("bob")?.otherPerson(for: .me) == Self.bobKey)
        #expect(ChatID("bob")?.otherPerson(for: Self.aliceKey) == nil)
    }

    @Test func aMessageArrivesInTheOpenChatAndTheDraftStaysAsItWas() throws {
        alice.handle(.line("/open bob"))
        bob.handle(.line("/open alice"))
        _ = aliceFeed.takeAll()
        _ = bobFeed.takeAll()
        let half = TextDraft(text: "half a thought", cursor: 4)
        // alice leaves to the profile and back: her draft is in the store.
        alice.handle(.leave(.profile, half))
        alice.handle(.line("/back"))
        bob.handle(.line("one"))
        bob.handle(.line("two"))
        let received = alice.receive(from: aliceFeed)
        #expect(received.arrived == 2)
        #expect(!received.hasMore)
        #expect(received.lines.map(\.text) == ["  bob: one", "  bob: two"])
        #expect(alice.prefill == half)
        #expect(alice.drafts.count == 1)
        // bob's own messages do not come back to him.
        #expect(bob.receive(from: bobFeed).arrived == 0)
        alice.handle(.line("three"))
        #expect(bob.receive(from: bobFeed).lines.map(\.text) == ["  alice: three"])
        let stored = history.messages(ChatID.between(Self.aliceKey, Self.bobKey))
        #expect(stored.map(\.author) == ["bob", "bob", "alice"])
        #expect(stored.map(\.target) == ["alice", "alice", "bob"])
    }

    @Test func aMessageElsewhereIsAnnouncedCountedAndClearedWhenOpened() throws {
        alice.handle(.line("/open bob"))
        alice.handle(.leave(.profile, TextDraft(text: "wait", cursor: 2)))
        bob.handle(.line("/open alice"))
        bob.handle(.line("are you there?"))
        bob.handle(.line("hello?"))
        let (lines, arrived) = { ($0.lines, $0.arrived) }(alice.receive(from: aliceFeed))
        #expect(arrived == 2)
        #expect(lines.count == 2)
        #expect(lines[1].text.contains("2 unread: /open bob"), "\(lines)")
        #expect(lines[1].text.hasPrefix("● bob (Bob Okafor): hello? · "), "\(lines)")
        #expect(alice.session.live.unread == [ChatID.between(Self.aliceKey, Self.bobKey): 2])
        let list = alice.handle(.line("/chats")).lines.map(\.text)
        #expect(list.contains { $0.contains("bob (Bob Okafor)") && $0.hasSuffix("· 2 unread") }, "\(list)")
        #expect(list.contains { $0.contains("Draft: wait") }, "\(list)")
        alice.handle(.line("/back"))
        #expect(alice.session.live.unread.isEmpty)
        #expect(alice.prefill == TextDraft(text: "wait", cursor: 2))
        #expect(!alice.handle(.line("/chats")).lines.contains { $0.text.contains("unread") })
    }

    @Test func otherPeoplesChatsAndOwnMessagesArePassedOver() throws {
        let carol = Frontend(
            Session(contacts: ContactBook(), history: history, identity: try GlobalKey(validating: "carol")))
        carol.handle(.line("/open bob"))
        carol.handle(.line("not for alice"))
        bob.handle(.line("/open carol"))
        bob.handle(.line("nor this"))
        alice.handle(.line("/open carol"))
        alice.handle(.line("mine"))
        #expect(alice.receive(from: aliceFeed).arrived == 0)
        // alice's list has her chat with carol only.
        let list = alice.handle(.line("/chats")).lines.map(\.text)
        #expect(list.count == 1, "\(list)")
        #expect(list[0].contains("carol (Carol Müller) · you: mine"))
    }

    @Test func aNamePromptOverTheOpenChatStillShowsItsMessages() {
        alice.handle(.line("/open bob"))
        alice.handle(.leave(.open, TextDraft(text: "kept", cursor: 4)))
        #expect(alice.isAskingForChat)
        bob.handle(.line("/open alice"))
        bob.handle(.line("hi"))
        #expect(alice.receive(from: aliceFeed).lines.map(\.text) == ["  bob: hi"])
        #expect(alice.isAskingForChat)
        #expect(alice.drafts.text(for: InputTarget.privateChat(Self.bobKey).draftKey)?.text == "kept")
    }

    @Test func theDefaultIdentityReadsOldMessagesAsItsOwnAndCanTalkToANamedOne() throws {
        let me = Frontend(Session(contacts: ContactBook(), history: history))
        // A message written before senders were recorded: no `sender` key.
        try history.append(Message(chatID: "bob", content: "from before", target: "bob"), to: ChatID("bob")!)
        #expect(me.handle(.line("/open bob")).lines.map(\.text).contains("  you: from before"))
        // bob (--as bob) opens `me`, a contact for every identity but `me`.
        #expect(bob.handle(.line("/open me")).lines.map(\.text).contains("  me: from before"))
        bob.handle(.line("reply"))
        #expect(history.contents("bob") == ["from before", "reply"])
        #expect(me.handle(.line("/history 2")).lines.map(\.text) == ["  you: from before", "  bob: reply"])
    }

    @Test func demoPeersAnswerAfterTheirDelayInScriptOrder() throws {
        nonisolated(unsafe) var now = 100.0
        let peers = DemoPeers(
            people: [Self.bobKey], delay: 2, history: history, clock: { Date(timeIntervalSince1970: 0) },
            now: { now })
        let me = Frontend(
            Session(
                contacts: ContactBook(), history: history, idSuffix: .numbered(MessageNumbering(run: 1)), peers: peers))
        let feed = history.follow(notifications: false)
        me.handle(.line("/open bob"))
        me.handle(.line("first message, long enough to be cut short"))
        #expect(peers.secondsToNextAnswer == 2)
        now += 1.5
        #expect(me.receive(from: feed).lines.isEmpty)
        me.handle(.line("second"))
        now += 0.5
        #expect(me.receive(from: feed).lines.map(\.text) == ["  bob: got it: “first message, long enough to…”"])
        now += 2
        #expect(me.receive(from: feed).lines.map(\.text) == ["  bob: " + Presenter().demoPeerScript[1]])
        #expect(peers.secondsToNextAnswer == nil)
        // The user's IDs and the peer's stay apart even with a pinned clock.
        let ids = history.messages(ChatID("bob")!).map(\.messageID)
        #expect(Set(ids).count == ids.count, "\(ids)")
        // A peer does not answer in someone else's chat.
        me.handle(.line("/open carol"))
        me.handle(.line("carol is not a peer here"))
        #expect(peers.secondsToNextAnswer == nil)
    }
}

@Suite("A demo peer's answer that cannot be stored")
struct DemoPeerFailureTests {
    @Test func itIsItsOwnErrorAndTheUsersDraftIsUntouched() throws {
        let history = MemoryHistory()
        nonisolated(unsafe) var now = 0.0
        let peers = DemoPeers(
            people: [LiveConversationTests.bobKey], delay: 1, history: history,
            clock: { Date(timeIntervalSince1970: 0) }, now: { now })
        let me = Frontend(Session(contacts: ContactBook(), history: history, peers: peers))
        me.handle(.line("/open bob"))
        me.handle(.line("hello bob"))
        me.handle(.leave(.back, TextDraft(text: "half")))
        me.handle(.line("/open bob"))
        history.failNextAppend = true
        now += 1
        let lines = me.receive(from: history.follow(notifications: false)).lines
        #expect(
            lines == [
                OutputLine(
                    .error,
                    "bob's answer could not be stored (could not write history: write: No space left on device); "
                        + "nothing of yours changed")
            ])
        #expect(
            me.session.drafts.text(for: InputTarget.privateChat(LiveConversationTests.bobKey).draftKey)?.text == "half")
        #expect(history.contents("bob") == ["hello bob"])
    }
}

@Suite("Waiting for the other side, as data")
struct WaitCountingTests {
    @Test func aWaitCountsEveryArrivalNoEarlierWaitCounted() throws {
        let history = MemoryHistory()
        let alice = Frontend(
            Session(contacts: ContactBook(), history: history, identity: LiveConversationTests.aliceKey))
        let bob = Frontend(Session(contacts: ContactBook(), history: history, identity: LiveConversationTests.bobKey))
        let feed = history.follow(notifications: false)
        bob.handle(.line("/open alice"))
        alice.handle(.line("/open bob"))
        // One message arrives while a line that is not /wait runs (shown between lines)...
        alice.handle(.line("one"))
        _ = bob.receive(from: feed)
        #expect(bob.session.live.arrivalsNotWaitedFor == 1)
        // ...and the next /wait counts it.
        let response = bob.handle(.line("/wait 1 5"))
        #expect(response.effects.contains(.wait(count: 1, seconds: 5)))
        let one = Wait(until: .arrivals(1), seconds: 5)
        #expect(bob.session.endWait(one) == [.waited(.arrivals(1), count: 1)])
        #expect(bob.session.live.arrivalsNotWaitedFor == 0)
        // A wait counts each arrival once: the next one finds none.
        #expect(
            bob.session.endWait(one) == [.error(.waitTimedOut(arrived: 0, wanted: 1, seconds: 5))])
        // Two arrivals, a wait for one: the other is left for the next wait.
        alice.handle(.line("two"))
        alice.handle(.line("three"))
        _ = bob.receive(from: feed)
        #expect(bob.session.endWait(one) == [.waited(.arrivals(1), count: 1)])
        #expect(bob.session.endWait(one) == [.waited(.arrivals(1), count: 1)])
        #expect(bob.session.live.arrivalsNotWaitedFor == 0)
    }
}
