import IRCProtocol
import Testing

/// Typing notifications: when each state goes, and how long a received one holds.
@Suite("Typing states: sending and expiry")
struct TypingTests {
    @Test("active at most every 3 s while editing; paused on leaving with a draft; done when it is gone")
    func sending() {
        var notifier = TypingNotifier<String>()
        var sent: [TypingState?] = []
        sent.append(notifier.edited("bob", hasText: true, at: 0))
        sent.append(notifier.edited("bob", hasText: true, at: 1))
        sent.append(notifier.edited("bob", hasText: true, at: 2.9))
        sent.append(notifier.edited("bob", hasText: true, at: 3))
        sent.append(notifier.left("bob", hasDraft: true, at: 4))
        sent.append(notifier.left("bob", hasDraft: true, at: 5))
        sent.append(notifier.edited("bob", hasText: true, at: 5.5))
        sent.append(notifier.draftGone("bob", at: 6))
        sent.append(notifier.draftGone("bob", at: 7))
        #expect(sent == [.active, nil, nil, .active, .paused, nil, .active, .done, nil])
        var carol: [TypingState?] = []
        carol.append(notifier.left("carol", hasDraft: false, at: 8))
        carol.append(notifier.edited("carol", hasText: true, at: 8))
        carol.append(notifier.edited("carol", hasText: false, at: 8.5))
        #expect(carol == [nil, .active, .done])
        _ = notifier.edited("dave", hasText: true, at: 9)
        _ = notifier.left("erin", hasDraft: true, at: 9)
        let quitting = notifier.quit()
        #expect(Set(quitting) == ["dave", "erin"])
        let again = notifier.quit()
        #expect(again.isEmpty)
    }

    @Test("Received: active holds 6 s, paused 30 s, done and a message end it")
    func receiving() {
        var indicators = TypingIndicators<String>()
        var changes: [Bool] = []
        changes.append(indicators.received(.active, for: "bob", at: 0))
        changes.append(indicators.received(.active, for: "bob", at: 2))
        #expect(changes == [true, false])
        #expect(indicators.nextExpiry == 8)
        var expired = [indicators.expire(at: 7.9), indicators.expire(at: 8)]
        #expect(expired == [[], ["bob"]])
        #expect(indicators.state(of: "bob") == .done)
        _ = indicators.received(.paused, for: "bob", at: 10)
        expired = [indicators.expire(at: 39.9)]
        #expect(indicators.state(of: "bob") == .paused)
        expired.append(indicators.expire(at: 40))
        #expect(expired == [[], ["bob"]])
        _ = indicators.received(.active, for: "carol", at: 50)
        let ended = [indicators.messageArrived(for: "carol"), indicators.messageArrived(for: "carol")]
        #expect(ended == [true, false])
        let doneAfterNothing = indicators.received(.done, for: "carol", at: 51)
        #expect(!doneAfterNothing)
    }
}
