import CEditLine
import Glibc

/// Turns the bytes of standard input into the characters libedit reads, and recognises
/// a bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) so that pasted text is inserted as
/// text, never typed as keys.
///
/// Bytes are read as they are available (`FIONREAD`, then `read`), so a burst of typing
/// costs one read, and nothing is ever read that no key will use: bytes read ahead wait
/// here for the next key. Characters are decoded in the locale's encoding (`mbrtowc`);
/// bytes that are not valid in it are dropped, as libedit's own reader does.
final class KeyReader {
    /// What the next key is.
    enum Key: Equatable {
        /// One character.
        case character(wchar_t)
        /// A whole paste, its line ends made `\n`.
        case paste([wchar_t])
        /// A paste longer than the limit, of this many bytes: nothing of it was kept.
        case pasteTooLong(Int)
        /// No byte is waiting: wait for input.
        case none
        /// Standard input ended (or failed).
        case endOfInput
    }

    /// Where keys come from.
    let descriptor: Int32
    /// Whether the terminal was asked to bracket pastes, so the markers are recognised.
    var recognisesPaste = false
    /// The longest paste kept, in bytes.
    var pasteLimit = 64 * 1024
    /// Waits for more bytes, for at most the given seconds; returns whether some came.
    private let waitForBytes: (Double) -> Bool

    private var bytes: [UInt8] = []
    private var start = 0
    private var decoder = mbstate_t()

    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)
    /// How long the rest of a marker may take to arrive after its ESC: a terminal sends the
    /// marker in one write, while a person's Escape key comes alone.
    static let markerWait = 0.03
    /// How long a paste may pause before its end marker is given up on.
    static let pastePause = 2.0

    init(descriptor: Int32, waitForBytes: @escaping (Double) -> Bool) {
        self.descriptor = descriptor
        self.waitForBytes = waitForBytes
    }

    /// Whether bytes are waiting to be turned into keys.
    var hasBytes: Bool { start < bytes.count }

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
            return true
        }
    }

    /// The next key from the bytes read so far.
    func next() -> Key {
        while start < bytes.count {
            if recognisesPaste && bytes[start] == 0x1B, let paste = takePaste() { return paste }
            var byte = CChar(bitPattern: bytes[start])
            start += 1
            var character: wchar_t = 0
            let decoded = mbrtowc(&character, &byte, 1, &decoder)
            if decoded == -2 { continue }  // more bytes to come
            if decoded == -1 {
                decoder = mbstate_t()
                continue
            }
            return .character(character)
        }
        return .none
    }

    /// Takes the first of `wanted` out of the bytes read so far and returns it; the other
    /// bytes stay, in order, for the keys to come. `nil` when none is there.
    func takeFirst(of wanted: [UInt8]) -> UInt8? {
        guard let index = bytes[start...].firstIndex(where: wanted.contains) else { return nil }
        return bytes.remove(at: index)
    }

    /// At an ESC: the paste it starts, read to its end marker; `nil` when it starts none
    /// (the ESC is a key of its own).
    private func takePaste() -> Key? {
        // Wait briefly for the rest of the marker, as long as what came matches it.
        while bytes.count - start < Self.pasteStart.count
            && bytes[start...].elementsEqual(Self.pasteStart.prefix(bytes.count - start))
        {
            guard waitForBytes(Self.markerWait), fill() else { return nil }
        }
        guard bytes.count - start >= Self.pasteStart.count,
            bytes[start..<start + Self.pasteStart.count].elementsEqual(Self.pasteStart)
        else { return nil }
        start += Self.pasteStart.count
        var pasted: [UInt8] = []
        var total = 0
        while true {
            if let end = Self.find(Self.pasteEnd, in: bytes, from: start) {
                total += end - start
                if pasted.count < pasteLimit { pasted += bytes[start..<min(end, start + pasteLimit - pasted.count)] }
                start = end + Self.pasteEnd.count
                break
            }
            // Keep what may be the start of the end marker; take the rest.
            let keep = min(bytes.count - start, Self.pasteEnd.count - 1)
            let upTo = bytes.count - keep
            total += upTo - start
            if pasted.count < pasteLimit { pasted += bytes[start..<min(upTo, start + pasteLimit - pasted.count)] }
            start = upTo
            guard waitForBytes(Self.pastePause), fill() else { break }
        }
        if total > pasteLimit { return .pasteTooLong(total) }
        return .paste(Self.characters(of: pasted))
    }

    /// UTF-8 bytes as characters, each CR LF or lone CR (the terminal's Enter) made LF.
    static func characters(of bytes: [UInt8]) -> [wchar_t] {
        var result: [wchar_t] = []
        var previousCR = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = scalar == "\r"
            result.append(wchar_t(bitPattern: scalar == "\r" ? 0x0A : scalar.value))
        }
        return result
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count - start >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
