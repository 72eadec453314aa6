/// Who a line comes from: `nick!user@host` for a client, a server's name for a server.
public struct IRCSource: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The nick, or the server's name when the source is a server.
    public var nick: String
    public var user: String?
    public var host: String?

    public init(nick: String, user: String? = nil, host: String? = nil) {
        self.nick = nick
        self.user = user
        self.host = host
    }

    /// Reads a source as written after the `:` of a line.
    public init(parsing text: Substring) {
        var rest = text
        var host: Substring?
        var user: Substring?
        if let (before, after) = rest.cut(at: UInt8(ascii: "@")) {
            host = after
            rest = before
        }
        if let (before, after) = rest.cut(at: UInt8(ascii: "!")) {
            user = after
            rest = before
        }
        self.init(nick: String(rest), user: user.map(String.init), host: host.map(String.init))
    }

    /// `nick!user@host`, with the parts it has.
    public var description: String {
        nick + (user.map { "!" + $0 } ?? "") + (host.map { "@" + $0 } ?? "")
    }
}
