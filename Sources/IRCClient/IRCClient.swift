import DraftKit
import IRCProtocol

/// draftline's IRC transport: one server, one nick, reconnecting with back-off; messages,
/// typing states and acknowledgements in draftline's terms.
///
/// It never blocks and never runs on its own: a front end waits on ``descriptor`` beside
/// the keyboard (as on the journal feed's) and calls ``take()`` when it is readable. Each
/// call does bounded work (at most ``linesPerTake`` lines) and says whether more waits;
/// while it does, the descriptor stays readable. Sends are acknowledged or fail later, in
/// the events of a ``take()``.
public final class IRCClient {
    /// What to connect to, as whom, and how.
    public struct Options: Sendable {
        public var server: ServerAddress
        public var nick: String
        /// A CA file to trust for `ircs://` instead of the system's store.
        public var caFile: String?
        /// Whether typing states are sent (`--no-typing`: not).
        public var sendsTyping: Bool
        /// Seconds from the start of an attempt to the welcome.
        public var welcomeTimeout: Double
        public var pacing: OutputPacing
        public var reconnect: ReconnectPolicy

        public init(
            server: ServerAddress, nick: String, caFile: String? = nil, sendsTyping: Bool = true,
            welcomeTimeout: Double = 10, pacing: OutputPacing = OutputPacing(),
            reconnect: ReconnectPolicy = ReconnectPolicy()
        ) {
            self.server = server
            self.nick = nick
            self.caFile = caFile
            self.sendsTyping = sendsTyping
            self.welcomeTimeout = welcomeTimeout
            self.pacing = pacing
            self.reconnect = reconnect
        }
    }

    /// What one ``take()`` brought.
    public struct Slice: Sendable {
        public var events: [IRCClientEvent]
        /// Whether more is waiting: call ``take()`` again (after the keys).
        public var hasMore: Bool
    }

    /// The most lines one ``take()`` handles.
    public static let linesPerTake = 256
    /// The most bytes one ``take()`` reads.
    public static let bytesPerTake = 64 * 1024

    public let options: Options
    /// The descriptor to wait on: readable when there is work for ``take()``.
    public var descriptor: Int32 { poller.descriptor }
    /// Whether the client is welcomed and can send.
    public var isConnected: Bool { core?.phase == .registered }
    /// Whether the client has stopped for good (the first connection failed, or it quit).
    public private(set) var isStopped = false
    /// What the server acknowledged (`message-tags`, `echo-message`, `server-time`).
    public var capabilities: Set<String> { core?.capabilities.enabled ?? [] }

