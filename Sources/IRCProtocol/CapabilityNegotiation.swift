/// IRCv3 capability negotiation (`CAP LS 302`, `REQ`, `ACK`/`NAK`, `END`, and `NEW`/`DEL`
/// later) as a state machine: lines in, lines to send out.
///
/// Only the capabilities in ``wanted`` that the server offers are requested; what the
/// server acknowledges is ``enabled``, and nothing else is assumed: a client sends a tag
/// only when `message-tags` is in it.
public struct CapabilityNegotiation: Sendable {
    /// What draftline asks for when offered.
    public static let defaultWanted: Set<String> = ["message-tags", "echo-message", "server-time"]

    public let wanted: Set<String>
    /// What the server offered, with each capability's value (`sasl=PLAIN`: `PLAIN`).
    public private(set) var offered: [String: String] = [:]
    /// What the server acknowledged and has not withdrawn.
    public private(set) var enabled: Set<String> = []
    /// Whether registration may go on: the server answered the listing and the request, or
    /// does not know CAP.
    public private(set) var isFinished = false
    private var requested: Set<String> = []

    public init(wanted: Set<String> = CapabilityNegotiation.defaultWanted) {
        self.wanted = wanted
    }

    /// The first line: `CAP LS 302`.
    public static let start = IRCMessage("CAP", "LS", "302")

    /// Takes a line from the server; returns the lines to send in answer.
    public mutating func handle(_ message: IRCMessage) -> [IRCMessage] {
        switch message.command {
        case "CAP": return handleCap(message)
        case "421", "451", "410":
            // Unknown command, not registered, invalid CAP subcommand: a server without CAP.
            guard message[parameter: 1].uppercased() == "CAP" || message.command == "410", !isFinished else {
                return []
            }
            isFinished = true
            return []
        case "001":
            isFinished = true
            return []
        default: return []
        }
    }

    private mutating func handleCap(_ message: IRCMessage) -> [IRCMessage] {
        let subcommand = message[parameter: 1].uppercased()
        let list = message.parameters.last ?? ""
        let continued = message.parameters.count >= 4 && message[parameter: 2] == "*"
        switch subcommand {
        case "LS":
            for item in list.split(separator: " ") {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                offered[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            guard !continued, !isFinished else { return [] }
            return request(wanted.filter { offered[$0] != nil }, ending: true)
        case "ACK":
            for item in list.split(separator: " ") {
                var name = item
                if name.first == "-" {
                    enabled.remove(String(name.dropFirst()))
                    continue
                }
                while let first = name.first, first == "~" || first == "=" { name = name.dropFirst() }
                enabled.insert(String(name))
                requested.remove(String(name))
            }
            return finishIfAnswered()
        case "NAK":
            for item in list.split(separator: " ") { requested.remove(String(item)) }
            requested.removeAll()
            return finishIfAnswered()
        case "NEW":
            var added: Set<String> = []
            for item in list.split(separator: " ") {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                offered[name] = parts.count > 1 ? String(parts[1]) : ""
                if wanted.contains(name) && !enabled.contains(name) { added.insert(name) }
            }
            return request(added, ending: false)
        case "DEL":
            for item in list.split(separator: " ") {
                offered.removeValue(forKey: String(item))
                enabled.remove(String(item))
            }
            return []
        default: return []
        }
    }

    private mutating func request(_ names: Set<String>, ending: Bool) -> [IRCMessage] {
        guard !names.isEmpty else {
            guard ending else { return [] }
            isFinished = true
            return [IRCMessage("CAP", "END")]
        }
        requested.formUnion(names)
        return [IRCMessage("CAP", "REQ", names.sorted().joined(separator: " "))]
    }

    private mutating func finishIfAnswered() -> [IRCMessage] {
        guard requested.isEmpty, !isFinished else { return [] }
        isFinished = true
        return [IRCMessage("CAP", "END")]
    }
}
