/// What happened on a connection, as ``ClientCore`` reports it.
public enum ClientEvent: Equatable, Sendable {
    /// The server welcomed the client (`001`), with this nick and these capabilities.
    case registered(nick: String, capabilities: Set<String>)
    /// The server will not register the client; the connection ends.
    case registrationFailed(RegistrationFailure)
    /// A message from someone else (PRIVMSG, an ACTION, a NOTICE from a user).
    case message(IncomingMessage)
    /// Someone's typing state in a conversation changed (a `+typing` tag, its expiry, a
    /// message from them, their leaving).
    case typing(from: String, in: Conversation, state: TypingState)
    /// A send reached the server: every line of it was echoed (`echo-message`) or came
    /// before an answered PING with no error. The first line's `time` and `msgid`, when
    /// the server gave them.
    case acknowledged(SendID, time: Double?, messageID: String?)
    /// A send did not reach its receiver; `delivered` lines of it had been acknowledged
    /// before it failed.
    case failed(SendID, SendFailure, delivered: Int)
    /// The client is in a channel now (its own `JOIN` came back).
    case joined(channel: String)
    /// The server refused a `JOIN` (numeric and its text).
    case joinFailed(channel: String, code: String, text: String)
    /// The client is no longer in a channel (its own `PART`, or a `KICK` with the reason).
    case left(channel: String, kickedBy: String?, reason: String)
    /// The server changed the client's nick (a collision, a forced change).
    case nickChanged(String)
    /// A notice from the server itself (not a user): text worth a line, such as a kill
    /// warning.
    case serverNotice(String)
    /// Lines longer than any server may send, dropped unread since the last report.
    case overlongLines(count: Int)
    /// The connection must end: the driver closes the socket (every pending send has
    /// failed already, in the events before this one).
    case closed(CloseReason)
}

/// Why the server refused to register the client.
public enum RegistrationFailure: Equatable, Sendable {
    /// `432`: no valid nick on this server (the server's text).
    case erroneousNick(String, text: String)
    /// `433`, `436`, `437`: the nick is taken.
    case nickInUse(String)
    /// No welcome within the time allowed.
    case noWelcome(seconds: Double)
    /// `ERROR`, `465` or another refusal before the welcome (the server's text).
    case refused(String)
}

/// Why a connection ends.
public enum CloseReason: Equatable, Sendable {
    /// The server sent `ERROR` (its text).
    case serverError(String)
    /// Registration failed (an event says how).
    case registrationFailed
    /// The server did not answer a PING or a send in time.
    case unresponsive
    /// The client quit.
    case quit
}

/// Where a message belongs: a private conversation with a nick, or a channel.
public enum Conversation: Equatable, Hashable, Sendable {
    case nick(String)
    case channel(String)

    /// The nick or the channel, as the server spells it.
    public var name: String {
        switch self {
        case .nick(let nick): return nick
        case .channel(let channel): return channel
        }
    }
}

/// One message that came from someone else.
public struct IncomingMessage: Equatable, Sendable {
    /// How it was sent.
    public enum Kind: Equatable, Sendable {
        case message
        /// A CTCP ACTION (`/me waves`): the text is what follows `/me`.
        case action
        case notice
    }

    public var source: IRCSource
    public var conversation: Conversation
    /// The text as sent (formatting codes included).
    public var text: String
    public var kind: Kind
    /// The `time` tag's moment, in seconds since 1970, when the server gave one.
    public var time: Double?
    /// The `msgid` tag, opaque.
    public var messageID: String?

    public init(
        source: IRCSource, conversation: Conversation, text: String, kind: Kind = .message, time: Double? = nil,
        messageID: String? = nil
    ) {
        self.source = source
        self.conversation = conversation
        self.text = text
        self.kind = kind
        self.time = time
        self.messageID = messageID
    }
}

/// Names one send (all the lines of one message) across its acknowledgement.
public struct SendID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "send \(rawValue)" }
}

/// Why a send did not reach its receiver.
public enum SendFailure: Equatable, Sendable {
    /// `401`: nobody by that nick is on the network.
    case noSuchNick(String)
    /// `404`, `403`, `442`: the channel does not take the message from the client.
    case cannotSendToChannel(String)
    /// Another numeric refused it (code, text).
    case refused(code: String, text: String)
    /// The server cut the line (its echo is shorter than what was sent).
    case cut(sent: Int, relayed: Int)
    /// The connection ended before the server acknowledged it.
    case disconnected
    /// The server did not answer in time.
    case noAnswer
}

/// Why a send was refused before anything went on the wire.
public enum SendRefusal: Error, Equatable, Sendable {
    /// Not connected, or not yet welcomed.
    case notConnected
    /// The text cannot be IRC lines.
    case text(MessageSplitter.Refusal)
    /// The target is no nick or channel.
    case invalidTarget(String)
}
