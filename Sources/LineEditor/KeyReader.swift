import BracketedPaste
import CEditLine
import Glibc

/// Turns the bytes of standard input into the characters libedit reads, with bracketed
/// pastes picked out (``PasteScanner``, the one paste grammar) so that pasted text is
/// inserted as text, never typed as keys.
///
/// Bytes are read as they are available (`FIONREAD`, then `read`), so a burst of typing
/// costs one read, and nothing is ever read that no key will use: bytes read ahead wait
/// here for the next key. Characters are decoded in the locale's encoding (`mbrtowc`);
/// bytes that are not valid in it are dropped, as libedit's own reader does. Nothing waits
/// here: what only time decides (the rest of a marker, the end of a burst, a paste that
/// never ends) the caller waits for, ``secondsUntilDecided`` long, then says ``timePassed()``.
final class KeyReader {
    /// What the next key is.
    enum Key: Equatable {
        /// One character.
        case character(wchar_t)
        /// Text of a paste, as it comes (several pieces for a long one), line ends made `\n`.
        case paste([wchar_t])
        /// The paste is over; when it was longer than the limit, its size in bytes: it is
        /// refused, and what was inserted of it is to be taken out.
        case pasteEnded(refused: Int?)
        /// No key is waiting: wait for input (or for ``secondsUntilDecided``).
        case none
        /// Standard input ended (or failed).
        case endOfInput
    }

    /// Where keys come from: standard input.
    let descriptor: Int32 = 0
    /// Whether the terminal was asked to bracket pastes, so the markers are recognised.
    var recognisesPaste = false

    /// How long the input may pause inside a burst: a terminal sends a marker, and a whole
    /// paste, in one go, while a person's next key comes later.
    static let burstPause = 0.03
    /// How long a paste whose end marker never comes may fall silent before it ends.
    static let pasteSilence = 1.0

    private var bytes: [UInt8] = []
    private var start = 0
    private var decoder = mbstate_t()
    private var scanner: PasteScanner<UInt8>
    /// Keys made from the bytes and not handed out yet.
    private var ready: [Key] = []
    /// The paste's text bytes that do not make a whole character yet, and its line ends.
    private var pasteBytes: [UInt8] = []
    private var lineBreaks = LineBreaks()
    /// When the last byte came (``InputWaiter/now()``), and whether the burst it was in was
    /// found over since.
    private var lastByte = 0.0
    private var paused = false

    /// A reader that keeps pastes of at most `pasteLimit` bytes.
    init(pasteLimit: Int) { scanner = PasteScanner(limit: pasteLimit) { $0 } }

    /// Reads what standard input has now. Returns false at the end of input.
    ///
    /// Wraps `ioctl(FIONREAD)` and `read`: only what is there is read, so the read does not
    /// block (a signal would interrupt it if the terminal's queue were flushed meanwhile).
    func fill() -> Bool {
        var available: Int32 = 0
        if ioctl(descriptor, UInt(FIONREAD), &available) != 0 || available < 1 { available = 1 }
        if start == bytes.count || start > 4096 {
            bytes.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: Int(min(available, 64 * 1024)))
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { return true }
            guard count > 0 else { return false }
            bytes.append(contentsOf: chunk[0..<count])
            lastByte = InputWaiter.now()
            paused = false
            return true
        }
    }

    /// The next key from the bytes read so far.
    func next() -> Key {
        scan(.more)
        return ready.isEmpty ? .none : ready.removeFirst()
    }

    /// Seconds until time alone decides the bytes in hand (the burst they are in is over,
    /// or a paste without its end fell silent); `nil` when nothing waits on time.
    var secondsUntilDecided: Double? {
        guard scanner.isHolding || scanner.isInPaste else { return nil }
        let waited = InputWaiter.now() - lastByte
        return max(0, (paused ? Self.pasteSilence : Self.burstPause) - waited)
    }

    /// After a wait with no byte: what the time passed decides becomes keys.
    func timePassed() {
        let waited = InputWaiter.now() - lastByte
        if waited >= Self.pasteSilence {
            scan(.silence)
        } else if waited >= Self.burstPause {
            scan(.pause)
            paused = true
        }
    }

    /// Takes the first key of `wanted` typed outside a paste out of what was read so far;
    /// the other keys stay, in order, for the keys to come. `nil` when none is there. A
    /// `staying` key with keys before it is found but stays in its place, to act on them.
    func takeFirst(of wanted: [UInt8], staying: UInt8? = nil) -> UInt8? {
        scan(.more)
        guard
            let index = ready.firstIndex(where: { key in
                guard case .character(let character) = key else { return false }
                return wanted.contains { wchar_t($0) == character }
            }), case .character(let character) = ready[index]
        else { return nil }
        if index == 0 || staying.map({ wchar_t($0) }) != character { ready.remove(at: index) }
        return UInt8(character)
    }

    /// Turns the bytes read into keys, as far as `input` decides them.
    private func scan(_ input: PasteScanner<UInt8>.Input) {
        guard recognisesPaste || scanner.isHolding || scanner.isInPaste else {
            while start < bytes.count {
                decodeKey(bytes[start])
                start += 1
            }
            return
        }
        scanner.feed(bytes[start...])
        start = bytes.count
        for event in scanner.take(input) {
            switch event {
            case .key(let byte): decodeKey(byte)
            case .text(let text): pasteText(text, last: false)
            case .end(let size, let refused):
                pasteText([], last: true)
                ready.append(.pasteEnded(refused: refused ? size : nil))
            }
        }
    }

    private func decodeKey(_ byte: UInt8) {
        var byte = CChar(bitPattern: byte)
        var character: wchar_t = 0
        let decoded = mbrtowc(&character, &byte, 1, &decoder)
        if decoded == -2 { return }  // more bytes to come
        if decoded == -1 {
            decoder = mbstate_t()
            return
        }
        ready.append(.character(character))
    }

    /// A paste's text bytes as characters (UTF-8, as terminals paste), each CR LF or lone
    /// CR (the terminal's Enter) made LF; a character cut between two pieces waits for the
    /// rest, and at the paste's end what is left is decoded as it is.
    private func pasteText(_ text: [UInt8], last: Bool) {
        pasteBytes += text
        var whole = pasteBytes.count
        if !last {
            // Keep back a UTF-8 sequence that is not complete yet.
            var back = 0
            while back < min(3, whole) && pasteBytes[whole - 1 - back] & 0xC0 == 0x80 { back += 1 }
            if back < whole {
                let lead = pasteBytes[whole - 1 - back]
                let needs = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
                if needs > back { whole -= back + 1 }
            }
        }
        let scalars = String(decoding: pasteBytes[..<whole], as: UTF8.self).unicodeScalars
        pasteBytes.removeFirst(whole)
        let characters = lineBreaks.normalize(scalars).map { wchar_t(bitPattern: $0.value) }
        if !characters.isEmpty { ready.append(.paste(characters)) }
        if last { lineBreaks = LineBreaks() }
    }
}
