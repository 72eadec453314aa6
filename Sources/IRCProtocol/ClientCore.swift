/// One connection's client side as a state machine: lines from the server and the time go
/// in, lines for the server and events come out; no sockets, no clock of its own.
///
/// It negotiates capabilities (``CapabilityNegotiation``), registers (`NICK`, `USER`, the
/// welcome within ``Configuration/welcomeTimeout``), answers PING, joins the channels it is
/// given, and tracks each send until the server has it: by its echo with `echo-message`,
/// else by a PING sent after it whose PONG comes back with no error before it (the server
/// handles a client's lines in order, so a `401` or `404` for it would have come first).
/// Errors (`401`, `404`) fail the oldest unanswered line to their target; a line whose echo
/// is shorter than what was sent was cut. Lines go out paced (``OutputPacing``), PONG and
/// QUIT first.
public struct ClientCore: Sendable {
    /// What the client asks of the server, and its timings.
    public struct Configuration: Sendable {
        public var nick: String
        public var user: String
        public var realName: String
        public var wantedCapabilities: Set<String>
        /// Seconds from ``ClientCore/start(at:)`` to the welcome.
        public var welcomeTimeout: Double
        /// Seconds a line may go unacknowledged before the server counts as gone.
        public var acknowledgementTimeout: Double
        /// Seconds of silence from the server before the client sends a PING of its own.
        public var idlePing: Double
        /// Seconds to wait for the answer to that PING.
        public var pingTimeout: Double
        public var pacing: OutputPacing
        /// Whether typing notifications are sent (`--no-typing`: not).
        public var sendsTyping: Bool
        /// Channels to join once welcomed.
        public var channels: [String]

        public init(
            nick: String, user: String? = nil, realName: String = "draftline",
            wantedCapabilities: Set<String> = CapabilityNegotiation.defaultWanted, welcomeTimeout: Double = 10,
            acknowledgementTimeout: Double = 30, idlePing: Double = 90, pingTimeout: Double = 30,
            pacing: OutputPacing = OutputPacing(), sendsTyping: Bool = true, channels: [String] = []
        ) {
            self.nick = nick
            self.user = user ?? nick
            self.realName = realName
            self.wantedCapabilities = wantedCapabilities
            self.welcomeTimeout = welcomeTimeout
            self.acknowledgementTimeout = acknowledgementTimeout
            self.idlePing = idlePing
            self.pingTimeout = pingTimeout
            self.pacing = pacing
            self.sendsTyping = sendsTyping
            self.channels = channels
        }
    }

    /// Where the connection is.
    public enum Phase: Equatable, Sendable {
        case registering
        case registered
        case closed(CloseReason)
    }

    public let configuration: Configuration
    public internal(set) var phase = Phase.registering
    /// The client's nick, as the server has it.
    public internal(set) var nick: String
    /// The client as the server relays it (`nick!user@host`); user and host are guesses
    /// on the long side until the server tells them.
    public internal(set) var source: IRCSource
    public internal(set) var capabilities: CapabilityNegotiation
    public internal(set) var support = ServerSupport()
    public internal(set) var roster = ChannelRoster()
    public internal(set) var typing = TypingIndicators<TypingKey>()

    /// A conversation and who types in it, folded.
    public struct TypingKey: Hashable, Sendable {
        public var conversation: Conversation
        public var nick: String
    }

    var events: [ClientEvent] = []
    var urgent: [IRCMessage] = []
    var queue: [Outgoing] = []
    var pending: [Pending] = []
    var sends: [SendID: SendProgress] = [:]
    var nextSendNumber = 1
    var nextFence = 1
    var pacing: OutputPacing
    var startedAt = 0.0
    var lastHeard = 0.0
    var keepalive: (token: String, sentAt: Double)?
    var overlong = 0
    var lastCTCPReply = -Double.infinity
    /// Channels to join once welcomed.
    var joinAfterWelcome: [String]

    /// A line waiting to go, and what it is for.
    struct Outgoing: Sendable {
        var message: IRCMessage
        var send: SendID?
        var isTyping = false
    }

    /// A line that went and waits for its answer.
    struct Pending: Sendable {
        var send: SendID?
        var target: String
        var command: String
        var text: String
        var writtenAt: Double
        var fence: Int?
    }

    /// How far one send has come.
    struct SendProgress: Sendable {
        var lines: Int
        var acknowledged = 0
        var time: Double?
        var messageID: String?
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
        nick = configuration.nick
        // The longest a server relays for an unknown client: `~user` and a 63-byte host.
        source = IRCSource(
            nick: configuration.nick, user: "~" + configuration.user, host: String(repeating: "x", count: 63))
        capabilities = CapabilityNegotiation(wanted: configuration.wantedCapabilities)
        pacing = configuration.pacing
        joinAfterWelcome = configuration.channels
    }

