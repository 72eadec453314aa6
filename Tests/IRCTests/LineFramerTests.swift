import IRCProtocol
import Testing

/// Framing bytes into lines: LF and CRLF, pieces across reads, and bounded memory.
@Suite("IRC framing on bytes")
struct LineFramerTests {
    static func frames(_ framer: inout LineFramer) -> [LineFramer.Frame] {
        var frames: [LineFramer.Frame] = []
        while let frame = framer.next() { frames.append(frame) }
        return frames
    }

    @Test("LF and CRLF end lines; a line split across reads is one; empty lines are skipped")
    func lineEnds() {
        var framer = LineFramer()
        framer.append(Array("PING :a\r\nPING :b\nPI".utf8))
        framer.append(Array("NG :c\r".utf8))
        #expect(Self.frames(&framer) == [.line(Array("PING :a".utf8)), .line(Array("PING :b".utf8))])
        framer.append(Array("\n\r\n\n".utf8))
        #expect(Self.frames(&framer) == [.line(Array("PING :c".utf8))])
    }

    @Test("A CR inside a line stays (\"\\r\\n\" is one Character in Swift, so framing is on bytes)")
    func bareCR() {
        var framer = LineFramer()
        framer.append(Array("a\rb\r\n".utf8))
        #expect(Self.frames(&framer) == [.line(Array("a\rb".utf8))])
    }

    @Test("An endless line costs bounded memory and is reported once, with its size; the next line is read")
    func overlong() {
        var framer = LineFramer(maximumLineLength: 100)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        for _ in 0..<100 {
            framer.append(chunk)
            #expect(framer.bufferedBytes <= 101)
        }
        framer.append(Array("\nPING :ok\n".utf8))
        #expect(Self.frames(&framer) == [.overlong(bytes: 100 * 64 * 1024), .line(Array("PING :ok".utf8))])
    }

    @Test("A line of exactly the maximum is kept, one byte more is not")
    func boundary() {
        var framer = LineFramer(maximumLineLength: 10)
        framer.append(Array("0123456789\r\n01234567890\n".utf8))
        #expect(Self.frames(&framer) == [.line(Array("0123456789".utf8)), .overlong(bytes: 11)])
    }
}
