import DraftKit
import IRCClient
import IRCProtocol
import Testing

/// draftline's targets and contents on IRC, and back.
@Suite("draftline's chats, locations and attachments on IRC")
struct AddressingTests {
    static let bob = try! GlobalKey(validating: "bob")

    @Test("A private chat is the nick, a thread its channel, a reply 'bob: '")
    func destinations() {
        #expect(IRCAddressing.destination(of: .privateChat(Self.bob)) == ("bob", ""))
        #expect(IRCAddressing.destination(of: .comment(.tweet, id: 123, replyTo: nil)) == ("#tweet_123", ""))
        #expect(IRCAddressing.destination(of: .comment(.task, id: 7, replyTo: Self.bob)) == ("#task_7", "bob: "))
        #expect(IRCAddressing.channel(of: .privateChat(Self.bob)) == nil)
    }

    @Test("Keys that are nicks, nicks that are keys")
    func keysAndNicks() throws {
        #expect(IRCAddressing.nick(for: Self.bob) == "bob")
        #expect(IRCAddressing.nick(for: try GlobalKey(validating: "a.b")) == nil)
        #expect(IRCAddressing.nick(for: try GlobalKey(validating: "1abc")) == nil)
        #expect(IRCAddressing.nick(for: try GlobalKey(validating: String(repeating: "a", count: 31))) == nil)
        #expect(IRCAddressing.key(forNick: "Bob") == Self.bob)
        #expect(IRCAddressing.key(forNick: "[away]") == nil)
    }

    @Test("Received: a private message is the sender's chat; a thread's 'bob: ' is a reply only when bob is there")
    func placing() {
        let members: Set<String> = ["bob", "alice"]
        #expect(
            IRCAddressing.place(.nick("Bob"), sender: "Bob", text: "hi", isAddressable: { _ in false })?.target
                == .privateChat(Self.bob))
        let reply = IRCAddressing.place(
            .channel("#tweet_9"), sender: "carol", text: "bob: hi there", isAddressable: members.contains)
        #expect(reply?.target == .comment(.tweet, id: 9, replyTo: Self.bob))
        #expect(reply?.text == "hi there")
        let note = IRCAddressing.place(
            .channel("#tweet_9"), sender: "carol", text: "Note: not a reply", isAddressable: members.contains)
        #expect(note?.target == .comment(.tweet, id: 9, replyTo: nil))
        #expect(note?.text == "Note: not a reply")
        #expect(
            IRCAddressing.place(.channel("#random"), sender: "carol", text: "x", isAddressable: { _ in true }) == nil)
        #expect(
            IRCAddressing.place(.channel("#tweet_01"), sender: "carol", text: "x", isAddressable: { _ in true }) == nil)
        #expect(IRCAddressing.place(.nick("[x]"), sender: "[x]", text: "x", isAddressable: { _ in true }) == nil)
    }

    @Test("A location is a geo: URI and back; an attachment a line naming the file, which is not sent")
    func contents() {
        let location = WireContent.location(
            latitude: 52.520008, longitude: -13.404954, address: "Alexanderplatz\nBerlin")
        #expect(location.line == "geo:52.520008,-13.404954 Alexanderplatz Berlin")
        #expect(
            WireContent(line: location.line)
                == .location(latitude: 52.520008, longitude: -13.404954, address: "Alexanderplatz Berlin"))
        #expect(WireContent.location(latitude: 0.00001, longitude: 0, address: "").line == "geo:0.000010,0.000000")
        #expect(WireContent(line: "geo:91,0") == .text("geo:91,0"))
        #expect(WireContent(line: "geo:1e5,0") == .text("geo:1e5,0"))
        #expect(WireContent(line: "geo:1,2,3;u=35") == .location(latitude: 1, longitude: 2, address: ""))
        let file = WireContent.attachment(name: "photo 1.jpg")
        #expect(file.line == "attachment: photo 1.jpg (file not sent)")
        #expect(WireContent(line: file.line) == file)
        #expect(WireContent(line: "attachment:   (file not sent)") == .attachment(name: " "))
        #expect(WireContent(line: "attachment:  (file not sent)") == .text("attachment:  (file not sent)"))
        #expect(WireContent(line: "just text") == .text("just text"))
    }

    @Test("--server: irc:// and ircs://, default ports, IPv6 in brackets; refusals")
    func serverAddress() throws {
        #expect(
            try ServerAddress(parsing: "irc://127.0.0.1")
                == ServerAddress(host: "127.0.0.1", port: 6667, usesTLS: false))
        #expect(
            try ServerAddress(parsing: "ircs://irc.example.org:7000/")
                == ServerAddress(host: "irc.example.org", port: 7000, usesTLS: true))
        #expect(try ServerAddress(parsing: "ircs://irc.example.org").port == 6697)
        #expect(
            try ServerAddress(parsing: "irc://[::1]:6668") == ServerAddress(host: "::1", port: 6668, usesTLS: false))
        #expect(throws: ServerAddress.Problem.scheme) { try ServerAddress(parsing: "http://x") }
        #expect(throws: ServerAddress.Problem.port) { try ServerAddress(parsing: "irc://x:0") }
        #expect(throws: ServerAddress.Problem.port) { try ServerAddress(parsing: "irc://x:+1") }
        #expect(throws: ServerAddress.Problem.host) { try ServerAddress(parsing: "irc://") }
        #expect(throws: ServerAddress.Problem.host) { try ServerAddress(parsing: "irc://a b") }
    }
}