    /// Starts registration: `CAP LS 302`, `NICK`, `USER`.
    public mutating func start(at now: Double) {
        startedAt = now
        lastHeard = now
        enqueue(CapabilityNegotiation.start)
        enqueue(IRCMessage("NICK", configuration.nick))
        enqueue(IRCMessage("USER", configuration.user, "0", "*", configuration.realName))
    }

    /// The events since the last call, in order.
    public mutating func takeEvents() -> [ClientEvent] {
        if overlong > 0 {
            events.append(.overlongLines(count: overlong))
            overlong = 0
        }
        defer { events.removeAll() }
        return events
    }

    /// Whether the server has acknowledged `message-tags`: only then does a tag go out.
    public var sendsTags: Bool { capabilities.enabled.contains("message-tags") }

    /// Whether the server echoes the client's messages.
    public var echoes: Bool { capabilities.enabled.contains("echo-message") }

    /// A line longer than any server may send was dropped.
    public mutating func droppedOverlongLine() { overlong += 1 }

    /// Checks the timers: the welcome, unanswered lines, the server's silence.
    public mutating func tick(at now: Double) {
        switch phase {
        case .closed: return
        case .registering:
            if now - startedAt >= configuration.welcomeTimeout {
                fail(registration: .noWelcome(seconds: configuration.welcomeTimeout))
            }
            return
        case .registered: break
        }
        if let oldest = pending.first(where: { $0.send != nil }),
            now - oldest.writtenAt >= configuration.acknowledgementTimeout
        {
            close(.unresponsive, failing: .noAnswer)
            return
        }
        if let keepalive {
            if now - keepalive.sentAt >= configuration.pingTimeout { close(.unresponsive, failing: .noAnswer) }
        } else if now - lastHeard >= configuration.idlePing {
            let token = "draftline-keepalive"
            keepalive = (token, now)
            urgent.append(IRCMessage("PING", token))
        }
        for key in typing.expire(at: now) { events.append(.typing(from: key.nick, in: key.conversation, state: .done)) }
    }

    /// The next moment ``tick(at:)`` or ``takeOutgoing(at:)`` has something to do.
    public func nextDeadline(after now: Double) -> Double? {
        var deadlines: [Double] = []
        switch phase {
        case .closed: return nil
        case .registering: deadlines.append(startedAt + configuration.welcomeTimeout)
        case .registered:
            if let oldest = pending.first(where: { $0.send != nil }) {
                deadlines.append(oldest.writtenAt + configuration.acknowledgementTimeout)
            }
            deadlines.append(
                keepalive.map { $0.sentAt + configuration.pingTimeout } ?? lastHeard + configuration.idlePing)
            if let expiry = typing.nextExpiry { deadlines.append(expiry) }
        }
        if let index = nextOutgoing,
            let allowed = pacing.nextAllowed(after: now, leaving: queue[index].isTyping ? 1 : 0)
        {
            deadlines.append(allowed)
        }
        return deadlines.min()
    }

    /// Whether lines wait to go (now or when the pacing allows).
    public var hasOutgoing: Bool { !urgent.isEmpty || !queue.isEmpty }

    /// The connection is gone (EOF, a failed read or write): every pending send fails.
    public mutating func connectionLost() {
        guard phase != .closed(.quit) else { return }
        failAll(.disconnected)
        for key in typing.removeAll() { events.append(.typing(from: key.nick, in: key.conversation, state: .done)) }
        if case .closed = phase { return }
        phase = .closed(.unresponsive)
    }

    /// Ends the connection as the user quits: `QUIT`, then nothing more.
    public mutating func quit(_ text: String = "") {
        // Typing notifications still held back by the pacing go now, the last lines: the
        // other side must not be left showing a draft that quitting forgot.
        urgent += queue.filter(\.isTyping).map(\.message)
        queue.removeAll()
        failAll(.disconnected)
        urgent.append(text.isEmpty ? IRCMessage("QUIT") : IRCMessage("QUIT", text))
        phase = .closed(.quit)
    }

    mutating func enqueue(_ message: IRCMessage, send: SendID? = nil, isTyping: Bool = false) {
        queue.append(Outgoing(message: message, send: send, isTyping: isTyping))
    }

    mutating func fail(registration failure: RegistrationFailure) {
        guard phase == .registering else { return }
        events.append(.registrationFailed(failure))
        phase = .closed(.registrationFailed)
        events.append(.closed(.registrationFailed))
    }

    mutating func close(_ reason: CloseReason, failing failure: SendFailure) {
        if case .closed = phase { return }
        failAll(failure)
        phase = .closed(reason)
        events.append(.closed(reason))
    }

    mutating func failAll(_ failure: SendFailure) {
        var failed: Set<SendID> = []
        for send in pending.compactMap(\.send) + queue.compactMap(\.send) where !failed.contains(send) {
            failed.insert(send)
            if let progress = sends.removeValue(forKey: send) {
                events.append(.failed(send, failure, delivered: progress.acknowledged))
            }
        }
        pending.removeAll()
        queue.removeAll { $0.send != nil }
    }
}
