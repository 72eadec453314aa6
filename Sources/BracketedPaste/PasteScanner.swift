/// Picks bracketed pastes (`ESC [ 200 ~` … `ESC [ 201 ~`) out of input as it comes: the one
/// paste grammar of draftline, for the terminal's bytes, a piped line and the tour's keys.
///
/// A terminal sends a paste in one burst: its start marker, the text, its end marker. So a
/// paste ends at the **last** end marker before the input pauses: an end marker with more
/// of the burst after it, and another end marker later, is text (a paste may hold the
/// marker's bytes, and its line breaks and control characters are text too, never keys).
/// What follows the last end marker of a burst is keys; an end marker right before a start
/// marker is two pastes, back to back. A start with no end never holds
/// keys back: its text is handed out as it comes, and the paste ends after a silence (a
/// second on a terminal; the end of a piped line or a tour step). A paste longer than
/// ``limit`` is refused whole: its text stops being handed out, the rest is read to its end,
/// and the end says how long it was.
///
/// The input is fed in (``feed(_:)``) and read as events (``take(_:)``), told each time
/// whether more may come at once, the input paused (the burst is over), or fell silent.
/// `Element` is a byte (a terminal) or a Unicode scalar (a piped line, the tour): the
/// markers are ASCII either way.
public struct PasteScanner<Element: Equatable> {
    /// What the input did since the elements in hand came.
    public enum Input: Equatable, Sendable {
        /// More may come at once: what the elements in hand leave open stays open.
        case more
        /// The input paused (a terminal's burst is over): an end marker in hand is the
        /// paste's last, and an unfinished start marker is keys.
        case pause
        /// The input fell silent: a paste without its end marker ends too.
        case silence
    }

    /// What the input holds, in order.
    public enum Event: Equatable {
        /// An element outside any paste: a key.
        case key(Element)
        /// Text of the paste, as it came (line breaks as the terminal sent them).
        case text([Element])
        /// The paste is over; it held `size` elements; when more than the limit, none of
        /// its text past the limit was handed out and it is refused.
        case end(size: Int, refused: Bool)
    }

    /// The start marker, `ESC [ 200 ~`.
    public let start: [Element]
    /// The end marker, `ESC [ 201 ~`.
    public let end: [Element]
    /// The most text one paste may hold, in elements; a longer one is refused.
    public var limit: Int
    /// Whether a paste has started and not ended.
    public private(set) var isInPaste = false
    /// Elements in hand that are not decided yet.
    private var pending: [Element] = []
    /// How much text the current paste held so far.
    private var size = 0

    /// A scanner whose markers are these ASCII sequences, made elements by `element`.
    public init(limit: Int, element: (UInt8) -> Element) {
        start = Array("\u{1B}[200~".utf8).map(element)
        end = Array("\u{1B}[201~".utf8).map(element)
        self.limit = limit
    }

    /// Whether elements are in hand that only more input, or a pause, decides.
    public var isHolding: Bool { !pending.isEmpty }

    /// Adds elements that came.
    public mutating func feed<S: Sequence>(_ elements: S) where S.Element == Element {
        pending.append(contentsOf: elements)
    }

    /// The events the elements in hand make, as far as `input` decides them; what is still
    /// open stays in hand.
    public mutating func take(_ input: Input) -> [Event] {
        var events: [Event] = []
        var index = 0
        while index < pending.count {
            if isInPaste {
                let (next, holding) = takeText(from: index, input, into: &events)
                index = next
                if holding { break }
                continue
            }
            guard pending[index] == start[0] else {
                events.append(.key(pending[index]))
                index += 1
                continue
            }
            let available = pending.count - index
            if available >= start.count {
                if Array(pending[index..<index + start.count]) == start {
                    index += start.count
                    isInPaste = true
                    size = 0
                } else {
                    events.append(.key(pending[index]))
                    index += 1
                }
            } else if Array(pending[index...]) == Array(start.prefix(available)) && input == .more {
                break  // the rest of the marker may be on its way
            } else {
                events.append(.key(pending[index]))
                index += 1
            }
        }
        pending.removeFirst(index)
        if isInPaste && input == .silence && pending.isEmpty { finishPaste(into: &events) }
        return events
    }

    /// Inside a paste, from `index`: hands out the text that is certain, and ends the paste
    /// when its end is known. Returns where the elements taken stop and whether the rest
    /// stays in hand (an end marker and what came after it, or a marker's first elements).
    private mutating func takeText(
        from index: Int, _ input: Input, into events: inout [Event]
    ) -> (next: Int, holding: Bool) {
        // An end marker right before a start marker: two pastes, back to back.
        if let joint = firstJoint(from: index) {
            give(pending[index..<joint], into: &events)
            finishPaste(into: &events)
            return (joint + end.count, false)
        }
        let last = lastEnd(from: index)
        if let last, input != .more {
            // The burst is over: its last end marker ends the paste; the rest is keys.
            give(pending[index..<last], into: &events)
            finishPaste(into: &events)
            return (last + end.count, false)
        }
        if let last {
            // Text up to the last end marker is certain: another one may still come.
            give(pending[index..<last], into: &events)
            return (last, true)
        }
        if input == .silence {
            give(pending[index...], into: &events)
            finishPaste(into: &events)
            return (pending.count, false)
        }
        // Everything but what may be the first elements of an end marker.
        var keep = min(end.count - 1, pending.count - index)
        while keep > 0 && Array(pending[(pending.count - keep)...]) != Array(end.prefix(keep)) { keep -= 1 }
        give(pending[index..<(pending.count - keep)], into: &events)
        return (pending.count - keep, true)
    }

    /// Where the first end marker in hand that a start marker follows starts, at or after
    /// `index`.
    private func firstJoint(from index: Int) -> Int? {
        var position = index
        while position + end.count + start.count <= pending.count {
            if pending[position] == end[0] && Array(pending[position..<position + end.count]) == end
                && Array(pending[(position + end.count)..<(position + end.count + start.count)]) == start
            {
                return position
            }
            position += 1
        }
        return nil
    }

    /// Where the last end marker in hand starts, at or after `index`.
    private func lastEnd(from index: Int) -> Int? {
        var position = pending.count - end.count
        while position >= index {
            if pending[position] == end[0] && Array(pending[position..<position + end.count]) == end {
                return position
            }
            position -= 1
        }
        return nil
    }

    private mutating func give(_ text: ArraySlice<Element>, into events: inout [Event]) {
        guard !text.isEmpty else { return }
        let room = max(0, limit - size)
        size += text.count
        if room > 0 { events.append(.text(Array(text.prefix(room)))) }
    }

    private mutating func finishPaste(into events: inout [Event]) {
        isInPaste = false
        events.append(.end(size: size, refused: size > limit))
        size = 0
    }
}
