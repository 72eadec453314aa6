import DraftKit
import IRCProtocol

/// What the client reports, in draftline's terms, from ``IRCClient/take()``.
public enum IRCClientEvent: Equatable, Sendable {
    /// Welcomed by the server as `nick`, with these capabilities; `again` after a
    /// reconnect (the channels of open threads are being joined again).
    case connected(nick: String, capabilities: Set<String>, again: Bool)
    /// The first connection failed: the client has stopped (exit status 2 for draftline).
    case couldNotConnect(IRCConnectionFailure)
    /// A connection that was up is gone; the next attempt is in `retryIn` seconds.
    case disconnected(IRCConnectionFailure, retryIn: Double)
    /// An attempt to connect again failed; the next is in `retryIn` seconds.
    case retryFailed(IRCConnectionFailure, retryIn: Double)
    /// A message from someone else, placed in a draftline chat.
    case arrived(IRCArrival)
    /// A message no draftline chat holds (a nick that is no global_key, a channel that is
    /// no thread): who sent it and where.
    case unplaced(sender: String, conversation: Conversation)
    /// Someone's typing state in a chat changed (its expiry included).
    case typing(from: GlobalKey, in: InputTarget, state: TypingState)
    /// The server has the send (see ``ClientEvent/acknowledged(_:time:messageID:)``).
    case acknowledged(SendID, time: Double?, messageID: String?)
    /// The send did not reach its receiver; `delivered` of its lines had.
    case failed(SendID, SendFailure, delivered: Int)
    /// In a thread's channel now.
    case joined(InputTarget)
    /// The server refused to let the client into a thread's channel.
    case joinFailed(InputTarget, code: String, text: String)
    /// Out of a thread's channel (kicked, with who and why).
    case left(InputTarget, kickedBy: String?, reason: String)
    /// The server changed the client's nick.
    case nickChanged(String)
    /// A notice from the server.
    case serverNotice(String)
    /// Lines longer than any server may send were dropped.
    case overlongLines(count: Int)
}

/// Why a connection could not be made or was lost.
public enum IRCConnectionFailure: Equatable, Sendable {
    /// Resolving, connecting, TLS, a read or a write failed.
    case connection(ConnectionError)
    /// The server refused to register the client.
    case registration(RegistrationFailure)
    /// The server closed the connection.
    case closedByServer
    /// The server sent `ERROR` (its text).
    case serverError(String)
    /// The server stopped answering.
    case unresponsive
}

/// A message from someone else, as draftline stores it.
public struct IRCArrival: Equatable, Sendable {
    public var sender: GlobalKey
    /// The chat: the private chat with the sender, or the thread (with the user it
    /// replies to).
    public var target: InputTarget
    public var content: WireContent
    public var kind: IncomingMessage.Kind
    /// The server's time (`server-time`), seconds since 1970.
    public var time: Double?
    /// The server's ID for it (`msgid`), opaque.
    public var messageID: String?

    public init(
        sender: GlobalKey, target: InputTarget, content: WireContent, kind: IncomingMessage.Kind = .message,
        time: Double? = nil, messageID: String? = nil
    ) {
        self.sender = sender
        self.target = target
        self.content = content
        self.kind = kind
        self.time = time
        self.messageID = messageID
    }
}
