/// Which segments a chat has, and which is the last: the file names of the property-list
/// layout, and the hints that find the last segment in two `fstatat` calls.
final class SegmentIndex {
    private var lastSegmentHint: [ChatID: Int] = [:]

    /// The highest segment index read or written: eight digits.
    static let maximum = 99_999_999

    /// The file name of segment number `index`: eight digits, `.plist`.
    static func name(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".plist"
    }

    /// The index of a chat's last segment, or `nil` when it has none.
    ///
    /// A hint is right when its segment exists and the next does not. The hints tried:
    /// the index this object remembers, then the `last` link (each checked with two
    /// `fstatat` calls). When neither holds (after a crash, or files moved by hand), the
    /// chat's directory is listed once and the highest segment number wins, gaps or not.
    /// Numbers past ``maximum`` are ignored, so no name can make the arithmetic overflow.
    func lastSegment(of chat: ChatID, in directory: Directory) -> Int? {
        func exists(_ index: Int) -> Bool { directory.exists(Self.name(index)) }
        func isLast(_ index: Int) -> Bool {
            (0...Self.maximum).contains(index) && exists(index) && (index == Self.maximum || !exists(index + 1))
        }
        if let hint = lastSegmentHint[chat], isLast(hint) { return hint }
        if let link = directory.linkTarget("last"), let hint = Self.number(link), isLast(hint) {
            lastSegmentHint[chat] = hint
            return hint
        }
        guard let last = segments(in: directory).last else { return nil }
        lastSegmentHint[chat] = last
        return last
    }

    /// The numbers of the segments a chat's directory holds, in order: one listing, so
    /// the cost is in the files there are, not in the numbers between them.
    func segments(in directory: Directory) -> [Int] {
        ((try? directory.names()) ?? []).compactMap(Self.number).sorted()
    }

    /// The segment before `index` that exists: `index - 1` when it does (one `fstatat`),
    /// else the highest below it in a listing of the directory; `nil` when there is none.
    func segment(before index: Int, in directory: Directory) -> Int? {
        guard index > 0 else { return nil }
        if directory.exists(Self.name(index - 1)) { return index - 1 }
        return segments(in: directory).last { $0 < index }
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
    /// started. A link that cannot be made only costs the next reader a probe. With
    /// `linkFirst` off, a chat whose only segment is the first gets no link (a listing of
    /// one file finds it): a bulk load of many small chats makes one file less for each.
    func noteLastSegment(
        _ chat: ChatID, _ index: Int, in directory: Directory, temporary: Directory, linkFirst: Bool = true
    ) {
        let target = Self.name(index)
        let link = directory.linkTarget("last")
        if link != target && (index > 0 || link != nil || linkFirst) {
            try? directory.replaceLink("last", to: target, temporary: temporary)
        }
        lastSegmentHint[chat] = index
    }
}
