/// Cuts a message's text into PRIVMSG texts that fit one IRC line each as the server will
/// relay it, at character boundaries.
///
/// A server relays `:nick!user@host PRIVMSG target :text` and cuts what is over 512 bytes
/// with CRLF (through a UTF-8 sequence, and without telling the receiver), so each piece
/// has at most ``budget(source:target:prefix:)`` bytes. Each line of a multi-line message
/// (LF, CRLF or CR) is sent on its own; empty lines are left out. Pieces are cut after the
/// last space that leaves the piece at least half full, else after the last whole
/// character (grapheme cluster) that fits, else (one character larger than a line) after
/// the last whole Unicode scalar: joined in order, the pieces of a line are the line.
public enum MessageSplitter {
    /// Why a text cannot be sent as IRC lines.
    public enum Refusal: Error, Equatable, Sendable {
        /// It holds a NUL, which no IRC line may carry.
        case nul
        /// A line of it starts with the CTCP marker (U+0001): receivers would take it for a
        /// CTCP request rather than text.
        case ctcpMarker
        /// It has no line that is not empty.
        case empty
        /// The prefix leaves no room for text (a target name near the limit).
        case noRoom
    }

    /// The most bytes of text one PRIVMSG to `target` may carry when the server relays it
    /// from `source`, minus the bytes of `prefix` (a reply's `bob: `) that go before every
    /// piece.
    public static func budget(source: IRCSource, target: String, prefix: String = "") -> Int {
        let relayed = ":\(source) PRIVMSG \(target) :"
        return IRCMessage.maximumBodyBytes - relayed.utf8.count - prefix.utf8.count
    }

    /// The texts to send for `text`: each line of it in pieces of at most `budget` bytes.
    public static func split(_ text: String, budget: Int) throws(Refusal) -> [String] {
        guard budget >= 4 else { throw .noRoom }  // room for any one scalar
        guard !text.unicodeScalars.contains("\u{0}") else { throw .nul }
        var pieces: [String] = []
        for line in lines(of: text) where !line.isEmpty {
            guard line.unicodeScalars.first != "\u{1}" else { throw .ctcpMarker }
            pieces += piecesOf(line, budget: budget)
        }
        guard !pieces.isEmpty else { throw .empty }
        return pieces
    }

    /// The lines of a text, cut at LF, CRLF and CR (on scalars: `"\r\n"` is one character).
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                lines.append(Substring(scalars[start..<index]))
                var next = scalars.index(after: index)
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                start = next
                index = next
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(Substring(scalars[start..<scalars.endIndex]))
        return lines
    }

    private static func piecesOf(_ line: Substring, budget: Int) -> [String] {
        var pieces: [String] = []
        var rest = String(line)
        while rest.utf8.count > budget {
            var end = rest.startIndex
            var used = 0
            var lastSpaceEnd: String.Index?
            for character in rest {
                let size = character.utf8.count
                guard used + size <= budget else { break }
                used += size
                end = rest.index(after: end)
                if character == " " && used * 2 >= budget { lastSpaceEnd = end }
            }
            if let lastSpaceEnd { end = lastSpaceEnd }
            if end == rest.startIndex {
                // One character larger than a line: cut it between its scalars.
                used = 0
                for scalar in rest.unicodeScalars {
                    guard used + scalar.utf8.count <= budget else { break }
                    used += scalar.utf8.count
                    end = rest.unicodeScalars.index(after: end)
                }
            }
            pieces.append(String(rest.unicodeScalars[..<end]))
            rest = String(rest.unicodeScalars[end...])
        }
        if !rest.isEmpty { pieces.append(rest) }
        return pieces
    }
}
