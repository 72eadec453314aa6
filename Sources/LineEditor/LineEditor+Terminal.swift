import CEditLine
import Glibc

/// What the editor asks of the terminal itself: its interrupt and suspend characters, the
/// size libedit learns after a resize, and bracketed paste.
extension LineEditor {
    /// The terminal's interrupt and suspend characters (`tcgetattr`: `VINTR`, `VSUSP`), in
    /// libedit's notation; `^C` and `^Z` when standard input has none.
    static func terminalKeys() -> (interrupt: String, suspend: String) {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return ("^C", "^Z") }
        func notation(_ index: Int32, _ fallback: String) -> String {
            let byte = withUnsafeBytes(of: &settings.c_cc) { $0[Int(index)] }
            guard byte > 0 && byte < 0x20 else { return fallback }
            return "^" + String(UnicodeScalar(byte + 0x40))
        }
        return (notation(VINTR, "^C"), notation(VSUSP, "^Z"))
    }

    /// A resize that came while no line was read: libedit learns the size now (`el_resize`).
    func learnPendingResize() {
        if !waiter.take(.resize).isEmpty { el_resize(editLine) }
    }

    /// Asks the terminal to bracket pastes, or to stop (`ESC [?2004h`, `ESC [?2004l`), when
    /// it can take escape sequences at all and keys come from it.
    func setBracketedPaste(_ on: Bool) {
        guard hasCursorMotion, keySource == nil, on != keys.recognisesPaste else { return }
        keys.recognisesPaste = on
        Self.write(on ? "\u{1B}[?2004h" : "\u{1B}[?2004l")
    }
}
