import DraftlineTestSupport
import Foundation
import Testing

@testable import DraftKit

/// The XML import's own reader (``XMLChatLog``) reads every file it takes exactly as
/// Foundation's decoder does, byte for byte, and leaves the rest to it.
@Suite("XML chat logs read without Foundation's decoder")
struct XMLChatLogTests {
    static func xml(_ plist: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    }

    /// Every field of every message as bytes and bit patterns: `String`'s `==` would take
    /// two spellings of one character as equal.
    static func exact(_ chats: [(chatID: String, messages: [Message])]) -> [[String]] {
        chats.map { chat in
            [Array(chat.chatID.utf8).description]
                + chat.messages.map { message in
                    [
                        message.chatID, message.messageID, message.content, message.target, message.mineHead,
                        message.otherHead, message.type, message.filePath, message.address, message.sender,
                    ].map { Array($0.utf8).description }.joined(separator: ",")
                        + "\(message.latitude.bitPattern),\(message.longitude.bitPattern),"
                        + "\(message.sentAt.timeIntervalSinceReferenceDate.bitPattern)"
                }
        }
    }

    /// Whether the reader took `data` and read it as Foundation does; `nil` when it left it.
    static func agrees(_ data: Data, _ comment: Comment? = nil) -> Bool? {
        guard let own = XMLChatLog(data) else { return nil }
        guard let file = try? ChatLogFile(foundation: data) else {
            Issue.record("the reader took a file Foundation refuses \(comment.map { "(\($0))" } ?? "")")
            return false
        }
        let same =
            file.skippedKeys == 0 && exact(own.chats) == exact(file.chats)
            && ChatLogFile.kinds(own.kindNames) == file.kinds
        if !same { Issue.record("reader and Foundation disagree \(comment.map { "(\($0))" } ?? "")") }
        return same
    }

    /// Text that needs escaping, in several scripts, with combining marks and emoji.
    static func text(_ generator: inout SeededGenerator) -> String {
        let pieces = [
            "a", "Z", " ", "\t", "\n", "<", ">", "&", "\"", "'", "]]>", "&amp;", "é", "e\u{301}", "你好", "😀", "👍🏽",
            "🇨🇳", "\u{7F}", "\u{A0}", "\u{2028}", "\u{FEFF}", "ß", "0", "-",
        ]
        return (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        }.joined()
    }

