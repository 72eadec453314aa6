/// Who is in each channel the client is in, by folded nick: from `NAMES`, `JOIN`, `PART`,
/// `KICK`, `QUIT` and `NICK`.
public struct ChannelRoster: Sendable {
    private var members: [String: Set<String>] = [:]
    public var caseMapping = IRCNames.CaseMapping.rfc1459

    public init() {}

    /// Whether `nick` is in `channel`, as far as the client has heard.
    public func contains(_ nick: String, in channel: String) -> Bool {
        members[fold(channel)]?.contains(fold(nick)) ?? false
    }

    /// The channels the client knows members of.
    public var channels: [String] { Array(members.keys) }

    public mutating func add(_ nick: String, to channel: String) {
        let (channel, nick) = (fold(channel), fold(nick))
        members[channel, default: []].insert(nick)
    }

    public mutating func remove(_ nick: String, from channel: String) {
        let (channel, nick) = (fold(channel), fold(nick))
        members[channel]?.remove(nick)
    }

    /// The client itself left `channel`: forget its members.
    public mutating func forget(_ channel: String) {
        let channel = fold(channel)
        members[channel] = nil
    }

    /// `nick` quit: it leaves every channel.
    public mutating func removeEverywhere(_ nick: String) {
        let folded = fold(nick)
        for channel in members.keys { members[channel]?.remove(folded) }
    }

    /// `old` is now called `new`, in every channel it is in.
    public mutating func rename(_ old: String, to new: String) {
        let (before, after) = (fold(old), fold(new))
        for channel in members.keys where members[channel]?.remove(before) != nil { members[channel]?.insert(after) }
    }

    private func fold(_ name: String) -> String { IRCNames.folded(name, mapping: caseMapping) }
}
