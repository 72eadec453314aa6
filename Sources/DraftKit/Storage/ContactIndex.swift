import Foundation

/// `contacts.plist` looked up by key without decoding it: `contacts.index`, a cache with one
/// line per contact in key order, searched by halves, and a first line naming the version
/// of `contacts.plist` it was built from. Built with the own readers (a million contacts in
/// about a second); Foundation's decoder takes seconds a megabyte, so a file only it reads
/// is read up to ``foundationLimit``. Kept open, so another process's rebuild never changes
/// it under a reader.
final class ContactIndex: @unchecked Sendable {
    // @unchecked: every stored property is a constant, and reads go through `pread`, which
    // is safe to call from any thread.

    /// The index's name in the data directory.
    static let name = "contacts.index"
    /// The contacts file's name.
    static let sourceName = "contacts.plist"
    /// The most bytes `contacts.plist` may have.
    static let sourceLimit = 64 * 1024 * 1024
    /// The most bytes of a `contacts.plist` that only Foundation's decoder reads.
    static let foundationLimit = 1024 * 1024
    /// The most bytes the strings of `contacts.plist` may weigh once read: an index of a
    /// file at ``sourceLimit`` whose every name is escaped.
    static let expansionLimit = 2 * sourceLimit
    /// The longest line the index holds (a longer name is cut to fit).
    static let maximumLine = 16 * 1024

    private let bytes: Bytes
    private let start: Int
    private let end: Int
    /// Entries of `contacts.plist` without a valid key.
    let skipped: Int
    /// How many contacts the index holds.
    let count: Int
    /// Why the index, built, could not be written: the next start builds it again.
    let notWritten: ContactsProblem?

    /// Where the index's bytes are: an open file, or memory when it was just built.
    private enum Bytes {
        case file(FileDescriptor)
        case memory([UInt8])
    }

