/// What a server says of itself in its `005` (`RPL_ISUPPORT`) lines, as far as the client
/// needs it.
public struct ServerSupport: Equatable, Sendable {
    /// The longest nick (`NICKLEN`).
    public var nickLength = 30
    /// The longest channel name (`CHANNELLEN`).
    public var channelLength = 50
    /// How names compare (`CASEMAPPING`).
    public var caseMapping = IRCNames.CaseMapping.rfc1459
    /// The characters that mark a member's rank in `NAMES` (`PREFIX=(ov)@+`: `@+`).
    public var memberPrefixes: Set<Character> = ["@", "+"]
    /// The characters a channel target may start with to reach only some ranks
    /// (`STATUSMSG=@+`).
    public var statusPrefixes: Set<Character> = []

    public init() {}

    /// Takes one `005` line's tokens (its parameters between the nick and the text).
    public mutating func update(_ message: IRCMessage) {
        for token in message.parameters.dropFirst().dropLast() {
            let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            switch parts[0] {
            case "NICKLEN": nickLength = Int(value).map { min(max($0, 1), 64) } ?? nickLength
            case "CHANNELLEN": channelLength = Int(value).map { min(max($0, 2), 256) } ?? channelLength
            case "CASEMAPPING": caseMapping = value == "ascii" ? .ascii : .rfc1459
            case "PREFIX":
                if let close = value.firstIndex(of: ")") { memberPrefixes = Set(value[value.index(after: close)...]) }
            case "STATUSMSG": statusPrefixes = Set(value)
            default: break
            }
        }
    }
}
