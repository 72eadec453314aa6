import Foundation

/// Reads an XML property list in the original design's shape in one pass over its bytes,
/// without Foundation's decoder. It takes only the plain form `PropertyListSerialization`,
/// `plistlib` and the original's `save()` write, read as Foundation reads it; anything else
/// (a comment, CDATA, an attribute, a carriage return, a number or date Foundation may read
/// otherwise) gives `nil`, and is Foundation's to read (``ChatLogFile``). It never traps.
struct XMLChatLog {
    /// The chats, in key order, with their messages in file order.
    var chats: [(chatID: String, messages: [Message])] = []
    /// What the file's ``ChatLogFile/kindsKey`` holds: each chat ID's kind as named there.
    var kindNames: [String: String] = [:]
}

extension XMLChatLog {
    /// Reads `data`; `nil` when it is not an XML property list this reader takes whole.
    init?(_ data: Data) {
        guard
            let read = data.withUnsafeBytes({ raw -> XMLChatLog? in
                var scanner = Scanner(bytes: raw)
                return scanner.chatLog()
            })
        else { return nil }
        self = read
    }

    /// The fields' names in ``Message/Field`` order, as bytes.
    private static let fields = Message.Field.allCases.map { Array($0.stringValue.utf8) }

    /// One pass over the bytes; every read checks the end first. Its values (numbers,
    /// dates, text) are read in `XMLChatLog+Values.swift`.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        /// The whole file. A first pass finds each chat's array (it ends at the first
        /// `</array>`: text holds no `<`); the arrays are then read on every core.
        mutating func chatLog() -> XMLChatLog? {
            guard prolog(), take("<dict>") else { return nil }
            var arrays: [(key: String, bytes: Range<Int>)] = []
            var keys: Set<String> = []
            var kindNames: [String: String] = [:]
            while true {
                skipSpace()
                if take("</dict>") { break }
                guard take("<key>"), let key = text(), take("</key>"), !Self.isNull(key), keys.insert(key).inserted
                else { return nil }
                skipSpace()
                if ChatLogFile.isKindsKey(key), take("<dict>") {
                    // Both spellings at once are Foundation's to read.
                    guard kindNames.isEmpty, let names = names() else { return nil }
                    kindNames = names
                    continue
                }
                guard take("<array>"), let end = end(of: "</array>") else { return nil }
                arrays.append((key, at..<end))
                at = end
            }
            skipSpace()
            guard take("</plist>") else { return nil }
            skipSpace()
            guard at == bytes.count, !arrays.isEmpty else { return nil }
            let file = bytes
            let read = Parallel.map(arrays.count) { index -> [Message]? in
                var scanner = Scanner(bytes: UnsafeRawBufferPointer(rebasing: file[arrays[index].bytes]))
                guard let messages = scanner.messages(), scanner.at == scanner.bytes.count else { return nil }
                return messages
            }
            var chats: [(chatID: String, messages: [Message])] = []
            for (array, messages) in zip(arrays, read) {
                guard let messages else { return nil }
                chats.append((array.key, messages))
            }
            return XMLChatLog(chats: chats.sorted { $0.chatID < $1.chatID }, kindNames: kindNames)
        }

        /// Where the first `tag` from here ends; `nil` when there is none.
        func end(of tag: StaticString) -> Int? {
            guard let base = bytes.baseAddress else { return nil }
            var from = at
            while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "<")), bytes.count - from) {
                let start = base.distance(to: UnsafeRawPointer(found))
                let length = tag.utf8CodeUnitCount
                if bytes.count - start >= length, memcmp(base + start, tag.utf8Start, length) == 0 {
                    return start + length
                }
                from = start + 1
            }
            return nil
        }

        /// The declaration, the document type and `<plist>`: only the forms writers use.
        mutating func prolog() -> Bool {
            if take("<?xml version=\"1.0\"") {
                _ = take(" encoding=\"UTF-8\"") || take(" encoding=\"utf-8\"")
                _ = take(" standalone=\"yes\"") || take(" standalone=\"no\"")
                guard take("?>") else { return false }
            }
            skipSpace()
            if take("<!DOCTYPE ") {
                // No internal subset: it could declare entities.
                while at < bytes.count, bytes[at] != UInt8(ascii: ">") {
                    guard bytes[at] != UInt8(ascii: "["), bytes[at] != UInt8(ascii: "<") else { return false }
                    at += 1
                }
                guard take(">") else { return false }
            }
            skipSpace()
            guard take("<plist>") || take("<plist version=\"1.0\">") else { return false }
            skipSpace()
            return true
        }

        /// A non-empty array's message dictionaries, after `<array>`, up to `</array>`.
        mutating func messages() -> [Message]? {
            var messages: [Message] = []
            while true {
                skipSpace()
                if take("</array>") { break }
                if take("<dict/>") {
                    // A message of no fields: every field its default, as Foundation reads it.
                    messages.append(Message(type: ""))
                    continue
                }
                guard take("<dict>"), let message = message() else { return nil }
                messages.append(message)
            }
            return messages.isEmpty ? nil : messages
        }

        /// A message, after `<dict>`, up to `</dict>`.
        mutating func message() -> Message? {
            var message = Message(type: "")
            var seen = 0
            while true {
                skipSpace()
                if take("</dict>") { return message }
                guard take("<key>"), let field = field(), take("</key>"), seen & (1 << field.rawValue) == 0 else {
                    return nil
                }
                seen |= 1 << field.rawValue
                skipSpace()
                let value: Message.Value? =
                    switch field.kind {
                    case .text: string().map { .text($0) }
                    case .number: number().map { .number($0) }
                    case .date: date().map { .date($0) }
                    }
                guard let value else { return nil }
                message[field] = value
            }
        }

        /// ``ChatLogFile/kindsKey``'s dictionary of strings, after `<dict>`, up to `</dict>`.
        mutating func names() -> [String: String]? {
            var names: [String: String] = [:]
            while true {
                skipSpace()
                if take("</dict>") { break }
                guard take("<key>"), let key = text(), take("</key>"), names[key] == nil, !Self.isNull(key) else {
                    return nil
                }
                skipSpace()
                guard let value = string(), !Self.isNull(value) else { return nil }
                names[key] = value
            }
            return names.isEmpty ? nil : names
        }

        /// A message field's name (plain bytes, no entity).
        mutating func field() -> Message.Field? {
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
            let name = UnsafeRawBufferPointer(rebasing: bytes[start..<at])
            return XMLChatLog.fields.firstIndex { $0.count == name.count && $0.elementsEqual(name) }.flatMap {
                Message.Field(rawValue: $0)
            }
        }

        /// `<string>…</string>` or `<string/>`. Text that starts with `$null` is read only as
        /// that whole word: with more after it Foundation refuses the file.
        mutating func string() -> String? {
            if take("<string/>") { return "" }
            guard take("<string>"), let value = text(), take("</string>") else { return nil }
            guard !Self.isNull(value) || value == "$null" else { return nil }
            return value
        }

        /// Whether text begins as Foundation's decoder reads "no value": `$null`.
        static func isNull(_ text: String) -> Bool { text.utf8.starts(with: "$null".utf8) }

        /// Steps over spaces, tabs and line feeds between elements.
        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A { at += 1 }
        }

        /// Steps over `literal` when the bytes continue with it.
        mutating func take(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - at >= count else { return false }
            let matches = literal.withUTF8Buffer { expected in
                memcmp(bytes.baseAddress! + at, expected.baseAddress!, count) == 0
            }
            if matches { at += count }
            return matches
        }
    }
}
