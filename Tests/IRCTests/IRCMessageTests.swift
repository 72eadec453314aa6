import IRCProtocol
import Testing

/// Lines as data: parsing what servers send, writing what they take.
@Suite("IRC lines: parse and serialize")
struct IRCMessageTests {
    @Test("A tagged line with a source, a command and a trailing parameter")
    func taggedLine() throws {
        let line =
            "@time=2026-12-01T14:23:28.547Z;msgid=484~1796135006~0;+typing=paused :alice!alice@127.0.0.1 TAGMSG :bob"
        let message = try #require(IRCMessage(parsing: line))
        #expect(message.tags["time"] == "2026-12-01T14:23:28.547Z")
        #expect(message.tags["msgid"] == "484~1796135006~0")
        #expect(message.tags["+typing"] == "paused")
        #expect(message.source == IRCSource(nick: "alice", user: "alice", host: "127.0.0.1"))
        #expect(message.command == "TAGMSG")
        #expect(message.parameters == ["bob"])
    }

    @Test("Parameters: middle ones split on runs of spaces, the trailing one kept whole with its spaces")
    func parameters() throws {
        let message = try #require(IRCMessage(parsing: ":srv 353 me = #chan :@alice +bob  carol "))
        #expect(message.parameters == ["me", "=", "#chan", "@alice +bob  carol "])
        let empty = try #require(IRCMessage(parsing: "PRIVMSG bob :"))
        #expect(empty.parameters == ["bob", ""])
        #expect(IRCMessage(parsing: "") == nil)
        #expect(IRCMessage(parsing: "   ") == nil)
        #expect(IRCMessage(parsing: "@a=b :src") == nil)
        #expect(IRCMessage(parsing: "privmsg a b")?.command == "PRIVMSG")
    }

    @Test("A combining mark after a space or a colon does not hide them")
    func combiningMarks() throws {
        let message = try #require(IRCMessage(parsing: ":bob!b@h PRIVMSG alice :\u{301}e"))
        #expect(message.parameters == ["alice", "\u{301}e"])
        let tagged = try #require(IRCMessage(parsing: "@k=\u{301}v;x=1 PING :t"))
        #expect(tagged.tags["k"] == "\u{301}v")
        #expect(tagged.tags["x"] == "1")
    }

    @Test("Invalid UTF-8 and NUL bytes become U+FFFD; CJK and emoji pass unchanged")
    func lenientDecoding() throws {
        var bytes = Array(":bob!b@h PRIVMSG alice :".utf8)
        bytes += [0xFF, 0x00, 0xC3] + Array("你好 👩‍👩‍👧".utf8)
        let message = try #require(IRCMessage(parsing: bytes))
        #expect(message.parameters[1] == "\u{FFFD}\u{FFFD}\u{FFFD}你好 👩‍👩‍👧")
    }

    @Test("Tag values are escaped and unescaped as the message-tags specification says")
    func tagEscaping() throws {
        let value = "a;b c\\d\re\nf"
        #expect(MessageTags.escape(value) == "a\\:b\\sc\\\\d\\re\\nf")
        #expect(MessageTags.unescape(MessageTags.escape(value)[...]) == value)
        // An unknown escape stands for the character; a trailing lone backslash is dropped.
        #expect(MessageTags.unescape("\\x\\") == "x")
        // A key given twice keeps the last value; no value and an empty value are both "".
        let tags = MessageTags(parsing: "a=1;b;a=2;c=")
        #expect(tags["a"] == "2")
        #expect(tags["b"] == "")
        #expect(tags["c"] == "")
        let message = IRCMessage(tags: ["+draftline/x": value], "TAGMSG", "bob")
        let parsed = try #require(IRCMessage(parsing: try message.serialized()))
        #expect(parsed.tags["+draftline/x"] == value)
    }

