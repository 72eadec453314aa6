import DraftKit
import DraftlineREPL
import Testing

@Suite("Text made safe for a terminal")
struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1b}[2J", "^[[2J"), ("a\u{7}b", "a^Gb"), ("\u{7f}", "^?"), ("\u{9b}6n", "<U+009B>6n"),
        ("x\u{202e}y", "x<U+202E>y"), ("tab\tand\nnewline", "tab\tand\nnewline"), ("\r", "^M"),
    ])
    func controlsBecomeVisible(_ raw: String, _ shown: String) {
        #expect(TerminalText.visible(raw) == shown)
    }

    @Test func unicodeIsUnchangedAndSanitizingIsIdempotent() {
        let text = "你好 😀 👩‍👩‍👧 🇯🇵 e\u{301}"
        #expect(TerminalText.visible(text) == text)
        let once = TerminalText.visible("\u{1b}]52;c;aGk=\u{7}\u{202e}")
        #expect(TerminalText.visible(once) == once)
    }
}
