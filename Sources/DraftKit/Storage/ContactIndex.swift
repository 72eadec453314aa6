import Foundation

/// `contacts.plist` looked up by key without decoding it: an index beside it,
/// `contacts.index`, with one line per contact in key order, searched by halves.
///
/// The index is a cache, built from `contacts.plist` when it is missing or was built from
/// another version of that file (its first line names the file's device, inode, size and
/// times, and how many entries had no valid key), and written like any cache (atomically,
/// 0600, not synced). Each later start reads that first line and, for each name it shows,
/// a few blocks of the index: the chat list and a chat's title cost what they show, not
/// the number of contacts. The index is opened once and kept open, so a rebuild by another
/// process never changes it under a reader.
final class ContactIndex: @unchecked Sendable {
    // @unchecked: every stored property is a constant, and reads go through `pread`, which
    // is safe to call from any thread.

    /// The index's name in the data directory.
    static let name = "contacts.index"
    /// The contacts file's name.
    static let sourceName = "contacts.plist"
    /// The most bytes `contacts.plist` may have.
    static let sourceLimit = 64 * 1024 * 1024
    /// The longest line the index holds (a longer name is cut to fit).
    static let maximumLine = 16 * 1024

    private let bytes: Bytes
    private let start: Int
    private let end: Int
    /// Entries of `contacts.plist` without a valid key.
    let skipped: Int

    /// Where the index's bytes are: an open file, or memory when it could not be written.
    private enum Bytes {
        case file(FileDescriptor)
        case memory([UInt8])
    }

    private init(bytes: Bytes, start: Int, end: Int, skipped: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.skipped = skipped
    }

    deinit { if case .file(let file) = bytes { file.close() } }

    /// Why `contacts.plist` cannot be used.
    struct Problem: Error {
        var message: String
        /// The call that failed, when the file could not be read (rather than not parsed).
        var failure: FileError? = nil
    }

    /// The index of `root`'s `contacts.plist`; `nil` when there is no such file. Builds it
    /// (into `temporary`, then renamed) when it is missing or stale; in memory only when it
    /// cannot be written.
    static func open(in root: Directory, temporary: Directory?) throws(Problem) -> ContactIndex? {
        let found: FileStatus?
        do throws(FileError) {
            found = try root.status(of: sourceName)
        } catch {
            throw Problem(
                message: "contacts.plist cannot be read (\(error.path): \(error.reason)): "
                    + "only the demo contacts are here",
                failure: error)
        }
        guard let source = found else { return nil }
        let stamp = Self.stamp(source)
        if let found = try? root.open(name, access: .read) {
            if let header = try? found.read(at: 0, upTo: 256), let newline = header.firstIndex(of: 0x0A),
                let skipped = skipped(in: header[..<newline], stamp: stamp), let size = try? found.status().size
            {
                return ContactIndex(bytes: .file(found), start: newline + 1, end: size, skipped: skipped)
            }
            found.close()
        }
        let (body, skipped) = try build(root)
        let header = Array("\(stamp) \(skipped)\n".utf8)
        if let temporary {
            _ = try? root.replace(name, with: Data(header + body), temporary: temporary, durable: false)
        }
        return ContactIndex(
            bytes: .memory(header + body), start: header.count, end: header.count + body.count, skipped: skipped)
    }

    /// The first line's words for a version of `contacts.plist`.
    private static func stamp(_ source: FileStatus) -> String {
        "draftline-contacts-index-1 \(source.device) \(source.inode) \(source.size) \(source.modified) \(source.changed)"
    }

