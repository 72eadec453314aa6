import Glibc
import IRCClient
import IRCFixtures
import IRCProtocol
import ProgramDriver

/// An ``IRCClient`` driven as a front end would: wait on its descriptor, take, look at the
/// events; every wait with a deadline.
final class ClientHarness {
    let client: IRCClient
    /// Every event so far, in order.
    private(set) var events: [IRCClientEvent] = []
    private var consumed = 0
    /// How many takes there were, and the most events one brought (bounded work).
    private(set) var takes = 0
    private(set) var mostEventsInOneTake = 0

    init(
        port: Int, nick: String, tls: Bool = false, host: String = "127.0.0.1", caFile: String? = nil,
        welcomeTimeout: Double = 10, sendsTyping: Bool = true, reconnect: ReconnectPolicy = ReconnectPolicy(),
        pacing: OutputPacing = .unlimited
    ) throws {
        let options = IRCClient.Options(
            server: ServerAddress(host: host, port: port, usesTLS: tls), nick: nick, caFile: caFile,
            sendsTyping: sendsTyping, welcomeTimeout: welcomeTimeout, pacing: pacing, reconnect: reconnect)
        client = try IRCClient(options: options)
        client.start()
    }

    /// Waits until an event after those consumed matches, consumes up to it, returns it.
    @discardableResult
    func waitFor(
        _ what: String = "the event", timeout: Double = 15, _ matches: (IRCClientEvent) -> Bool
    ) throws
        -> IRCClientEvent
    {
        let deadline = PseudoTerminal.now() + timeout
        while true {
            if let index = events[consumed...].firstIndex(where: matches) {
                consumed = index + 1
                return events[index]
            }
            guard PseudoTerminal.now() < deadline else {
                throw PseudoTerminal.Failure(
                    description: "\(what) did not come within \(timeout) s; events: \(events[consumed...])")
            }
            pump(until: deadline)
        }
    }

    /// Waits until the server has acknowledged the send.
    func acknowledged(_ id: SendID) throws {
        try waitFor("the acknowledgement of \(id)") {
            if case .acknowledged(id, _, _) = $0 { return true }
            return false
        }
    }

    /// Waits for the welcome.
    @discardableResult
    func connected(timeout: Double = 15) throws -> Set<String> {
        let event = try waitFor("the welcome", timeout: timeout) {
            if case .connected = $0 { return true }
            if case .couldNotConnect = $0 { return true }
            return false
        }
        guard case .connected(_, let capabilities, _) = event else {
            throw PseudoTerminal.Failure(description: "could not connect: \(event)")
        }
        return capabilities
    }

    /// Takes what arrives within `seconds` (for a check that something did not come after
    /// something that did).
    func pump(for seconds: Double) { pump(until: PseudoTerminal.now() + seconds) }

    /// One take, without waiting; its events are kept like the rest.
    func takeOnce() -> IRCClient.Slice {
        let slice = client.take()
        takes += 1
        events += slice.events
        return slice
    }

    private func pump(until deadline: Double) {
        var entry = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(deadline - PseudoTerminal.now(), 0.5)) * 1000)
        guard poll(&entry, 1, milliseconds) > 0 else { return }
        let slice = client.take()
        takes += 1
        mostEventsInOneTake = max(mostEventsInOneTake, slice.events.count)
        events += slice.events
    }
}
