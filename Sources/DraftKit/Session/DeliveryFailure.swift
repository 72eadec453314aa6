/// Why a chat server did not take a message (SPEC §6), as data: the presenter words it.
/// The message's text is the user's again, as after any failed send (SPEC §1a).
public enum DeliveryFailure: Equatable, Sendable {
    /// Not connected to the server: still connecting, or the connection is gone.
    case notConnected
    /// Nobody by that name is on the network (IRC's `401`).
    case noSuchUser(String)
    /// The thread's channel does not take the message (`404`, `403`, `442`).
    case channelRefused(String)
    /// The server refused it with another reply: its code and text.
    case refused(code: String, text: String)
    /// The server relayed it cut short: `relayed` of the `sent` bytes.
    case cut(sent: Int, relayed: Int)
    /// The connection ended before the server took it.
    case connectionLost
    /// The server did not answer in time.
    case noAnswer
    /// The text cannot travel as chat lines (a NUL in it), or the chat has no address
    /// there: what it is.
    case unsendable(String)
}