    /// The skipped count a first line gives, when it was written for `stamp`.
    private static func skipped(in line: ArraySlice<UInt8>, stamp: String) -> Int? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix(stamp + " ") else { return nil }
        return Int(text.dropFirst(stamp.count + 1))
    }

    /// Decodes `contacts.plist` once: the index's lines, in key order, and how many
    /// entries had no valid key.
    private static func build(_ root: Directory) throws(Problem) -> (body: [UInt8], skipped: Int) {
        let data: Data
        do {
            guard let read = try root.read(sourceName, limit: sourceLimit) else { return ([], 0) }
            data = read
        } catch {
            throw Problem(
                message: "contacts.plist cannot be read (\(error.path): \(error.reason)): "
                    + "only the demo contacts are here",
                failure: error.isTransient ? error : nil)
        }
        guard let entries = try? PropertyListInput.decode([Entry].self, from: data) else {
            throw Problem(
                message: "contacts.plist is not a property list holding an array: only the demo contacts are here")
        }
        var names: [String: String] = [:]
        var skipped = 0
        for entry in entries {
            guard let key = entry.key, GlobalKey.isValid(key) else {
                skipped += 1
                continue
            }
            names[key] = entry.name ?? key
        }
        var body: [UInt8] = []
        for key in names.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            var line = Array(key.utf8) + [0x09] + escape(names[key] ?? key)
            if line.count > maximumLine - 1 { line = Array(line.prefix(maximumLine - 1)) }
            body += line + [0x0A]
        }
        return (body, skipped)
    }

    /// One entry of `contacts.plist`: a dictionary with `global_key` and `name`; anything
    /// else (another type, a missing field) reads as nothing.
    private struct Entry: Decodable {
        var key: String?
        var name: String?

        private enum Keys: String, CodingKey {
            case key = "global_key"
            case name
        }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: Keys.self)
            key = try? container?.decode(String.self, forKey: .key)
            name = container?.text(forKey: .name)
        }
    }

    /// A name on one line: backslash, newline, carriage return and tab escaped.
    private static func escape(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in name.utf8 {
            switch byte {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            default: out.append(byte)
            }
        }
        return out
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

    private func read(at offset: Int, upTo count: Int) -> [UInt8] {
        let count = max(0, min(count, end - offset))
        switch bytes {
        case .file(let file): return (try? file.read(at: offset, upTo: count)) ?? []
        case .memory(let all): return Array(all[offset..<(offset + count)])
        }
    }

    /// The bytes from `offset` to the first newline at or after it (not included), read
    /// 512 bytes at a time, at most ``maximumLine``; `nil` when there is none.
    private func toNewline(from offset: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < Self.maximumLine {
            let chunk = read(at: offset + bytes.count, upTo: 512)
            if let newline = chunk.firstIndex(of: 0x0A) { return bytes + chunk[..<newline] }
            if chunk.isEmpty { return nil }
            bytes += chunk
        }
        return nil
    }

    /// The line that starts at `offset` (without its newline), and where the next begins.
    private func line(at offset: Int) -> (bytes: [UInt8], next: Int)? {
        toNewline(from: offset).map { ($0, offset + $0.count + 1) }
    }

    /// The first line that starts at or after `offset`.
    private func lineStart(after offset: Int) -> Int? {
        guard offset > start else { return start }
        return toNewline(from: offset - 1).map { offset + $0.count }
    }

    /// The contact with this key, when `contacts.plist` has one: found by halving the
    /// index, then reading the lines left in one pass.
    func contact(_ key: GlobalKey) -> Contact? {
        let wanted = Array(key.rawValue.utf8)
        var low = start
        var high = end
        func keyOf(_ line: [UInt8]) -> ArraySlice<UInt8> { line[..<(line.firstIndex(of: 0x09) ?? line.endIndex)] }
        while high - low > 4096 {
            // Lines are at most maximumLine long: a middle line past `high` leaves at most two.
            guard let middle = lineStart(after: low + (high - low) / 2) else { return nil }
            guard middle < high else { break }
            guard let found = line(at: middle) else { return nil }
            let candidate = keyOf(found.bytes)
            if candidate.elementsEqual(wanted) { return contact(from: found.bytes, key: key) }
            if candidate.lexicographicallyPrecedes(wanted) { low = middle } else { high = middle }
        }
        // What is left, read at once: the lines that start before `high`.
        let block = read(at: low, upTo: high - low + Self.maximumLine)
        var from = block.startIndex
        while from < high - low, let newline = block[from...].firstIndex(of: 0x0A) {
            let line = Array(block[from..<newline])
            if keyOf(line).elementsEqual(wanted) { return contact(from: line, key: key) }
            from = newline + 1
        }
        return nil
    }

    /// The keys that start with `prefix`, in key order, at most `limit`: found by halving the
    /// index to where they begin, then reading on while they match. Tab after a few letters
    /// costs the names it offers, not the whole index (a million contacts: 5.8 s a press).
    func keys(startingWith prefix: String, limit: Int) -> [GlobalKey] {
        let wanted = Array(prefix.utf8)
        func keyOf(_ line: [UInt8]) -> ArraySlice<UInt8> { line[..<(line.firstIndex(of: 0x09) ?? line.endIndex)] }
        var low = start
        var high = end
        while high - low > 4096 {
            guard let middle = lineStart(after: low + (high - low) / 2), middle < high, let found = line(at: middle)
            else { break }
            if keyOf(found.bytes).lexicographicallyPrecedes(wanted) { low = middle } else { high = middle }
        }
        var result: [GlobalKey] = []
        var offset = low
        while offset < end, result.count < limit, let (bytes, next) = line(at: offset) {
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

    private func contact(from line: [UInt8], key: GlobalKey) -> Contact {
        let tab = line.firstIndex(of: 0x09).map { $0 + 1 } ?? line.endIndex
        return Contact(key: key, name: Self.unescape(line[tab...]))
    }

    /// Every contact, in key order: the whole index read (for Tab completion, when asked).
    func all() -> [Contact] {
        var result: [Contact] = []
        for line in read(at: start, upTo: end - start).split(separator: 0x0A) {
            let bytes = Array(line)
            let tab = bytes.firstIndex(of: 0x09) ?? bytes.endIndex
            if let key = GlobalKey(String(decoding: bytes[..<tab], as: UTF8.self)[...]) {
                result.append(contact(from: bytes, key: key))
            }
        }
        return result
    }
}
