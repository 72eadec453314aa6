/// Where a chat's segments are, and which is the last: the file names of the
/// property-list layout, and the hints that find the last segment in two `stat` calls.
final class SegmentIndex {
    /// The data directory.
    let directory: String
    private var lastSegmentHint: [ChatID: Int] = [:]

    /// The highest segment index read or written: eight digits.
    static let maximum = 99_999_999

    init(directory: String) { self.directory = directory }

    /// Where chats of a kind live.
    static func root(of kind: ChatID.Kind, in directory: String) -> String {
        switch kind {
        case .privateChat: return directory + "/chats"
        case .thread: return directory + "/threads"
        }
    }

    /// A chat's directory.
    func path(of chat: ChatID) -> String { Self.root(of: chat.kind, in: directory) + "/" + chat.rawValue }

    /// The path of a chat's segment number `index`.
    func segmentPath(_ chat: ChatID, _ index: Int) -> String {
        let digits = String(index)
        return path(of: chat) + "/" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".plist"
    }

    /// The index of a chat's last segment, or `nil` when it has none.
    ///
    /// A hint is right when its segment exists and the next does not. The hints tried:
    /// the index this object remembers, then the `last` link (each checked with two
    /// `lstat` calls). When neither holds (after a crash, or files moved by hand), the
    /// chat's directory is listed once and the highest segment number wins, gaps or not.
    /// Numbers past ``maximum`` are ignored, so no name can make the arithmetic overflow.
    func lastSegment(of chat: ChatID) -> Int? {
        func exists(_ index: Int) -> Bool { FileSystem.exists(segmentPath(chat, index)) }
        func isLast(_ index: Int) -> Bool {
            (0...Self.maximum).contains(index) && exists(index)
                && (index == Self.maximum || !exists(index + 1))
        }
        if let hint = lastSegmentHint[chat], isLast(hint) { return hint }
        if let link = FileSystem.linkTarget(path(of: chat) + "/last"), let hint = Self.number(link), isLast(hint) {
            lastSegmentHint[chat] = hint
            return hint
        }
        guard let names = try? FileSystem.names(in: path(of: chat)),
            let last = names.compactMap(Self.number).max()
        else { return nil }
        lastSegmentHint[chat] = last
        return last
    }

    /// The number in a segment's name (`00000042.plist`), when it is one within range.
    static func number(_ name: String) -> Int? {
        guard name.hasSuffix(".plist") else { return nil }
        let digits = name.dropLast(6)
        guard digits.count == 8, digits.utf8.allSatisfy({ (48...57).contains($0) }),
            let number = Int(digits), number <= maximum
        else { return nil }
        return number
    }

    /// Remembers a chat's last segment, and moves its `last` link when a new segment
    /// started. A link that cannot be made only costs the next reader a probe.
    func noteLastSegment(_ chat: ChatID, _ index: Int, temporaryDirectory: String) {
        let link = path(of: chat) + "/last"
        let target = String(segmentPath(chat, index).split(separator: "/").last!)
        if FileSystem.linkTarget(link) != target {
            try? FileSystem.replaceLink(link, to: target, temporaryDirectory: temporaryDirectory)
        }
        lastSegmentHint[chat] = index
    }
}
