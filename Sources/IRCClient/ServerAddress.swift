/// A server to connect to, from `--server irc://HOST[:PORT]` or `ircs://HOST[:PORT]`.
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// Whether the connection is TLS (`ircs://`).
    public var usesTLS: Bool

    public init(host: String, port: Int, usesTLS: Bool) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// Why a `--server` value is not a server address.
    public enum Problem: Error, Equatable, Sendable {
        /// Neither `irc://` nor `ircs://`.
        case scheme
        /// No host, or one with characters no host has.
        case host
        /// A port that is not a number from 1 to 65535.
        case port
    }

    /// Reads `irc://HOST[:PORT]` (default port 6667) or `ircs://HOST[:PORT]` (6697); an
    /// IPv6 address in brackets (`irc://[::1]:6667`); a trailing `/` is allowed.
    public init(parsing text: String) throws(Problem) {
        var rest: Substring
        if text.hasPrefix("irc://") {
            usesTLS = false
            rest = text.dropFirst(6)
        } else if text.hasPrefix("ircs://") {
            usesTLS = true
            rest = text.dropFirst(7)
        } else {
            throw .scheme
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .host }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .host }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw .host }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                portText = rest[rest.index(after: colon)...]
                rest = rest[..<colon]
            }
            host = String(rest)
            guard !host.isEmpty, host.utf8.count <= 253,
                host.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "-")
                })
            else { throw .host }
        }
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number), portText.allSatisfy(\.isNumber) else {
                throw .port
            }
            port = number
        } else {
            port = usesTLS ? 6697 : 6667
        }
    }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "ircs" : "irc")://\(shown):\(port)"
    }
}
