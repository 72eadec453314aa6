/// A client-to-client request or answer inside a PRIVMSG or NOTICE: `\u{1}COMMAND text\u{1}`.
///
/// The closing `\u{1}` is optional when reading, as clients in the wild omit it.
public struct CTCP: Equatable, Sendable {
    /// The command, upper-cased (`ACTION`, `VERSION`, `PING`).
    public var command: String
    /// What follows the command, without the space after it.
    public var text: String

    public init(_ command: String, _ text: String = "") {
        self.command = command
        self.text = text
    }

    /// The marker byte that starts and ends a CTCP message.
    public static let marker: Character = "\u{1}"

    /// Reads a CTCP message from a PRIVMSG's or NOTICE's text; `nil` when it is plain text.
    public init?(parsing message: String) {
        guard message.unicodeScalars.first == "\u{1}" else { return nil }
        var body = Substring(message.utf8.dropFirst())
        if body.utf8.last == 0x01 { body = Substring(body.utf8.dropLast()) }
        if let (command, text) = body.cut(at: 0x20) {
            self.init(command.uppercased(), String(text))
        } else {
            self.init(body.uppercased(), "")
        }
        guard !command.isEmpty else { return nil }
    }

    /// The text of a PRIVMSG or NOTICE that carries this message.
    public var messageText: String {
        "\u{1}" + command + (text.isEmpty ? "" : " " + text) + "\u{1}"
    }
}
