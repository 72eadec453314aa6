import CEditLine
import Glibc

/// What the editor asks of the terminal itself: its interrupt and suspend characters, the
/// user's settings back, the size libedit learns after a resize, and bracketed paste.
extension LineEditor {
    /// The terminal's interrupt and suspend characters (`tcgetattr`: `VINTR`, `VSUSP`); Ctrl-C
    /// and Ctrl-Z when standard input has none, or one that is not a control character.
    static func terminalKeys() -> (interrupt: UInt8, suspend: UInt8) {
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return (0x03, 0x1A) }
        func control(_ index: Int32, _ fallback: UInt8) -> UInt8 {
            let byte = withUnsafeBytes(of: &settings.c_cc) { $0[Int(index)] }
            return byte > 0 && byte < 0x20 ? byte : fallback
        }
        return (control(VINTR, 0x03), control(VSUSP, 0x1A))
    }

    /// A control character in libedit's notation (`^C`).
    static func notation(_ control: UInt8) -> String { "^" + String(UnicodeScalar(control + 0x40)) }

    /// Puts back the settings the terminal had when the editor was made (`tcsetattr`, after
    /// what was written has gone out); libedit's record of its mode is not changed.
    func restoreUserMode() {
        guard var settings = userMode else { return }
        _ = tcsetattr(0, TCSADRAIN, &settings)
    }

    /// Between reads, during a wait (``InputWaiter/typedInterrupt``): reads what standard
    /// input has when `reading`, then looks at the keys typed ahead. The interrupt key
    /// ends the wait (true) and the suspend key suspends draftline there and then, as they
    /// would during a read; each is taken out, and the other keys stay for the next read,
    /// but an interrupt key typed after keys stays after them: the next read takes them and
    /// then abandons that line, onto the undo stack (a new user's trial: `never mind`, typed
    /// unseen during `/wait`, then Ctrl-C, came back in the line, and the command typed
    /// next was sent with it).
    /// What only a burst's pause decides (a paste's end marker, and the keys after it) is
    /// waited for here, at most ``KeyReader/burstPause``: a Ctrl-C after a paste had been
    /// held with the paste, and the wait ran its whole time. `nil` when standard input
    /// ended.
    func takeTypedKeys(reading: Bool, interrupt: UInt8, suspend: UInt8) -> Bool? {
        if reading && !keys.fill() { return nil }
        while true {
            while let key = keys.takeFirst(of: [interrupt, suspend], staying: interrupt) {
                if key == interrupt { return true }
                suspendBetweenReads()
            }
            guard let decided = keys.secondsUntilDecided, decided <= KeyReader.burstPause else { return false }
            if waiter.wait(handling: [], timeout: decided) == .input {
                if !keys.fill() { return nil }
            } else {
                keys.timePassed()
            }
        }
    }

    /// What ``dropPressedKeys()`` found.
    public struct PressedKeys: Equatable, Sendable {
        /// Whether any key was pressed (a paste is not a key).
        public var any = false
        /// Whether the interrupt key was among the keys.
        public var interrupt = false
        /// How many pastes were among them (their text dropped too).
        public var pastes = 0
    }

    /// Reads what standard input has and drops it, telling keys from pastes: keys pressed
    /// while something else types (the tour) are not text for the line. A paste is read to
    /// its end (a burst's pause, or a second of silence when its end never comes).
    public func dropPressedKeys() -> PressedKeys {
        var found = PressedKeys()
        let (interrupt, _) = Self.terminalKeys()
        while true {
            while waiter.wait(handling: [], timeout: 0) == .input, keys.fill() {}
            draining: while true {
                switch keys.next() {
                case .character(let character):
                    found.any = true
                    if character == wchar_t(interrupt) { found.interrupt = true }
                case .paste: continue
                case .pasteEnded: found.pastes += 1
                case .none, .endOfInput: break draining
                }
            }
            guard let decided = keys.secondsUntilDecided else { return found }
            if waiter.wait(handling: [], timeout: decided) != .input { keys.timePassed() }
        }
    }

    /// The suspend key between reads: the user's settings back, the process group stopped
    /// (`kill(0, SIGTSTP)`), and on `fg` the editor's mode again (`tcgetattr`, `tcsetattr`).
    private func suspendBetweenReads() {
        var editing = termios()
        let known = tcgetattr(0, &editing) == 0
        restoreUserMode()
        kill(0, SIGTSTP)
        if known { _ = tcsetattr(0, TCSADRAIN, &editing) }
    }

    /// Runs `body` (a wait between two reads, `/wait`) with the terminal bracketing pastes:
    /// a paste meanwhile is told from keys (its Ctrl-C is text, not the interrupt key) and
    /// waits whole for the next read, as keys typed ahead do.
    @discardableResult
    public func takingPastes<T>(_ body: () -> T) -> T {
        setBracketedPaste(true)
        defer { setBracketedPaste(false) }
        return body()
    }

    /// Asks the terminal to bracket pastes, or to stop (`ESC [?2004h`, `ESC [?2004l`), when
    /// it can take escape sequences at all and keys come from it.
    func setBracketedPaste(_ on: Bool) {
        guard hasCursorMotion, on != keys.recognisesPaste else { return }
        keys.recognisesPaste = on
        Self.write(on ? "\u{1B}[?2004h" : "\u{1B}[?2004l")
    }
}