    /// A chat log of random messages: text to escape, reals of every size, integers where
    /// reals belong, dates from 1900 to 9999, fields left out.
    static func randomFile(_ generator: inout SeededGenerator) -> [String: Any] {
        var file: [String: Any] = [:]
        for chat in 0..<Int.random(in: 1...6, using: &generator) {
            let name = chat == 0 ? "tweet_\(chat)" : "user\(chat)\(text(&generator).prefix(2))"
            file[name] = (0..<Int.random(in: 1...8, using: &generator)).map { _ -> [String: Any] in
                var fields = Message(
                    chatID: name, messageID: text(&generator), content: text(&generator), target: text(&generator),
                    mineHead: "me", otherHead: text(&generator), type: text(&generator),
                    filePath: text(&generator), address: text(&generator),
                    latitude: Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)),
                    longitude: Double.random(in: -180...180, using: &generator),
                    sentAt: Date(
                        timeIntervalSince1970: Double(
                            Int64.random(in: -2_208_988_800...253_402_300_799, using: &generator))),
                    sender: text(&generator)
                ).dictionary
                if let latitude = fields["latitude"] as? Double, !latitude.isFinite || latitude.isSubnormal {
                    fields["latitude"] = 1.5
                }
                if Bool.random(using: &generator) {
                    fields["longitude"] = Int.random(in: -999...999, using: &generator)
                }
                for key in fields.keys where Int.random(in: 0..<8, using: &generator) == 0 {
                    fields.removeValue(forKey: key)
                }
                return fields
            }
        }
        if Bool.random(using: &generator) { file[ChatLogFile.kindsKey] = ["tweet_0": "thread", "user1": "chat"] }
        return file
    }

    @Test func filesAsFoundationWritesThemAreReadByTheReaderAsFoundationReadsThem() throws {
        var generator = SeededGenerator(seed: 0x0D0C)
        var taken = 0
        for round in 0..<300 {
            let data = try Self.xml(Self.randomFile(&generator))
            if Self.agrees(data, "round \(round)") != nil { taken += 1 }
        }
        // Foundation writes a DEL or a U+2028 as it is, and the reader takes those too: it
        // leaves a file only for what it does not read (no file here has any).
        #expect(taken == 300)
        // Through the public door, which takes the reader's way.
        let data = try Self.xml(BinaryChatLogTests.file)
        let read = try ChatLogFile(data: data)
        let foundation = try ChatLogFile(foundation: data)
        #expect(Self.exact(read.chats) == Self.exact(foundation.chats) && read.skippedKeys == 0)
        #expect(XMLChatLog(data) != nil)
    }

    /// What other writers write (by hand, `plistlib`) is read alike, or left.
    @Test func handWrittenFormsAreReadAlikeOrLeftToFoundation() throws {
        func document(_ body: String, prolog: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) -> Data {
            Data(
                (prolog
                    + "\n<plist version=\"1.0\">\n<dict><key>alice</key><array><dict>\(body)</dict></array></dict>\n</plist>\n")
                    .utf8)
        }
        let read: [String] = [
            "<key>content</key><string>caf&#233; &#x1F600; &lt;b&gt; &apos;&quot;</string>",
            "<key>content</key><string/><key>type</key><string>image</string>",
            "<key>latitude</key><integer>-42</integer><key>longitude</key><real>+1.5E3</real>",
            "<key>latitude</key><real>1e-05</real><key>longitude</key><real>52.</real>",
            "<key>sentAt</key><date>2000-02-29T23:59:59Z</date>",
            "<key>sentAt</key><date>1900-01-01T00:00:00Z</date>",
            "<key>sentAt</key><date>9999-12-31T23:59:59Z</date>",
            "\n\t <key>content</key>\n<string>  spaced\n</string>  ",
        ]
        for body in read {
            #expect(Self.agrees(document(body), "\(body)") == true)
        }
        #expect(Self.agrees(document(read[0], prolog: "")) == true)
        // Forms the reader leaves to Foundation, whatever Foundation makes of them.
        let left: [(String, String)] = [
            ("<key>content</key><string>a\r\nb</string>", "a carriage return"),
            ("<!-- note --><key>content</key><string>a</string>", "a comment"),
            ("<key>content</key><string><![CDATA[a]]></string>", "CDATA"),
            ("<key>content</key><string xml:space=\"preserve\">a</string>", "an attribute"),
            ("<key>content</key><true/>", "a boolean"),
            ("<key>latitude</key><real>nan</real>", "not a number"),
            ("<key>latitude</key><real>1e999</real>", "out of range"),
            ("<key>latitude</key><integer>0x10</integer>", "hexadecimal"),
            ("<key>sentAt</key><date>2001-02-29T00:00:00Z</date>", "no such day"),
            ("<key>sentAt</key><date>1066-10-14T09:00:00Z</date>", "before 1900"),
            ("<key>content</key><string>&#0;</string>", "a character XML does not have"),
            ("<key>content</key><string>&nbsp;</string>", "an entity XML does not name"),
            ("<key>extra</key><string>a</string>", "an unknown field"),
            ("<key>content</key><string>a</string><key>content</key><string>b</string>", "a repeated field"),
        ]
        for (body, what) in left {
            #expect(XMLChatLog(document(body)) == nil, "\(what)")
        }
        #expect(XMLChatLog(Data(#"<?xml version="1.0" encoding="UTF-16"?><plist><dict/></plist>"#.utf8)) == nil)
        #expect(XMLChatLog(Data([0xEF, 0xBB, 0xBF]) + document(read[0])) == nil, "a byte-order mark")
        // A preferences file's other keys: Foundation skips them and counts them.
        let preferences = Data(
            #"<plist version="1.0"><dict><key>NSWindow Frame</key><string>0 0 1 1</string><key>alice</key><array><dict><key>content</key><string>a</string></dict></array></dict></plist>"#
                .utf8)
        #expect(XMLChatLog(preferences) == nil)
        #expect(try ChatLogFile(data: preferences).skippedKeys == 1)
    }

    /// Damaged files: wherever the reader takes one, Foundation reads the same messages.
    @Test func aDamagedFileIsEitherLeftToFoundationOrReadAsFoundationReadsIt() throws {
        var generator = SeededGenerator(seed: 0xDA3A6E)
        let original = [UInt8](try Self.xml(Self.randomFile(&generator)))
        let tokens = [
            "<", ">", "&", "&amp;", "&#10;", "&#xD;", "\r", "<!--x-->", "<string/>", "<dict/>", "</dict>", "<key>",
            "<real>1</real>", "<integer>", "]]>", "\u{0}", "\u{FF}", "é",
        ].map { Array($0.utf8) }
        var taken = 0
        for round in 0..<1500 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                if Bool.random(using: &generator) {
                    bytes[at] = UInt8.random(in: 0...255, using: &generator)
                } else {
                    bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &generator)], at: at)
                }
            }
            if Self.agrees(Data(bytes), "damaged round \(round)") != nil { taken += 1 }
        }
        // A mutation in a message's text leaves a file the reader takes: these are compared.
        #expect(taken > 25)
    }
}
