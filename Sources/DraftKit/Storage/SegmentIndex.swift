/// Which segments a chat has, and which is the last: the file names of the property-list
/// layout, and the hints that find the last segment in two `fstatat` calls.
final class SegmentIndex {
    private var lastSegmentHint: [ChatID: Int] = [:]
    /// The listing a walk back through each chat used (``kept(_:endingAt:)``).
    private var walked: [ChatID: [Int]] = [:]

    /// The highest segment index read or written: eight digits.
    static let maximum = 99_999_999

    /// The file name of segment number `index`: eight digits, `.plist`.
    static func name(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".plist"
    }

    /// The index of a chat's last segment, or `nil` when it has none: the remembered hint,
    /// then the `last` link, each right when its segment exists and the next does not; else
    /// one listing. A probe or a listing that fails throws: an append planned on a failed
    /// one would replace segment 0.
    func lastSegment(of chat: ChatID, in directory: Directory) throws(FileError) -> Int? {
        var listed: [Int]?
        return try lastSegment(of: chat, in: directory, listed: &listed)
    }

    /// ``lastSegment(of:in:)``, and in `listed` the listing it made, if any, for ``Earlier``.
    func lastSegment(of chat: ChatID, in directory: Directory, listed: inout [Int]?) throws(FileError) -> Int? {
        func exists(_ index: Int) throws(FileError) -> Bool { try directory.exists(Self.name(index)) }
        func isLast(_ index: Int) throws(FileError) -> Bool {
            guard (0...Self.maximum).contains(index), try exists(index) else { return false }
            if index == Self.maximum { return true }
            return try !exists(index + 1)
        }
        if let hint = lastSegmentHint[chat], try isLast(hint) { return hint }
        if let link = directory.linkTarget("last"), let hint = Self.number(link), try isLast(hint) {
            lastSegmentHint[chat] = hint
            return hint
        }
        let listing = try segments(in: directory)
        listed = listing
        guard let last = listing.last else { return nil }
        lastSegmentHint[chat] = last
        return last
    }

    /// The numbers of the segments a chat's directory holds, in order (one listing).
    func segments(in directory: Directory) throws(FileError) -> [Int] {
        try directory.names().compactMap(Self.number).sorted()
    }

    /// The listing a walk back through `chat` used, while its last is still `last`: only the
    /// last segment changes, so it names every segment before it.
    func kept(_ chat: ChatID, endingAt last: Int) -> [Int]? {
        walked[chat].flatMap { $0.last == last ? $0 : nil }
    }

    /// Keeps the listing a walk back through `chat` used, for the walks that follow.
    func keep(_ listing: [Int], of chat: ChatID) { walked[chat] = listing }

    /// The sizes of an empty segment, draftline's and Foundation's or plistlib's (42 bytes):
    /// a walk back passes a file of either size over by its status alone.
    static let emptySegmentSizes: Set<Int> = [SegmentEncoder.segment([]).count, 42]

    /// A walk back through a chat's segments that may hold messages: the next lower number
    /// costs one `fstatat`; past a gap the directory is listed once for the whole walk
    /// (listed at each step, 2,000 empty segments in gaps made an open take 8 s). The empty
    /// ones passed over (``passed``) are removed where safe (``SegmentStore/removeEmpty(passedBy:)``).
    struct Earlier {
        let index: SegmentIndex
        let chat: ChatID
        let directory: Directory
        private var listing: [Int]?
        /// Whether the index keeps `listing` for the next walk.
        private var kept = false
        /// The chat's last segment, once ``lastSegment()`` found it.
        private(set) var last: Int?
        /// The empty segments ``segment(before:)`` passed over, highest first.
        private(set) var passed: [Int] = []

        init(index: SegmentIndex, chat: ChatID, directory: Directory) {
            self.index = index
            self.chat = chat
            self.directory = directory
        }

        /// The chat's last segment; a listing made to find it, or kept from an earlier walk
        /// while the last segment stays, is the walk's: a directory is listed once a process.
        mutating func lastSegment() throws(FileError) -> Int? {
            last = try index.lastSegment(of: chat, in: directory, listed: &listing)
            if listing == nil, let last, let walked = index.kept(chat, endingAt: last) {
                listing = walked
                kept = true
            }
            return last
        }

        /// The segments `removed` are gone: the listings no longer name them.
        mutating func forget(_ removed: Set<Int>) {
            passed.removeAll(where: removed.contains)
            guard let numbers = listing else { return }
            listing = numbers.filter { !removed.contains($0) }
            if kept, let listing { index.keep(listing, of: chat) }
        }

        /// The segment before `number` that exists and is not of an empty one's size.
        mutating func segment(before number: Int) throws(FileError) -> Int? {
            var number = number
            while let previous = try existing(before: number) {
                guard let status = try directory.status(of: SegmentIndex.name(previous)) else { return previous }
                if !status.isRegularFile || !SegmentIndex.emptySegmentSizes.contains(status.size) { return previous }
                passed.append(previous)
                number = previous
            }
            return nil
        }

        /// The segment before `number` that exists; `nil` when there is none.
        private mutating func existing(before number: Int) throws(FileError) -> Int? {
            guard number > 0 else { return nil }
            if listing == nil, try directory.exists(SegmentIndex.name(number - 1)) { return number - 1 }
            if listing == nil { listing = try index.segments(in: directory) }
            guard let numbers = listing else { return nil }
            if !kept { index.keep(numbers, of: chat) }
            kept = true
            // The last number below `number`, by halves (the listing is sorted).
            var low = 0
            var high = numbers.count
            while low < high {
                let middle = (low + high) / 2
                if numbers[middle] < number { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? numbers[low - 1] : nil
        }
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

    /// Remembers a chat's last segment, and moves its `last` link when a new one started.
    /// Without `linkFirst` a chat of one segment gets no link: a bulk load makes one file
    /// less a chat.
    func noteLastSegment(
        _ chat: ChatID, _ index: Int, in directory: Directory, temporary: Directory, linkFirst: Bool
    ) {
        let target = Self.name(index)
        let link = directory.linkTarget("last")
        if link != target && (index > 0 || link != nil || linkFirst) {
            try? directory.replaceLink("last", to: target, temporary: temporary)  // a hint: a failure costs a probe
        }
        lastSegmentHint[chat] = index
    }
}
