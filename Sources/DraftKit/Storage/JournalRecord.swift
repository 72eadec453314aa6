/// One line of the journal: where an appended message now is.
///
/// A line is `<c|t> TAB <chat> TAB <segment> TAB <position> TAB <messageID> LF`: the
/// chat's kind (`c` a private chat, `t` a thread) and name, the segment's number, the
/// message's index in it, and its ID (`-` when the ID could not be written on one line),
/// so a reader can check it found the message it was told of.
struct JournalRecord: Equatable {
    var chat: ChatID
    var segment: Int
    var position: Int
    var messageID: String

    /// The longest line a reader takes; longer ones are skipped.
    static let maximumLineBytes = 1024

    var line: String {
        let kind = chat.kind.code
        let id =
            messageID.isEmpty || messageID.utf8.count > 200
                || messageID.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{7F}" } ? "-" : messageID
        return "\(kind)\t\(chat.rawValue)\t\(segment)\t\(position)\t\(id)\n"
    }
}

extension JournalRecord {
    /// Parses a line without its newline; `nil` for anything that is not a record (a
    /// reader skips it).
    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 5, let segment = Int(fields[2]), (0...SegmentIndex.maximum).contains(segment),
            let position = Int(fields[3]), (0..<SegmentCount.largestSegment).contains(position)
        else { return nil }
        guard let kind = ChatID.Kind(code: fields[0]), let chat = ChatID(String(fields[1]), kind: kind) else {
            return nil
        }
        self.init(chat: chat, segment: segment, position: position, messageID: String(fields[4]))
    }
}
