import Foundation

/// The original chat-log design's own file: one property list (a `UserDefaults` domain)
/// whose keys are chat IDs and whose values are arrays of message dictionaries. Read as
/// leniently as the original: a key of another value is skipped and counted, missing
/// fields take its defaults. draftline's export adds ``kindsKey``, which the original
/// never asks for, so a private chat with a user `tweet_1` comes back as that chat.
public struct ChatLogFile {
    /// The chats, in key order: each chat ID with its messages, in file order.
    public var chats: [(chatID: String, messages: [Message])]
    /// Keys whose value is not an array of message dictionaries (``kindsKey`` not counted).
    public var skippedKeys: Int
    /// What ``kindsKey`` says each chat is; empty in a file draftline did not write.
    public var kinds: [String: ChatID.Kind] = [:]

    /// The key under which an export records each chat's kind (no chat name holds a `:`).
    public static let kindsKey = "draftline:kinds"
    /// The key earlier exports recorded the kinds under: a name a user could have, so it
    /// holds the kinds only where its value is a dictionary of them.
    public static let legacyKindsKey = "draftline.kinds"

    /// Whether a file's key is where kinds are recorded (``kindsKey``, ``legacyKindsKey``).
    static func isKindsKey(_ key: String) -> Bool { key == kindsKey || key == legacyKindsKey }
    /// How ``kindsKey`` names each kind.
    static let kindNames: [ChatID.Kind: String] = [.privateChat: "chat", .thread: "thread"]

    /// The most a file may weigh: 1 GiB.
    public static let sizeLimit = 1 << 30

    /// The most a file of `size` bytes may hold once read: room for any file whose messages
    /// are its own, not for one whose objects are shared beyond that.
    static func expansionLimit(of size: Int) -> Int { 32 * size + (256 << 20) }

    /// A value of the file: an array of messages, or anything else (skipped).
    private struct Value: Decodable {
        var messages: [Message]?
        var names: [String: String]?

        init(from decoder: any Decoder) throws {
            messages = try? decoder.singleValueContainer().decode([Message].self)
            if messages == nil { names = try? decoder.singleValueContainer().decode([String: String].self) }
        }
    }

    /// Any property list, read for nothing: whether the bytes parse at all.
    private struct Parsed: Decodable {
        init(from decoder: any Decoder) throws {}
    }

}

extension ChatLogFile {
    /// Parses a property list with the own readers, several times faster than Foundation,
    /// else with Foundation's `PropertyListDecoder` once it is known to be safe.
    public init(data original: Data) throws(Problem) {
        let data = Self.lineEndsNormalized(original)
        if let own = ChatLogFile(own: data) {
            self = own
            return
        }
        let limit = Self.expansionLimit(of: data.count)
        if let size = BinaryChatLog.expandedSize(data, limit: limit), size > limit {
            // Measured only where the own reader stopped: a file it took is within the limit.
            throw .tooLarge(megabytes: limit >> 20)
        } else if let key = BinaryChatLog.repeatedKey(data) {
            // Foundation would keep one of the repeats at random, a new one each run.
            throw .repeatedKey(key)
        }
        try self.init(foundation: data)
    }

    /// The file as the own readers read it; `nil` where neither takes it whole.
    init?(own data: Data) {
        if let binary = BinaryChatLog(data, limit: Self.expansionLimit(of: data.count)) {
            self.init(chats: binary.chats, skippedKeys: 0, kinds: Self.kinds(binary.kindNames))
        } else if let xml = XMLChatLog(data) {
            self.init(chats: xml.chats, skippedKeys: 0, kinds: Self.kinds(xml.kindNames))
        } else {
            return nil
        }
    }

    /// XML in UTF-8 with its line ends made line feeds, as XML says a reader must and as
    /// `plistlib` reads it (Foundation keeps them); binary files and wide text left as they are.
    static func lineEndsNormalized(_ data: Data) -> Data {
        guard !data.starts(with: Array("bplist".utf8)), PropertyListInput.wideEncoding(of: data) == nil,
            data.contains(0x0D)
        else { return data }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count)
        var previousCR = false
        for byte in data {
            if byte == 0x0A && previousCR {
                previousCR = false
                continue
            }
            previousCR = byte == 0x0D
            bytes.append(byte == 0x0D ? 0x0A : byte)
        }
        return Data(bytes)
    }

    /// The kinds ``kindsKey`` names, those it names otherwise passed over.
    static func kinds(_ names: [String: String]) -> [String: ChatID.Kind] {
        var kinds: [String: ChatID.Kind] = [:]
        for (chat, name) in names {
            if let kind = kindNames.first(where: { $0.value == name })?.key { kinds[chat] = kind }
        }
        return kinds
    }

    /// Parses a property list (XML or binary) with Foundation's `PropertyListDecoder`.
    init(foundation data: Data) throws(Problem) {
        let root: [String: Value]
        do throws(PropertyListInput.Refusal) {
            try PropertyListInput.check(data)
        } catch .tooDeep {
            throw .tooDeep(PropertyListInput.maximumDepth)
        } catch {
            throw .notAPropertyList
        }
        do {
            root = try PropertyListDecoder().decode([String: Value].self, from: data)
        } catch {
            // Only on failure: tell a property list of another shape from none at all, with the
            // decoder (PropertyListSerialization crashes on a set that holds dictionaries).
            throw (try? PropertyListDecoder().decode(Parsed.self, from: data)) == nil
                ? .notAPropertyList : .notADictionary
        }
        var chats: [(String, [Message])] = []
        var skipped = 0
        for key in root.keys.sorted() where !Self.isKindsKey(key) || root[key]?.messages != nil {
            guard let messages = root[key]?.messages, !messages.isEmpty else {
                skipped += 1
                continue
            }
            chats.append((key, messages))
        }
        guard !chats.isEmpty else { throw .noChats(keys: root.count) }
        let names = root[Self.kindsKey]?.names ?? root[Self.legacyKindsKey]?.names
        self.init(chats: chats, skippedKeys: skipped, kinds: Self.kinds(names ?? [:]))
    }
}

extension ChatLogFile {
    /// Why bytes are no chat log: what ``init(data:)`` refuses.
    public enum Problem: Error, Equatable, Sendable {
        /// Not a property list.
        case notAPropertyList
        /// A property list, but not a dictionary.
        case notADictionary
        /// Nested deeper than this many levels: not read.
        case tooDeep(Int)
        /// A binary file whose objects are shared so that reading it would take more than
        /// this many megabytes: not read.
        case tooLarge(megabytes: Int)
        /// A binary file's top level (or its kinds) holds this key twice: readers keep either
        /// (Foundation's decoder a different one each run), so it is not read.
        case repeatedKey(String)
        /// No key holds an array of message dictionaries (how many keys there were).
        case noChats(keys: Int)
    }
}