    private let poller: Poller
    private let clock: () -> Double
    private var stage = Stage.idle
    private var core: ClientCore?
    private var framer = LineFramer()
    private var reconnect: ReconnectPolicy
    private var welcomedBefore = false
    /// Whether the connection now up was welcomed.
    private var welcomedNow = false
    private var attemptStarted = 0.0
    /// The channels of open threads, by folded name: joined again after a reconnect.
    private var channels: [String: String] = [:]
    private var notifier = TypingNotifier<InputTarget>()
    private var events: [IRCClientEvent] = []
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)

    private enum Stage {
        case idle
        case resolving(Resolution)
        case connecting(Connection, remaining: [SocketAddress])
        case connected(Connection)
        case waiting(until: Double)
        case stopped
    }

    /// Makes a client; nothing happens until ``start()``.
    public init(options: Options, clock: @escaping () -> Double = IRCClient.monotonicNow) throws(ConnectionError) {
        self.options = options
        self.clock = clock
        reconnect = options.reconnect
        poller = try Poller()
    }

    /// The monotonic clock in seconds (`SuspendingClock`: `CLOCK_MONOTONIC` on Linux): the
    /// one the descriptor's deadlines are on (the poller's `timerfd`).
    public static func monotonicNow() -> Double { (SuspendingClock.now - SuspendingClock().systemEpoch) / .seconds(1) }

    /// Starts the first attempt to connect.
    public func start() {
        guard case .idle = stage else { return }
        attempt()
        rearm(hasMore: true)
    }

    /// Does what is due: reads and handles lines (at most ``linesPerTake``), writes what may
    /// go, checks the timers, moves the connection along.
    public func take() -> Slice {
        poller.settle()
        let now = clock()
        var more = false
        switch stage {
        case .idle, .stopped: break
        case .resolving(let resolution):
            if let result = resolution.result {
                switch result {
                case .success(let addresses): connect(addresses, at: now)
                case .failure(let error): attemptFailed(.connection(error), at: now)
                }
            } else if now - attemptStarted >= options.welcomeTimeout {
                attemptFailed(.connection(ConnectionError("getaddrinfo", .timedOut)), at: now)
            }
        case .connecting(let connection, let remaining):
            do {
                if try connection.advance() {
                    stage = .connected(connection)
                    var core = ClientCore(configuration: configuration())
                    core.start(at: attemptStarted)
                    self.core = core
                    framer = LineFramer()
                    more = true
                } else if now - attemptStarted >= options.welcomeTimeout {
                    attemptFailed(
                        .connection(ConnectionError(connection.isOpen ? "SSL_connect" : "connect", .timedOut)), at: now)
                }
            } catch {
                if remaining.isEmpty { attemptFailed(.connection(error), at: now) } else { connect(remaining, at: now) }
            }
        case .connected(let connection): more = serve(connection, at: now)
        case .waiting(let until):
            if now >= until { attempt() }
        }
        let slice = Slice(events: events, hasMore: more)
        events.removeAll()
        rearm(hasMore: more)
        return slice
    }

    /// Sends a message to `target`: its lines go out paced, and its outcome comes in a
    /// later ``take()``. Throws at once when it cannot go (not connected, a NUL in it).
    public func send(_ content: WireContent, to target: InputTarget) throws(SendRefusal) -> SendID {
        guard case .connected(let connection) = stage, var core else { throw .notConnected }
        let (name, prefix) = IRCAddressing.destination(of: target)
        if case .comment = target { join(name, core: &core) }
        let id = try core.send(content.line, to: name, prefix: prefix)
        _ = notifier.draftGone(target, at: clock())
        self.core = core
        flushBetweenTakes(connection)
        return id
    }

    /// The chat `target` was opened: a thread's channel is joined (and joined again after
    /// every reconnect).
    public func open(_ target: InputTarget) {
        guard let channel = IRCAddressing.channel(of: target) else { return }
        guard var core else {
            channels[IRCNames.folded(channel)] = channel
            return
        }
        join(channel, core: &core)
        self.core = core
        if case .connected(let connection) = stage { flushBetweenTakes(connection) }
    }

    /// What the user did to a chat's input, for its typing state.
    public enum InputChange: Sendable {
        /// Edited it; it holds text now or is empty.
        case edited(hasText: Bool)
        /// Left the chat, with a draft or without.
        case left(hasDraft: Bool)
        /// The draft is gone: sent, discarded, abandoned.
        case draftGone
    }

    /// Tells the client what the user did to `target`'s input: it sends `active`,
    /// `paused` or `done` as ``TypingNotifier`` decides, never any of the text.
    public func note(_ change: InputChange, in target: InputTarget) {
        let now = clock()
        let state: TypingState?
        switch change {
        case .edited(let hasText): state = notifier.edited(target, hasText: hasText, at: now)
        case .left(let hasDraft): state = notifier.left(target, hasDraft: hasDraft, at: now)
        case .draftGone: state = notifier.draftGone(target, at: now)
        }
        guard let state, var core, case .connected(let connection) = stage else { return }
        core.sendTyping(state, to: IRCAddressing.destination(of: target).name)
        self.core = core
        flushBetweenTakes(connection)
    }

    /// Quits: `done` for every chat that showed typing, `QUIT`, and up to `timeout`
    /// seconds for the server to take them and close the connection. The client stops.
    ///
    /// The client waits for the server's close rather than closing first: a server
    /// (InspIRCd 3 is one) may drop the lines it still holds of a client whose socket
    /// closed, so the `done` notices would never reach the other side.
    public func quit(timeout: Double = 1) {
        defer {
            stage = .stopped
            isStopped = true
            core = nil
        }
        guard case .connected(let connection) = stage, var core, core.phase == .registered else { return }
        for target in notifier.quit() { core.sendTyping(.done, to: IRCAddressing.destination(of: target).name) }
        let now = clock()
        var lines = core.takeOutgoing(at: now)
        core.quit()
        lines += core.takeOutgoing(at: now)
        for line in lines { try? connection.write(line.wireBytes()) }
        let deadline = now + timeout
        while connection.unwritten > 0, clock() < deadline {
            _ = poller.wait(timeout: min(0.05, deadline - clock()))
            try? connection.flush()
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while clock() < deadline {
            guard case .some(let received) = try? connection.read(into: buffer), received != .end else { return }
            if received == .nothing { _ = poller.wait(timeout: min(0.05, deadline - clock())) }
        }
    }

    // MARK: - The connection's life

    private func configuration() -> ClientCore.Configuration {
        ClientCore.Configuration(
            nick: options.nick, welcomeTimeout: options.welcomeTimeout, pacing: options.pacing,
            sendsTyping: options.sendsTyping, channels: channels.values.sorted())
    }

    private func attempt() {
        attemptStarted = clock()
        do {
            stage = .resolving(try Resolution(host: options.server.host, port: options.server.port))
        } catch {
            attemptFailed(.connection(error), at: attemptStarted)
        }
    }

    private func connect(_ addresses: [SocketAddress], at now: Double) {
        var remaining = addresses[...]
        var lastError = ConnectionError("getaddrinfo", .resolution(code: 0, text: "no address"))
        let tls = options.server.usesTLS ? Connection.TLS(host: options.server.host, caFile: options.caFile) : nil
        while let address = remaining.popFirst() {
            do {
                stage = .connecting(try Connection(to: address, tls: tls), remaining: Array(remaining))
                return
            } catch {
                lastError = error
            }
        }
        attemptFailed(.connection(lastError), at: now)
    }

    /// An attempt failed, or a connection ended: report it, and wait or stop.
    private func attemptFailed(_ failure: IRCConnectionFailure, at now: Double) {
        if var core {
            core.connectionLost()
            _ = translate(core.takeEvents())
        }
        let wasConnected = welcomedNow
        welcomedNow = false
        core = nil
        notifier.reset()
        guard welcomedBefore else {
            stage = .stopped
            isStopped = true
            events.append(.couldNotConnect(failure))
            return
        }
        let delay = reconnect.nextDelay()
        stage = .waiting(until: now + delay)
        events.append(wasConnected ? .disconnected(failure, retryIn: delay) : .retryFailed(failure, retryIn: delay))
    }

    /// Reads, handles, writes; returns whether more is waiting.
    private func serve(_ connection: Connection, at now: Double) -> Bool {
        guard var core else { return false }
        var lines = 0
        var bytes = 0
        var ended: IRCConnectionFailure?
        reading: while lines < Self.linesPerTake {
            while lines < Self.linesPerTake, let frame = framer.next() {
                lines += 1
                switch frame {
                case .line(let line):
                    if let message = IRCMessage(parsing: line) { core.receive(message, at: now) }
                case .overlong: core.droppedOverlongLine()
                }
            }
            guard lines < Self.linesPerTake, bytes < Self.bytesPerTake else { break }
            do {
                let received = try readBuffer.withUnsafeMutableBytes { buffer in
                    Result { () throws(ConnectionError) in try connection.read(into: buffer) }
                }.get()
                switch received {
                case .bytes(let count):
                    bytes += count
                    framer.append(readBuffer[0..<count])
                case .nothing: break reading
                case .end:
                    ended = .closedByServer
                    break reading
                }
            } catch {
                ended = .connection(error)
                break reading
            }
        }
        core.tick(at: now)
        self.core = core
        // What the server said before it closed (ERROR, a refusal) says more than its EOF.
        if let closing = flush(connection) ?? ended { return finish(closing, at: now) }
        return framer.hasFrames || connection.hasBufferedInput || lines >= Self.linesPerTake
            || bytes >= Self.bytesPerTake
    }

    /// Writes what may go and reports the core's events; returns why the connection must
    /// end, if it must.
    @discardableResult
    private func flush(_ connection: Connection) -> IRCConnectionFailure? {
        guard var core else { return nil }
        var failure: IRCConnectionFailure?
        do {
            for line in core.takeOutgoing(at: clock()) {
                guard let bytes = try? line.wireBytes() else { continue }
                try connection.write(bytes)
            }
            try connection.flush()
        } catch {
            failure = .connection(error)
        }
        let reported = core.takeEvents()
        self.core = core
        if let closing = translate(reported) { failure = failure ?? closing }
        return failure
    }

    /// Writes what may go between takes (a send, a join, a typing state), and sets the
    /// descriptor for what is left: the pacing's next slot for lines it holds back, and
    /// writability for bytes the socket did not take. (A take sets it for its own lines;
    /// without this a line held back waited for the server's next line, a PING minutes
    /// later on a quiet connection.)
    private func flushBetweenTakes(_ connection: Connection) {
        flush(connection)
        rearm(hasMore: false)
    }

    private func finish(_ failure: IRCConnectionFailure, at now: Double) -> Bool {
        stage = .idle
        attemptFailed(failure, at: now)
        return false
    }

    private func join(_ channel: String, core: inout ClientCore) {
        let folded = IRCNames.folded(channel)
        guard channels[folded] == nil else { return }
        channels[folded] = channel
        core.join(channel)
    }

    private func rearm(hasMore: Bool) {
        switch stage {
        case .resolving(let resolution):
            try? poller.watch(resolution.descriptor)
            poller.wake(at: attemptStarted + options.welcomeTimeout)
        case .connecting(let connection, _):
            try? poller.watch(connection.descriptor, writable: true)
            poller.wake(at: attemptStarted + options.welcomeTimeout)
        case .connected(let connection):
            try? poller.watch(connection.descriptor, writable: connection.wantsWritable)
            poller.wake(at: core?.nextDeadline(after: clock()))
        case .waiting(let until):
            try? poller.watch(nil)
            poller.wake(at: until)
        case .idle, .stopped:
            try? poller.watch(nil)
            poller.wake(at: nil)
        }
        if hasMore { poller.signalMore() }
    }

    // MARK: - Events in draftline's terms

    /// Reports the core's events as the client's; returns why the connection must end,
    /// when the core closed it.
    private func translate(_ reported: [ClientEvent]) -> IRCConnectionFailure? {
        var closing: IRCConnectionFailure?
        var refusal: RegistrationFailure?
        for event in reported {
            switch event {
            case .registered(let nick, let capabilities):
                events.append(.connected(nick: nick, capabilities: capabilities, again: welcomedBefore))
                welcomedBefore = true
                welcomedNow = true
                reconnect.reset()
            case .registrationFailed(let failure): refusal = failure
            case .closed(let reason):
                switch reason {
                case .serverError(let text): closing = .serverError(text)
                case .registrationFailed:
                    closing = .registration(refusal ?? .noWelcome(seconds: options.welcomeTimeout))
                case .unresponsive: closing = .unresponsive
                case .quit: break
                }
            case .message(let message): arrived(message)
            case .typing(let nick, let conversation, let state):
                guard let sender = IRCAddressing.key(forNick: nick),
                    let target = target(of: conversation, sender: sender)
                else { continue }
                events.append(.typing(from: sender, in: target, state: state))
            case .acknowledged(let id, let time, let messageID):
                events.append(.acknowledged(id, time: time, messageID: messageID))
            case .failed(let id, let failure, let delivered): events.append(.failed(id, failure, delivered: delivered))
            case .joined(let channel):
                if let target = IRCAddressing.thread(forChannel: channel) { events.append(.joined(target)) }
            case .joinFailed(let channel, let code, let text):
                channels[IRCNames.folded(channel)] = nil
                if let target = IRCAddressing.thread(forChannel: channel) {
                    events.append(.joinFailed(target, code: code, text: text))
                }
            case .left(let channel, let kickedBy, let reason):
                channels[IRCNames.folded(channel)] = nil
                if let target = IRCAddressing.thread(forChannel: channel) {
                    events.append(.left(target, kickedBy: kickedBy, reason: reason))
                }
            case .nickChanged(let nick): events.append(.nickChanged(nick))
            case .serverNotice(let text): events.append(.serverNotice(text))
            case .overlongLines(let count): events.append(.overlongLines(count: count))
            }
        }
        if closing == nil, let refusal { closing = .registration(refusal) }
        return closing
    }

    private func target(of conversation: Conversation, sender: GlobalKey) -> InputTarget? {
        switch conversation {
        case .nick: return .privateChat(sender)
        case .channel(let channel): return IRCAddressing.thread(forChannel: channel)
        }
    }

    private func arrived(_ message: IncomingMessage) {
        guard let core else { return }
        let me = IRCNames.folded(core.nick, mapping: core.support.caseMapping)
        let channel = message.conversation.name
        let text = IRCFormatting.stripped(message.text)
        guard let sender = IRCAddressing.key(forNick: message.source.nick),
            let (target, body) = IRCAddressing.place(
                message.conversation, sender: message.source.nick, text: text,
                isAddressable: { nick in
                    IRCNames.folded(nick, mapping: core.support.caseMapping) == me
                        || core.roster.contains(nick, in: channel)
                })
        else {
            events.append(.unplaced(sender: message.source.nick, conversation: message.conversation))
            return
        }
        let content = message.kind == .action ? WireContent.text(body) : WireContent(line: body)
        events.append(
            .arrived(
                IRCArrival(
                    sender: sender, target: target, content: content, kind: message.kind, time: message.time,
                    messageID: message.messageID)))
    }
}
