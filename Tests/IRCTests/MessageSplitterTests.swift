import IRCProtocol
import Testing

/// Splitting a message to the budget of the line the server relays.
@Suite("Splitting messages to fit 512 bytes as relayed")
struct MessageSplitterTests {
    static let alice = IRCSource(nick: "alice", user: "~alice", host: "127.0.0.1")

    @Test("The budget counts ':nick!user@host PRIVMSG target :' and the reply's prefix")
    func budget() {
        let relayed = ":alice!~alice@127.0.0.1 PRIVMSG bob :"
        #expect(MessageSplitter.budget(source: Self.alice, target: "bob") == 510 - relayed.utf8.count)
        #expect(
            MessageSplitter.budget(source: Self.alice, target: "bob", prefix: "bob: ") == 510 - relayed.utf8.count - 5)
    }

    @Test(
        "Every piece fits, pieces join to the text, and no piece ends inside a character",
        arguments: ["你好世界", "👩‍👩‍👧‍👦", "e\u{301}", "a", "مرحبا", "x y "])
    func fitsAndJoins(unit: String) throws {
        let text = String(repeating: unit, count: 700)
        let budget = MessageSplitter.budget(source: Self.alice, target: "#tweet_123")
        let pieces = try MessageSplitter.split(text, budget: budget)
        #expect(pieces.count > 1)
        #expect(pieces.joined() == text)
        var offset = 0
        for piece in pieces {
            #expect(piece.utf8.count <= budget)
            #expect(piece.utf8.count >= budget - 30 || piece == pieces.last)  // as full as whole characters allow
            offset += piece.utf8.count
            // Each cut is a character boundary of the text.
            let cut = text.utf8.index(text.startIndex, offsetBy: offset)
            #expect(String.Index(cut, within: text) != nil)
        }
    }

    @Test("A cut prefers the last space past half the budget, and keeps the space")
    func spaces() throws {
        let words = (0..<200).map { "word\($0)" }.joined(separator: " ")
        let pieces = try MessageSplitter.split(words, budget: 100)
        #expect(pieces.joined() == words)
        for piece in pieces.dropLast() {
            #expect(piece.hasSuffix(" "))
            #expect(piece.utf8.count >= 50)
        }
    }

    @Test("One character larger than a line is cut between its scalars, never inside one")
    func hugeCluster() throws {
        let zalgo = "a" + String(repeating: "\u{301}", count: 400)  // one grapheme of 801 bytes
        let pieces = try MessageSplitter.split(zalgo, budget: 100)
        #expect(pieces.joined() == zalgo)
        #expect(pieces.first?.utf8.count == 99)  // "a" and 49 marks of 2 bytes: a 50th would not fit
        for piece in pieces.dropFirst() {
            // Marks only, each whole (2 bytes), as many as fit.
            #expect(piece.utf8.count <= 100 && piece.utf8.count % 2 == 0)
            #expect(piece.unicodeScalars.allSatisfy { $0 == "\u{301}" })
        }
    }

    @Test("Each line of a multi-line message is sent on its own (LF, CRLF, CR); empty lines are left out")
    func lines() throws {
        #expect(
            try MessageSplitter.split("one\ntwo\r\nthree\rfour\n\n", budget: 100) == ["one", "two", "three", "four"])
        #expect(try MessageSplitter.split(" \n x", budget: 100) == [" ", " x"])
    }

    @Test("Refused: NUL, a line starting with the CTCP marker, nothing to send, no room")
    func refusals() {
        #expect(throws: MessageSplitter.Refusal.nul) { try MessageSplitter.split("a\u{0}b", budget: 100) }
        #expect(throws: MessageSplitter.Refusal.ctcpMarker) {
            try MessageSplitter.split("ok\n\u{1}ACTION x", budget: 100)
        }
        #expect(throws: MessageSplitter.Refusal.empty) { try MessageSplitter.split("\n\r\n", budget: 100) }
        #expect(throws: MessageSplitter.Refusal.noRoom) { try MessageSplitter.split("x", budget: 3) }
    }
}
