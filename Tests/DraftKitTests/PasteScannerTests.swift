import BracketedPaste
import DraftKit
import DraftlineREPL
import Testing

/// The one paste grammar as data: where a paste starts and ends, what is text and what
/// is keys, as input comes in pieces and pauses.
@Suite("Bracketed pastes picked out of input")
struct PasteScannerTests {
    typealias Scanner = PasteScanner<Unicode.Scalar>
    typealias Event = Scanner.Event

    static func scanner(limit: Int = 100) -> Scanner { Scanner(limit: limit) { Unicode.Scalar($0) } }
    static func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    @Test func aPasteBetweenKeysIsItsText() {
        var scanner = Self.scanner()
        scanner.feed(Self.scalars("a\u{1B}[200~x\ry\u{1B}[201~b"))
        #expect(
            scanner.take(.silence) == [
                .key("a"), .text(Self.scalars("x\ry")), .end(size: 3, refused: false), .key("b"),
            ])
    }

    /// A paste ends at the last end marker of its burst: an earlier one is text.
    @Test func anEarlyEndMarkerIsText() {
        #expect(
            PastePiece.split("\u{1B}[200~A\u{1B}[201~\rB\u{1B}[201~\u{15}") == [
                .paste("A\u{1B}[201~\rB"), .key("\u{15}"),
            ])
    }

    /// An end marker right before a start marker is two pastes back to back: nothing
    /// between them was keys, and the markers are not text.
    @Test func twoPastesBackToBackAreTwo() {
        #expect(
            PastePiece.split("\u{1B}[200~A\u{1B}[201~\u{1B}[200~B\u{1B}[201~\r") == [
                .paste("A"), .paste("B"), .key("\r"),
            ])
    }

    @Test func inputInPiecesIsDecidedWhenItPauses() {
        var scanner = Self.scanner()
        scanner.feed(Self.scalars("\u{1B}[20"))
        #expect(scanner.take(.more) == [], "the rest of the start marker may come")
        scanner.feed(Self.scalars("0~ab"))
        #expect(scanner.take(.more) == [.text(["a", "b"])], "text is handed out as it comes")
        scanner.feed(Self.scalars("\u{1B}[201~"))
        #expect(scanner.take(.more) == [], "an end marker waits: another may follow in the burst")
        scanner.feed(Self.scalars("\r"))
        #expect(scanner.take(.more) == [])
        #expect(scanner.take(.pause) == [.end(size: 2, refused: false), .key("\r")], "the burst is over")
        #expect(!scanner.isInPaste && !scanner.isHolding)
    }

    @Test func aStartWithoutAnEndHoldsNothingBackAndEndsInSilence() {
        var scanner = Self.scanner()
        scanner.feed(Self.scalars("\u{1B}[200~abc\r"))
        #expect(scanner.take(.more) == [.text(Self.scalars("abc\r"))])
        #expect(scanner.take(.pause) == [], "a pause alone does not end it")
        scanner.feed(Self.scalars("d"))
        #expect(scanner.take(.more) == [.text(["d"])])
        #expect(scanner.take(.silence) == [.end(size: 5, refused: false)])
        scanner.feed(Self.scalars("\r"))
        #expect(scanner.take(.more) == [.key("\r")], "keys are keys again")
    }

    @Test func aPasteOverTheLimitIsRefusedWhole() {
        var scanner = Self.scanner(limit: 3)
        scanner.feed(Self.scalars("\u{1B}[200~abcdef\u{1B}[201~"))
        #expect(scanner.take(.pause) == [.text(["a", "b", "c"]), .end(size: 6, refused: true)])
    }

    @Test func aLoneEscapeIsAKeyOnceTheInputPauses() {
        var scanner = Self.scanner()
        scanner.feed(Self.scalars("\u{1B}[2"))
        #expect(scanner.take(.more) == [])
        #expect(scanner.take(.pause) == [.key("\u{1B}"), .key("["), .key("2")])
        #expect(PastePiece.split("\u{1B}[A") == [.key("\u{1B}"), .key("["), .key("A")])
    }

    @Test func pastedPartsMoveWithTheEditsAroundThem() {
        var ranges = PastedRanges([2..<5])
        ranges.replace(0..<0, count: 2, pasted: false)  // typed before it
        #expect(ranges.ranges == [4..<7])
        ranges.replace(5..<5, count: 1, pasted: false)  // typed inside it: split
        #expect(ranges.ranges == [4..<5, 6..<8])
        ranges.replace(4..<7, count: 0, pasted: false)  // deleted across it
        #expect(ranges.ranges == [4..<5])
        ranges.replace(5..<5, count: 3, pasted: true)  // pasted right after it: one part
        #expect(ranges.ranges == [4..<8])
        #expect(ranges.contains(4) && !ranges.contains(8))
    }

    /// The runs typed into a line given text keep apart: text typed at a run's end or inside
    /// it goes on with it; at its start (the given text's end there) it is a run of its own.
    @Test func typedRunsKeepApartThroughEdits() {
        var runs = InsertedRuns([9..<18])  // "draft one /histroy": the attempt given back
        runs.replace(0..<0, count: 1)  // `Ctrl-A X`
        #expect(runs.runs == [0..<1, 10..<19])
        runs.replace(10..<10, count: 1)  // at the attempt's start: the draft's end, a run of its own
        #expect(runs.runs == [0..<1, 10..<11, 11..<20])
        runs.replace(20..<20, count: 2)  // at its end: it goes on
        #expect(runs.runs == [0..<1, 10..<11, 11..<22])
        runs.replace(13..<22, count: 0)  // the attempt deleted but its first two
        #expect(runs.runs == [0..<1, 10..<11, 11..<13])
        runs.replace(12..<13, count: 5)  // replaced inside it: one run still
        #expect(runs.runs == [0..<1, 10..<11, 11..<17])
        runs.replace(0..<17, count: 0)  // all gone
        #expect(runs.runs.isEmpty && runs.count == 0)
    }

    @Test func lineBreaksOfAPasteAreLFAcrossPieces() {
        var breaks = LineBreaks()
        #expect(breaks.normalize(Self.scalars("a\r")) == ["a", "\n"])
        #expect(breaks.normalize(Self.scalars("\nb\r\nc")) == ["b", "\n", "c"])
    }

    /// A piped line marks what it pasted into text, and the session reads it as text: a
    /// paste into a restored draft is never a command; on an empty line it is one.
    @Test func aPasteIntoADraftIsAMessageAndOnAnEmptyLineACommand() {
        var piped = PipedLine()
        var seen: [(InputEvent, LineOrigin)] = []
        piped.play("\u{1B}[200~/etc/hosts x\u{1B}[201~", prefill: { (TextDraft(text: "see "), .typed) }) {
            seen.append(($0, $1))
        }
        #expect(seen.map(\.0) == [.line("see /etc/hosts x")])
        #expect(seen.map(\.1.pasted) == [[4..<16]])
        seen = []
        piped.play("\u{1B}[200~/drafts\u{1B}[201~", prefill: { nil }) { seen.append(($0, $1)) }
        #expect(seen.map(\.1.pasted) == [[]], "onto an empty line, a paste is like typing")

        let history = MemoryHistory()
        let frontend = Frontend(Session(contacts: ContactBook(), history: history))
        frontend.handle(.line("/open alice"))
        frontend.handle(.leave(.back, TextDraft(text: "see ")))
        frontend.handle(.line("/open alice"))
        let pasted = frontend.handle(.line("see /etc/hosts x"), origin: LineOrigin(pasted: [4..<16])).lines
        #expect(history.contents("alice") == ["see /etc/hosts x"], "\(pasted)")
        frontend.handle(.leave(.back, TextDraft(text: "ab")))
        frontend.handle(.line("/open alice"))
        // Pasted at the start, before the draft: a message too, verbatim.
        frontend.handle(.line("//x ab"), origin: LineOrigin(pasted: [0..<4]))
        #expect(history.contents("alice").last == "//x ab")
        #expect(frontend.session.ledgerCatches == 0)
    }
}
