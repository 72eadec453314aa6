import CEditLine
import Glibc

/// Output: the one path draftline's text takes to the terminal, above the edit line while
/// one is read.
extension LineEditor {
    /// Writes text to standard output (or standard error) through libedit's own streams.
    ///
    /// Wraps `fwrite` and `fflush`. Returns whether every byte was written.
    @discardableResult
    public static func write(_ text: String, toError: Bool = false) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    dl_write(toError ? 1 : 0, $0, buffer.count) == 0
                }
            } ?? true
        }
    }

    /// Prints `text` (whole lines) above the edit line while a line is being read, then
    /// redraws the prompt and the line with its cursor; outside a read, writes it.
    ///
    /// Moves to the first row of the edit line (a line wider than the terminal spans
    /// several rows), erases to the end of the screen, writes the text, and asks libedit
    /// to draw the prompt and line again (`el_set(EL_REFRESH)`). On a terminal that cannot
    /// move the cursor (``hasCursorMotion``), the text goes on a new line and the prompt
    /// and line are drawn again below it, with no escape sequence. The buffer, the cursor
    /// and a half-typed key sequence are libedit's and are not touched.
    public func printAbove(_ text: String, toError: Bool = false) {
        guard isReading else {
            Self.write(text, toError: toError)
            return
        }
        if hasCursorMotion {
            let state = lineState
            let before = state.text.unicodeScalars.prefix(state.cursor)
            let row = (Self.width(of: promptText.unicodeScalars) + Self.width(of: before)) / max(columns, 1)
            Self.write("\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J")
        } else {
            Self.write("\n")
        }
        Self.write(text, toError: toError)
        // A refresh that fails leaves the old drawing: nothing is lost, only not redrawn.
        _ = dl_el_refresh(editLine)
    }

    /// The terminal's width in columns, as libedit knows it (80 when it cannot tell).
    ///
    /// Wraps `el_get(EL_GETTC, "co")`.
    public var columns: Int { Int(dl_el_columns(editLine)) }

    /// Draws the prompt and the line again from the first row of the edit line, as the
    /// terminal's new width places it (after a resize, a terminal that reflows text has
    /// moved the old drawing).
    ///
    /// Wraps `el_resize` (libedit learns the new size) and ``printAbove(_:toError:)``.
    public func redraw() {
        el_resize(editLine)
        printAbove("")
    }

    /// The columns libedit gives these characters: a control character shows as `^X`;
    /// others take what `wcwidth` says.
    static func width<S: Sequence>(of scalars: S) -> Int where S.Element == Unicode.Scalar {
        scalars.reduce(0) { total, scalar in
            if scalar.value < 0x20 || scalar.value == 0x7F { return total + 2 }
            return total + max(0, Int(dl_wcwidth(wchar_t(bitPattern: scalar.value))))
        }
    }
}
