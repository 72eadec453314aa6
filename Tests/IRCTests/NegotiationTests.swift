import IRCProtocol
import Testing

/// Capability negotiation, back-off, pacing: the small state machines.
@Suite("CAP negotiation, reconnect back-off, output pacing")
struct NegotiationTests {
    static func line(_ text: String) -> IRCMessage { IRCMessage(parsing: text)! }

    @Test("CAP LS 302 across continuation lines, then REQ of what is wanted and offered, then END on ACK")
    func inspircd() throws {
        var negotiation = CapabilityNegotiation()
        #expect(try CapabilityNegotiation.start.serialized() == "CAP LS 302")
        #expect(negotiation.handle(Self.line(":srv CAP * LS * :away-notify echo-message message-tags")).isEmpty)
        let request = negotiation.handle(Self.line(":srv CAP * LS :sasl=PLAIN,EXTERNAL server-time batch"))
        #expect(request == [IRCMessage("CAP", "REQ", "echo-message message-tags server-time")])
        #expect(negotiation.offered["sasl"] == "PLAIN,EXTERNAL")
        #expect(!negotiation.isFinished)
        #expect(
            negotiation.handle(Self.line(":srv CAP alice ACK :echo-message message-tags server-time")) == [
                IRCMessage("CAP", "END")
            ])
        #expect(negotiation.enabled == ["echo-message", "message-tags", "server-time"])
        #expect(negotiation.isFinished)
    }

    @Test("ngircd: only multi-prefix offered, nothing requested, END at once; tags stay off")
    func ngircd() {
        var negotiation = CapabilityNegotiation()
        #expect(negotiation.handle(Self.line(":a.test CAP * LS :multi-prefix")) == [IRCMessage("CAP", "END")])
        #expect(negotiation.enabled.isEmpty)
        #expect(negotiation.isFinished)
    }

    @Test("A NAK ends negotiation with nothing enabled; DEL withdraws, NEW requests again")
    func nakAndChanges() {
        var negotiation = CapabilityNegotiation()
        _ = negotiation.handle(Self.line(":srv CAP * LS :message-tags"))
        #expect(negotiation.handle(Self.line(":srv CAP * NAK :message-tags")) == [IRCMessage("CAP", "END")])
        #expect(negotiation.enabled.isEmpty)
        var later = CapabilityNegotiation()
        _ = later.handle(Self.line(":srv CAP * LS :message-tags"))
        _ = later.handle(Self.line(":srv CAP * ACK :message-tags"))
        _ = later.handle(Self.line(":srv CAP alice DEL :message-tags"))
        #expect(later.enabled.isEmpty)
        #expect(
            later.handle(Self.line(":srv CAP alice NEW :message-tags")) == [IRCMessage("CAP", "REQ", "message-tags")])
    }

    @Test("A server without CAP (421) lets registration go on")
    func noCap() {
        var negotiation = CapabilityNegotiation()
        _ = negotiation.handle(Self.line(":old 421 * CAP :Unknown command"))
        #expect(negotiation.isFinished)
        #expect(negotiation.enabled.isEmpty)
    }

    @Test("Back-off: 1 s doubling to 30 s, 1 s again after a welcome")
    func backoff() {
        var policy = ReconnectPolicy()
        #expect((0..<8).map { _ in policy.nextDelay() } == [1, 2, 4, 8, 16, 30, 30, 30])
        policy.reset()
        #expect(policy.nextDelay() == 1)
    }

    @Test("Pacing: a burst, then one line per interval")
    func pacing() {
        var pacing = OutputPacing(burst: 3, interval: 0.5)
        let burst = (0..<4).map { _ in pacing.take(at: 10) }
        #expect(burst == [true, true, true, false])
        #expect(pacing.nextAllowed(after: 10) == 10.5)
        let later = [10.4, 10.5, 12, 12, 12, 12].map { pacing.take(at: $0) }
        #expect(later == [false, true, true, true, true, false])  // refilled to the burst, no more
        var unlimited = OutputPacing.unlimited
        let all = (0..<1000).map { _ in unlimited.take(at: 0) }
        #expect(all.allSatisfy { $0 })
        #expect(unlimited.nextAllowed(after: 0) == nil)
    }
}