    @Test("Serializing: a colon where needed, and always before a PRIVMSG's text")
    func serializing() throws {
        #expect(try IRCMessage("NICK", "alice").serialized() == "NICK alice")
        #expect(try IRCMessage("CAP", "LS", "302").serialized() == "CAP LS 302")
        #expect(try IRCMessage("USER", "alice", "0", "*", "draftline").serialized() == "USER alice 0 * draftline")
        #expect(try IRCMessage("PRIVMSG", "bob", "hi").serialized() == "PRIVMSG bob :hi")
        #expect(try IRCMessage("PRIVMSG", "bob", ":) ok").serialized() == "PRIVMSG bob ::) ok")
        #expect(try IRCMessage("JOIN", "#tweet_1").serialized() == "JOIN #tweet_1")
        #expect(
            try IRCMessage(tags: ["+typing": "active"], "TAGMSG", "bob").serialized() == "@+typing=active TAGMSG bob")
    }

    @Test("Serializing refuses what would inject or be cut: CR, LF, NUL, spaces in the middle, 511 bytes")
    func serializingRefuses() {
        #expect(throws: IRCMessage.SerializationError.forbiddenCharacter(parameter: 1)) {
            try IRCMessage("PRIVMSG", "bob", "hi\r\nQUIT").serialized()
        }
        #expect(throws: IRCMessage.SerializationError.forbiddenCharacter(parameter: 1)) {
            try IRCMessage("PRIVMSG", "bob", "a\u{0}b").serialized()
        }
        #expect(throws: IRCMessage.SerializationError.invalidMiddleParameter(0)) {
            try IRCMessage("PRIVMSG", "bob smith", "hi").serialized()
        }
        #expect(throws: IRCMessage.SerializationError.invalidCommand("PRIV MSG")) {
            try IRCMessage(command: "PRIV MSG", parameters: []).serialized()
        }
        let fits = "PRIVMSG bob :" + String(repeating: "x", count: 510 - 13)
        #expect((try? IRCMessage("PRIVMSG", "bob", String(repeating: "x", count: 497)).serialized()) == fits)
        #expect(throws: IRCMessage.SerializationError.tooLong(bytes: 511)) {
            try IRCMessage("PRIVMSG", "bob", String(repeating: "x", count: 498)).serialized()
        }
        #expect(throws: IRCMessage.SerializationError.invalidTagKey("bad key")) {
            try IRCMessage(tags: ["bad key": "v"], "TAGMSG", "bob").serialized()
        }
    }

    @Test("CTCP: ACTION and requests, with or without the closing marker")
    func ctcp() {
        #expect(CTCP(parsing: "\u{1}ACTION waves\u{1}") == CTCP("ACTION", "waves"))
        #expect(CTCP(parsing: "\u{1}version") == CTCP("VERSION", ""))
        #expect(CTCP(parsing: "plain") == nil)
        #expect(CTCP(parsing: "\u{1}\u{1}") == nil)
        #expect(CTCP("PING", "123").messageText == "\u{1}PING 123\u{1}")
    }

    @Test("Formatting codes are stripped: bold, colours with their numbers, hex colours, reset")
    func formatting() {
        #expect(IRCFormatting.stripped("\u{2}bold\u{2} \u{3}04,12red\u{3} \u{3}5x \u{1D}i\u{F}") == "bold red x i")
        #expect(IRCFormatting.stripped("\u{4}FF0000,00FF00hex") == "hex")
        #expect(IRCFormatting.stripped("\u{3},5 comma stays") == ",5 comma stays")
        #expect(IRCFormatting.stripped("你好 plain") == "你好 plain")
    }

    @Test("server-time values read as seconds since 1970")
    func serverTime() {
        #expect(ServerTime.seconds("1970-01-01T00:00:00.000Z") == 0)
        #expect(abs((ServerTime.seconds("2026-12-01T14:23:28.547Z") ?? 0) - 1_796_135_008.547) < 1e-6)
        #expect(ServerTime.seconds("2000-02-29T00:00:00Z") == 951_782_400)
        #expect(ServerTime.seconds("2026-13-01T00:00:00Z") == nil)
        #expect(ServerTime.seconds("yesterday") == nil)
    }

    @Test("Nicks and channels as both servers take them; rfc1459 folding")
    func names() {
        #expect(IRCNames.isValidNick("alice"))
        #expect(IRCNames.isValidNick("[bob]^`|"))
        #expect(!IRCNames.isValidNick("1abc"))
        #expect(!IRCNames.isValidNick("-abc"))
        #expect(!IRCNames.isValidNick("a.b"))
        #expect(!IRCNames.isValidNick("名前"))
        #expect(!IRCNames.isValidNick(String(repeating: "a", count: 31)))
        #expect(IRCNames.isChannel("#tweet_123"))
        #expect(!IRCNames.isChannel("#a b"))
        #expect(!IRCNames.isChannel("tweet"))
        #expect(IRCNames.folded("Bob[x]") == "bob{x}")
        #expect(IRCNames.folded("Bob[x]", mapping: .ascii) == "bob[x]")
    }
}