    private init(bytes: Bytes, start: Int, end: Int, counts: Counts, notWritten: ContactsProblem? = nil) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.skipped = counts.skipped
        self.count = counts.contacts
        self.notWritten = notWritten
    }

    deinit { if case .file(let file) = bytes { file.close() } }

    /// What the first line counts.
    private struct Counts {
        var skipped = 0
        var contacts = 0
    }

    /// The index of `root`'s `contacts.plist`, built and written when missing or stale;
    /// `nil` when there is no such file.
    static func open(
        in root: Directory, temporary: Result<Directory, FileError>
    ) throws(ContactsProblem) -> ContactIndex? {
        let source: FileDescriptor
        let status: FileStatus
        do throws(FileError) {
            // Looked for first without a descriptor: no file is no word, even out of descriptors.
            guard try root.status(of: sourceName) != nil, let opened = try root.open(sourceName, access: .read) else {
                return nil
            }
            source = opened
            do throws(FileError) { status = try opened.status() } catch {
                opened.close()
                throw error
            }
        } catch {
            throw .unreadable(error)
        }
        defer { source.close() }
        let stamp = Self.stamp(status)
        if let found = cached(in: root, stamp: stamp) { return found }
        // Refused before a byte is read: the size says it all.
        guard status.size <= sourceLimit else { throw .tooLarge(bytes: status.size, limit: sourceLimit) }
        // The file's bytes live only while they are read.
        let bytes: [UInt8]
        do throws(FileError) { bytes = try source.read(at: 0, upTo: status.size) } catch { throw .unreadable(error) }
        let entries = try Self.entries(of: bytes)
        let (index, header, counts) = Self.index(of: entries, stamp: stamp)
        var problem: ContactsProblem?
        do throws(FileError) {
            // A failed sync of the directory after the rename leaves the index in place.
            _ = try root.replace(name, with: index, temporary: try temporary.get(), durable: false)
        } catch {
            problem = .indexNotWritten(error, bytes: status.size)
        }
        // Kept in memory for this run, written or not: a read of the file just written could
        // fail, and a failed read must never pass for a contact that is not there (the sweep's
        // EIO on `pread` had a user's chat moved to threads/).
        return ContactIndex(bytes: .memory(index), start: header, end: index.count, counts: counts, notWritten: problem)
    }

    /// The index in `root` when it was built for `stamp`, opened and kept open.
    private static func cached(in root: Directory, stamp: String) -> ContactIndex? {
        guard let found = try? root.open(name, access: .read) else { return nil }
        if let header = try? found.read(at: 0, upTo: 256), let newline = header.firstIndex(of: 0x0A),
            let counts = counts(in: header[..<newline], stamp: stamp), let size = try? found.status().size
        {
            return ContactIndex(bytes: .file(found), start: newline + 1, end: size, counts: counts)
        }
        found.close()
        return nil
    }

    /// The first line's words for a version of `contacts.plist`.
    private static func stamp(_ source: FileStatus) -> String {
        "draftline-contacts-index-2 \(source.device) \(source.inode) \(source.size) \(source.modified) \(source.changed)"
    }

    /// The counts a first line gives, when it was written for `stamp`.
    private static func counts(in line: ArraySlice<UInt8>, stamp: String) -> Counts? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix(stamp + " ") else { return nil }
        let numbers = text.dropFirst(stamp.count + 1).split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        return Counts(skipped: numbers[0], contacts: numbers[1])
    }

    /// The entries of `contacts.plist`: by the own readers where they take the file, else by
    /// Foundation's decoder, within ``foundationLimit`` and ``expansionLimit``.
    static func entries(of bytes: [UInt8]) throws(ContactsProblem) -> [ContactEntry] {
        if let own = ownReading(of: bytes) { return try own.get() }
        guard bytes.count <= foundationLimit else { throw .notPlain(bytes: bytes.count, limit: foundationLimit) }
        let data = Data(bytes)
        if let size = BinaryChatLog.expandedSize(data, limit: expansionLimit), size > expansionLimit {
            throw .expands(limit: expansionLimit)
        }
        guard let entries = foundationEntries(of: data) else { throw .notAList }
        return entries
    }

    /// The entries as the own readers read them, or why a binary file's strings are too many
    /// to make; `nil` where neither takes the bytes. XML has its line ends made line feeds
    /// first, as an import reads it.
    static func ownReading(of bytes: [UInt8]) -> Result<[ContactEntry], ContactsProblem>? {
        if bytes.starts(with: Array("bplist".utf8)) { return BinaryChatLog.contacts(bytes, limit: expansionLimit) }
        let read =
            bytes.contains(0x0D)
            ? XMLChatLog.contacts(ChatLogFile.lineEndsNormalized(Data(bytes))) : XMLChatLog.contacts(bytes)
        return read.map { .success($0) }
    }

    /// The entries as Foundation's decoder reads them, line ends normalized, after the depth check.
    static func foundationEntries(of data: Data) -> [ContactEntry]? {
        try? PropertyListInput.decode([ContactEntry].self, from: ChatLogFile.lineEndsNormalized(data))
    }

    /// The index of these entries, one line a key (its last entry), and where its lines start.
    private static func index(
        of entries: [ContactEntry], stamp: String
    ) -> (bytes: [UInt8], start: Int, counts: Counts) {
        var counts = Counts()
        var order: [SortKey] = []
        order.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard let key = entry.key, GlobalKey.isValid(key) else {
                counts.skipped += 1
                continue
            }
            order.append(SortKey(key, index: index))
        }
        // In the order of the keys' bytes (the order the index is halved in), and in file
        // order among equal keys, so that the last one is kept. Compared by each key's first
        // sixteen bytes as two integers (most keys are shorter), the rest only where those
        // are equal: a million keys in a fraction of a second.
        func precedes(_ a: SortKey, _ b: SortKey) -> Bool? {
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            guard a.long || b.long else { return nil }
            let (x, y) = (entries[a.index].key ?? "", entries[b.index].key ?? "")
            return x == y ? nil : x < y
        }
        order.sort { a, b in precedes(a, b) ?? (a.index < b.index) }
        func isLastOfItsKey(_ place: Int) -> Bool {
            place + 1 == order.count || precedes(order[place], order[place + 1]) != nil
        }
        counts.contacts = order.indices.count(where: isLastOfItsKey)
        var bytes = Array("\(stamp) \(counts.skipped) \(counts.contacts)\n".utf8)
        let start = bytes.count
        bytes.reserveCapacity(start + counts.contacts * 24)
        for place in order.indices where isLastOfItsKey(place) {
            let entry = entries[order[place].index]
            let lineStart = bytes.count
            var key = entry.key ?? ""
            key.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(0x09)
            escape(entry.name ?? key, into: &bytes)
            if bytes.count - lineStart > maximumLine - 1 {
                bytes.removeLast(bytes.count - lineStart - (maximumLine - 1))
            }
            bytes.append(0x0A)
        }
        return (bytes, start, counts)
    }

    /// A key's place in the index's order: its first sixteen bytes, big-endian, zero-filled.
    private struct SortKey {
        var high: UInt64 = 0
        var low: UInt64 = 0
        /// The entry's place in the file (a file of at most ``sourceLimit`` bytes holds fewer
        /// than 2^31 entries).
        var place: Int32
        /// Whether the key is longer than sixteen bytes.
        var long: Bool

        var index: Int { Int(place) }

        init(_ key: String, index: Int) {
            place = Int32(truncatingIfNeeded: index)
            var bytes = 0
            for byte in key.utf8.prefix(16) {
                if bytes < 8 {
                    high |= UInt64(byte) << (56 - 8 * bytes)
                } else {
                    low |= UInt64(byte) << (56 - 8 * (bytes - 8))
                }
                bytes += 1
            }
            long = key.utf8.count > 16
        }
    }

    /// A name on one line, added to `out`: backslash, newline, carriage return and tab
    /// escaped.
    private static func escape(_ name: String, into out: inout [UInt8]) {
        var name = name
        name.withUTF8 { bytes in
            if !bytes.contains(where: { $0 == 0x5C || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += [0x5C, UInt8(ascii: "n")]
                case 0x0D: out += [0x5C, UInt8(ascii: "r")]
                case 0x09: out += [0x5C, UInt8(ascii: "t")]
                default: out.append(byte)
                }
            }
        }
    }

    private static func unescape(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var escaped = false
        for byte in bytes {
            if escaped {
                switch byte {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                default: out.append(byte)
                }
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Reading

    /// The index's bytes from `offset`, at most `count`; a failed `pread` is never "no such contact".
    private func read(at offset: Int, upTo count: Int) throws(FileError) -> [UInt8] {
        let count = max(0, min(count, end - offset))
        switch bytes {
        case .file(let file): return try file.read(at: offset, upTo: count)
        case .memory(let all): return Array(all[offset..<(offset + count)])
        }
    }

    /// The bytes from `offset` to the first newline at or after it (not included), read
    /// 512 bytes at a time, at most ``maximumLine``; `nil` when there is none.
    private func toNewline(from offset: Int) throws(FileError) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < Self.maximumLine {
            let chunk = try read(at: offset + bytes.count, upTo: 512)
            if let newline = chunk.firstIndex(of: 0x0A) { return bytes + chunk[..<newline] }
            if chunk.isEmpty { return nil }
            bytes += chunk
        }
        return nil
    }

    /// The line that starts at `offset` (without its newline), and where the next begins.
    private func line(at offset: Int) throws(FileError) -> (bytes: [UInt8], next: Int)? {
        try toNewline(from: offset).map { ($0, offset + $0.count + 1) }
    }

    /// The first line that starts at or after `offset`.
    private func lineStart(after offset: Int) throws(FileError) -> Int? {
        guard offset > start else { return start }
        return try toNewline(from: offset - 1).map { offset + $0.count }
    }

    /// The contact with this key: the index halved, then the lines left read in one pass.
    func contact(_ key: GlobalKey) throws(FileError) -> Contact? {
        let wanted = Array(key.rawValue.utf8)
        var low = start
        var high = end
        while high - low > 4096 {
            // Lines are at most maximumLine long: a middle line past `high` leaves at most two.
            guard let middle = try lineStart(after: low + (high - low) / 2) else { return nil }
            guard middle < high else { break }
            guard let found = try line(at: middle) else { return nil }
            let candidate = keyOf(found.bytes)
            if candidate.elementsEqual(wanted) { return contact(from: found.bytes, key: key) }
            if candidate.lexicographicallyPrecedes(wanted) { low = middle } else { high = middle }
        }
        // What is left, read at once: the lines that start before `high`.
        let block = try read(at: low, upTo: high - low + Self.maximumLine)
        var from = block.startIndex
        while from < high - low, let newline = block[from...].firstIndex(of: 0x0A) {
            let line = Array(block[from..<newline])
            if keyOf(line).elementsEqual(wanted) { return contact(from: line, key: key) }
            from = newline + 1
        }
        return nil
    }

    /// The keys that start with `prefix`, in key order, at most `limit`: the index halved to
    /// where they begin (reading it whole cost 5.8 s a Tab with a million contacts).
    func keys(startingWith prefix: String, limit: Int) throws(FileError) -> [GlobalKey] {
        let wanted = Array(prefix.utf8)
        var low = start
        var high = end
        while high - low > 4096 {
            guard let middle = try lineStart(after: low + (high - low) / 2), middle < high,
                let found = try line(at: middle)
            else { break }
            if keyOf(found.bytes).lexicographicallyPrecedes(wanted) { low = middle } else { high = middle }
        }
        var result: [GlobalKey] = []
        var offset = low
        while offset < end, result.count < limit, let (bytes, next) = try line(at: offset) {
            let key = keyOf(bytes)
            if key.starts(with: wanted) {
                if let found = GlobalKey(String(decoding: key, as: UTF8.self)[...]) { result.append(found) }
            } else if !key.lexicographicallyPrecedes(wanted) {
                break
            }
            offset = next
        }
        return result
    }

    /// A line's key: its bytes before the tab.
    private func keyOf(_ line: [UInt8]) -> ArraySlice<UInt8> { line[..<(line.firstIndex(of: 0x09) ?? line.endIndex)] }

    private func contact(from line: [UInt8], key: GlobalKey) -> Contact {
        let tab = line.firstIndex(of: 0x09).map { $0 + 1 } ?? line.endIndex
        return Contact(key: key, name: Self.unescape(line[tab...]))
    }

    /// Every contact, in key order: the whole index read (for Tab completion, when asked).
    func all() throws(FileError) -> [Contact] {
        var result: [Contact] = []
        for line in try read(at: start, upTo: end - start).split(separator: 0x0A) {
            let bytes = Array(line)
            if let key = GlobalKey(String(decoding: keyOf(bytes), as: UTF8.self)[...]) {
                result.append(contact(from: bytes, key: key))
            }
        }
        return result
    }
}
