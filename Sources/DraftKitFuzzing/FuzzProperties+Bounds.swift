// The properties of issue 19's fuzz targets: nested property lists, the chat list's index
// with a tail of any bytes, journal lines of any size. Shared with the seeded pass.
import DraftKit
import Foundation

extension FuzzProperties {
    /// What a byte of a nesting program writes.
    private static let pieces = [
        "<array>", "</array>", "<dict><key>k</key>", "</dict>", "<!--</array>-->", "<![CDATA[</array>]]>", "<array/>",
        "<string>x</string>",
    ]

    /// The XML document a nesting program makes: the first byte says how many times the
    /// rest is repeated (1 to 256 times, so a few bytes nest ten thousand deep), each byte
    /// a piece (open or close an array or a dict, a comment or a CDATA section hiding a
    /// closing tag, an empty array, a string). With the first byte odd, the rest is the
    /// document's body as it is.
    public static func nestedDocument(_ bytes: [UInt8]) -> Data {
        guard let first = bytes.first else { return Data() }
        let body: String
        if first % 2 == 1 {
            body = String(decoding: bytes.dropFirst(), as: UTF8.self)
        } else {
            let once = bytes.dropFirst().map { pieces[Int($0) % pieces.count] }.joined()
            body = String(repeating: once, count: Int(first / 2) * 2 + 1)
        }
        return Data(("<?xml version=\"1.0\"?><plist version=\"1.0\">" + body + "</plist>").utf8)
    }

    /// Any nesting, in every place a property list is read (an import, a segment, the
    /// contacts): reading never crashes (Foundation's recursive reader is never given what
    /// would overflow its stack), and a document refused as too deep is refused everywhere,
    /// with the depth it was refused for.
    public static func nestedPropertyList(_ bytes: [UInt8], scratch: String) -> String? {
        let document = nestedDocument(bytes)
        let tooDeep: Bool
        do {
            _ = try ChatLogFile(data: document)
            tooDeep = false
        } catch {
            if case .tooDeep = error { tooDeep = true } else { tooDeep = false }
        }
        // As a segment: moved aside when too deep, never read.
        let data = scratch + "/data"
        try? FileManager.default.removeItem(atPath: data)
        guard let history = try? PropertyListHistory(directory: data), let alice = ChatID("alice"),
            (try? FileManager.default.createDirectory(
                atPath: data + "/chats/alice", withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: data + "/chats/alice/00000000.plist", contents: document)
        else { return "cannot set up the scratch history in \(data)" }
        let reading = try? history.recentMessages(in: alice, limit: 5)
        if tooDeep && reading?.warnings.isEmpty != false { return "a document too deep was read as a segment" }
        // As the contacts: a warning, the demo contacts still there.
        guard FileManager.default.createFile(atPath: data + "/contacts.plist", contents: document) else {
            return "cannot write contacts.plist"
        }
        let contacts = ContactBook.load(directory: data)
        if tooDeep && contacts.problem == nil { return "a document too deep was read as contacts" }
        if let alice = try? GlobalKey(validating: "alice"), contacts[alice] == nil {
            return "the demo contacts are gone"
        }
        return nil
    }

    /// Any tail on the chat list's index (a torn write, zeros, fragments of lines, the
    /// first byte saying how many times the rest is repeated, up to about 1 MB): listing
    /// looks at each byte of the index once (and a line's start carried between blocks),
    /// lists only chats that exist, each once, and a chat that changes afterwards is
    /// listed first.
    public static func indexTail(_ bytes: [UInt8], scratch: String) -> String? {
        let data = scratch + "/data"
        try? FileManager.default.removeItem(atPath: data)
        guard let history = try? PropertyListHistory(directory: data), let alice = ChatID("alice"),
            let bob = ChatID("bob"), let carol = ChatID("carol"),
            (try? history.append(Message(content: "a"), to: alice)) != nil,
            (try? history.append(Message(content: "b"), to: bob)) != nil
        else { return "cannot set up the scratch history in \(data)" }
        let repeats = Int(bytes.first ?? 0) + 1
        let tail = Array(repeating: Array(bytes.dropFirst()), count: repeats).joined()
        guard let handle = FileHandle(forWritingAtPath: data + "/recent") else { return "no index" }
        handle.seekToEndOfFile()
        handle.write(Data(tail))
        handle.closeFile()
        let size = ((try? FileManager.default.attributesOfItem(atPath: data + "/recent"))?[.size] as? Int) ?? 0
        guard let listed = try? history.recentChats(limit: 10, where: { _ in true }).value else {
            return "the chat list failed"
        }
        let bound = size + (size / (16 * 1024) + 1) * 256
        if history.chatListBytesScanned > bound {
            return "looked at \(history.chatListBytesScanned) bytes of a \(size)-byte index"
        }
        let names = listed.map(\.chatID)
        if Set(names).count != names.count || !Set(names).isSubset(of: [alice, bob]) {
            return "listed \(names) from chats alice and bob"
        }
        guard (try? history.append(Message(content: "c"), to: carol)) != nil,
            (try? history.recentChats(limit: 1, where: { _ in true }).value.first?.chatID) == carol
        else { return "the chat that changed last is not listed first" }
        return nil
    }

    /// Journal lines of any size (the first two bytes say how long, up to 2 MB, the rest
    /// is what they hold, repeated; some of them records that point past a segment's end):
    /// following the journal never brings a message that is not stored where it says,
    /// never holds more than 64 KiB of it at once, and the next message stored still arrives.
    public static func journalLines(_ bytes: [UInt8], scratch: String) -> String? {
        let data = scratch + "/data"
        try? FileManager.default.removeItem(atPath: data)
        guard let writer = try? PropertyListHistory(directory: data),
            let reader = try? PropertyListHistory(directory: data), let carol = ChatID("carol"),
            (try? writer.append(Message(messageID: "c0", content: "first"), to: carol)) != nil
        else { return "cannot set up the scratch history in \(data)" }
        let feed = reader.follow(notifications: false)
        let length = bytes.count >= 2 ? (Int(bytes[0]) << 8 | Int(bytes[1])) * 32 : 0
        let content = bytes.count > 2 ? Array(bytes.dropFirst(2)) : Array("c\tcarol\t0\t7\t-".utf8)
        var line = [UInt8]()
        line.reserveCapacity(length + 1)
        // Doubled, not appended a copy at a time: a one-byte content is 2 MB in 21 steps.
        while line.count < length { line += line.isEmpty ? content.prefix(length) : line.prefix(length - line.count) }
        line.append(0x0A)
        if let journal = FileHandle(forWritingAtPath: data + "/live/journal") {
            journal.seekToEndOfFile()
            for _ in 0..<3 { journal.write(Data(line)) }
            journal.closeFile()
        }
        for arrival in takeAll(feed) {
            let stored = (try? reader.recentMessages(in: arrival.chat, limit: 100).value) ?? []
            if !stored.contains(arrival.message) { return "an arrival that is not stored: \(arrival)" }
        }
        guard (try? writer.append(Message(messageID: "c1", content: "after"), to: carol)) != nil else {
            return "the chat takes no new message"
        }
        guard takeAll(feed).last?.message.content == "after" else { return "the message stored did not arrive last" }
        // What the reader held, not the process's peak memory: other tests of the same
        // process allocate meanwhile (a test using 200 MB beside this one failed it).
        if reader.journalBytesHeld > 64 << 10 {
            return "the journal's reader held \(reader.journalBytesHeld) bytes at once for \(line.count)-byte lines"
        }
        return nil
    }
}
