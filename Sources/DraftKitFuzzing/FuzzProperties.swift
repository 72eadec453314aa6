// The properties draftline's fuzzers check, shared by the libFuzzer targets in Fuzz/
// (`make fuzz`, built over the package's modules by Scripts/build-fuzzers) and by
// the seeded pass in the test suite.
import DraftKit
import DraftlineREPL
import Foundation

/// Properties that must hold for any input. Each returns `nil` when it holds, else what
/// went wrong: the libFuzzer targets trap on that, so the input is saved; tests expect nil.
public enum FuzzProperties {
    /// Whether a terminal would act on this character: C0 controls but LF and TAB, DEL,
    /// C1 controls, and bidirectional overrides, embeddings, isolates and marks. Written
    /// apart from ``TerminalText`` so that the two can check each other.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
        default: return false
        }
    }

    /// Any command line parses or fails with a message that, as shown, drives nothing;
    /// any piped line becomes the events its keystrokes would make: a line without key
    /// bytes is typed into the pre-fill at its cursor, and no event holds text that was
    /// never typed or a key byte as text.
    public static func commandParser(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        do throws(DraftlineError) {
            _ = try Command(parsing: "/" + text, capabilities: Capabilities(editLine: true, tourChapters: ["story"]))
        } catch {
            let shown = Presenter().line(for: error).text
            if shown.isEmpty || shown.unicodeScalars.contains(where: isTerminalControl) {
                return "error message \(shown.debugDescription) is empty or drives the terminal"
            }
        }
        let prefill = TextDraft(text: "ab", cursor: 1)
        let events = PipedLine.events(for: text, prefill: prefill)
        let keys = text.unicodeScalars.filter { PipedLine.keyBytes.contains($0.value) }.count
        if keys == 0 {
            let expected = "a" + text + "b"
            guard events == [.line(expected)] else {
                return "piped line became \(events), not \(expected.debugDescription)"
            }
            return nil
        }
        if events.count > keys + 1 { return "\(keys) keys made \(events.count) events" }
        // A line that ends with a key ends there (no Enter): only such a line makes no event.
        let editingKeys = PipedLine.keyBytes.subtracting([0x18])
        let endsWithKey = text.unicodeScalars.last.map { editingKeys.contains($0.value) } ?? false
        if events.isEmpty && !endsWithKey && !text.unicodeScalars.contains("\u{18}") {
            return "a line that does not end with a key made no event"
        }
        let allowed = Set(text.unicodeScalars).union("ab".unicodeScalars)
        for event in events {
            let typed: String
            switch event {
            case .line(let line): typed = line
            case .leave(_, let draft), .interrupt(let draft): typed = draft.text
            case .quitRequest, .endOfInput: continue
            }
            if !typed.unicodeScalars.allSatisfy(allowed.contains) {
                return "an event holds text that was never typed: \(event)"
            }
            if typed.unicodeScalars.contains(where: { [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x15].contains($0.value) }) {
                return "a key byte was typed as text: \(event)"
            }
        }
        return nil
    }

    /// Shown text drives nothing, showing is idempotent, and every character that is not
    /// a control comes through unchanged and in order.
    public static func sanitizer(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = TerminalText.visible(text)
        if let control = shown.unicodeScalars.first(where: isTerminalControl) {
            return "U+\(String(control.value, radix: 16)) reaches the terminal in \(shown.debugDescription)"
        }
        if TerminalText.visible(shown) != shown { return "showing \(shown.debugDescription) again changes it" }
        var rest = Substring(shown).unicodeScalars[...]
        for scalar in text.unicodeScalars where !isTerminalControl(scalar) {
            guard let found = rest.firstIndex(of: scalar) else {
                return "U+\(String(scalar.value, radix: 16)) was lost"
            }
            rest = rest[rest.index(after: found)...]
        }
        return nil
    }

    /// Any bytes in a history file: reading never crashes; either they are a list of
    /// messages, or the file is moved aside unchanged, one warning says so, and the chat
    /// still takes a new message.
    public static func historyReader(_ bytes: [UInt8], scratch: String) -> String? {
        let chat = scratch + "/chats/alice"
        try? FileManager.default.removeItem(atPath: chat)
        try? FileManager.default.createDirectory(atPath: chat, withIntermediateDirectories: true)
        let data = Data(bytes)
        guard FileManager.default.createFile(atPath: chat + "/00000000.plist", contents: data),
            let history = try? PropertyListHistory(directory: scratch), let alice = ChatID("alice")
        else { return "cannot set up the scratch history in \(scratch)" }
        let reading = try? history.recentMessages(in: alice, limit: 20)
        let read = reading?.value ?? []
        let warnings = reading?.warnings ?? []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: chat)) ?? []
        if let aside = names.first(where: { $0.hasPrefix("00000000.plist.corrupt-") }) {
            if warnings.count != 1 || !read.isEmpty { return "moved aside with \(warnings.count) warnings" }
            if FileManager.default.contents(atPath: chat + "/" + aside) != data { return "moved aside changed" }
        } else {
            let decoded = PropertyListReaders.foundationSegment(data)?.count ?? -1
            if !warnings.isEmpty || read.count != min(20, decoded) {
                return "read \(read.count) of \(decoded) messages with \(warnings.count) warnings"
            }
        }
        if (try? history.append(Message(content: "after"), to: alice)) == nil { return "the chat takes no new message" }
        return nil
    }

    /// Any file-system state of a chat's directory (files of any kind, size and name
    /// where segments and the `last` link belong): reading, counting, listing and sending
    /// never crash or hang, the other chat is never hidden, and a message sent is read
    /// back last.
    ///
    /// The bytes are a script, two a step: what to put (a valid segment, garbage, a
    /// directory, a FIFO, a link to `/dev/zero`, a dangling link, an empty file, a link
    /// to a valid segment elsewhere) and where (segments 0 to 3, or the `last` link
    /// pointing at a segment number chosen to overflow).
    public static func storage(_ bytes: [UInt8], scratch: String) -> String? {
        let data = scratch + "/data"
        try? FileManager.default.removeItem(atPath: data)
        guard let history = try? PropertyListHistory(directory: data), let carol = ChatID("carol"),
            let dave = ChatID("dave"), (try? history.append(Message(content: "dave's"), to: dave)) != nil
        else { return "cannot set up the scratch history in \(data)" }
        let chat = data + "/chats/carol"
        try? FileManager.default.createDirectory(atPath: chat, withIntermediateDirectories: true)
        let valid = (try? PropertyListEncoder().encode([Message(content: "kept")])) ?? Data()
        _ = FileManager.default.createFile(atPath: scratch + "/elsewhere.plist", contents: valid)
        var index = 0
        while index + 1 < bytes.count && index < 16 {
            let what = bytes[index] % 8
            let place = bytes[index + 1]
            index += 2
            let name: String
            switch place % 6 {
            case 4:
                let targets = ["9223372036854775807.plist", "99999999999999999999.plist", "-1.plist", "00000002.plist"]
                try? FileManager.default.removeItem(atPath: chat + "/last")
                _ = symlink(targets[Int(place / 6) % targets.count], chat + "/last")
                continue
            case 5: name = "count"
            default: name = String(format: "%08d.plist", Int(place % 6))
            }
            let path = chat + "/" + name
            try? FileManager.default.removeItem(atPath: path)
            switch what {
            case 0: _ = FileManager.default.createFile(atPath: path, contents: valid)
            case 1: _ = FileManager.default.createFile(atPath: path, contents: Data(bytes[index...].prefix(32)))
            case 2: try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case 3: _ = mkfifo(path, 0o600)
            case 4: _ = symlink("/dev/zero", path)
            case 5: _ = symlink(chat + "/nowhere", path)
            case 6: _ = FileManager.default.createFile(atPath: path, contents: Data())
            default: _ = symlink(scratch + "/elsewhere.plist", path)
            }
        }
        _ = try? history.recentMessages(in: carol, limit: 20)
        _ = try? history.messageCount(in: carol)
        guard let chats = try? history.chats().value else { return "the chat list failed" }
        if !chats.contains(where: { $0.chatID == dave && $0.lastMessage?.content == "dave's" }) {
            return "a damaged chat hid another: \(chats)"
        }
        // Whatever is where a segment belongs is set aside: the send is stored, and read back
        // last.
        do {
            try history.append(Message(content: "after"), to: carol)
        } catch {
            return "the send failed: \(error)"
        }
        guard (try? history.recentMessages(in: carol, limit: 1).value.last?.content) == "after" else {
            return "the message sent is not the last read back"
        }
        return nil
    }

    /// Any bytes in the journal and in the chat list's index (a torn write, a hand edit, an
    /// attack): following the journal never crashes and never brings a message that is not
    /// stored where it says; the next message stored still arrives, last; and the chat list
    /// still shows the chat that changed last, first.
    ///
    /// The first half of the bytes goes to the end of `live/journal`, the rest replaces
    /// `recent`.
    public static func liveFiles(_ bytes: [UInt8], scratch: String) -> String? {
        let data = scratch + "/data"
        try? FileManager.default.removeItem(atPath: data)
        guard let writer = try? PropertyListHistory(directory: data),
            let reader = try? PropertyListHistory(directory: data),
            let carol = ChatID("carol"), let dave = ChatID("dave"),
            (try? writer.append(Message(messageID: "d", content: "dave's"), to: dave)) != nil
        else { return "cannot set up the scratch history in \(data)" }
        let feed = reader.follow(notifications: false)
        let half = bytes.count / 2
        if let journal = FileHandle(forWritingAtPath: data + "/live/journal") {
            journal.seekToEndOfFile()
            journal.write(Data(bytes[..<half]))
            journal.closeFile()
        }
        _ = FileManager.default.createFile(atPath: data + "/recent", contents: Data(bytes[half...]))
        for arrival in takeAll(feed) {
            let stored = (try? reader.recentMessages(in: arrival.chat, limit: 100).value) ?? []
            if !stored.contains(arrival.message) { return "an arrival that is not stored: \(arrival)" }
        }
        guard (try? writer.append(Message(messageID: "c", content: "after"), to: carol)) != nil else {
            return "the chat takes no new message"
        }
        guard takeAll(feed).last?.message.content == "after" else { return "the message stored did not arrive last" }
        guard let recent = try? reader.recentChats(limit: 5, where: { _ in true }).value, recent.first?.chatID == carol
        else {
            return "the chat that changed last is not listed first"
        }
        return nil
    }

    /// Every slice a feed has now, however many it takes (at most 10,000).
    static func takeAll(_ feed: any HistoryFeed) -> [Arrival] {
        var arrivals: [Arrival] = []
        for _ in 0..<10_000 {
            let slice = feed.take()
            arrivals += slice.arrivals
            if !slice.hasMore { break }
        }
        return arrivals
    }
}
