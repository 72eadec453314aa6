/// The edit line as the reference model knows it: its characters, where each came from,
/// and the cursor (counted in Unicode scalars, as draftline shows it).
///
/// Only editing whose effect libedit documents exactly is modelled (typing, motion,
/// deleting a character, killing the line or its end).
public struct ModelLine: Equatable, CustomStringConvertible, Sendable {
    /// Where a character of the line came from.
    public enum Origin: Equatable, Sendable {
        /// Pre-filled: the draft as restored, or text `/undo` put back.
        case draft
        /// Typed by the user.
        case typed
        /// Inserted by a bracketed paste.
        case pasted
        /// Put there by a history recall (Up, `^R`).
        case recalled
    }

    public private(set) var scalars: [Unicode.Scalar] = []
    public private(set) var origins: [Origin] = []
    /// Which stretch of typing (or pasting) each character came in, since the line was
    /// given its text: `nil` for the text it was given. Text typed right after a character
    /// of a stretch goes on with that stretch; typed anywhere else, it starts one of its
    /// own (SPEC §1a "the line's baseline": a command typed into the draft stays that
    /// command however the text around it is edited).
    public private(set) var stretches: [Int?] = []
    private var stretchesBegun = 0
    /// Which characters were the line of a command that failed, as Enter gave it back
    /// (``markGivenBack()``); what was typed since is not.
    private var givenBack: [Bool] = []
    public var cursor = 0
    /// The text the line was given (its stretches are what was typed since).
    public private(set) var given: String

    public init(_ text: String = "", cursor: Int? = nil, origin: Origin = .draft) {
        given = text
        scalars = Array(text.unicodeScalars)
        origins = Array(repeating: origin, count: scalars.count)
        stretches = Array(repeating: nil, count: scalars.count)
        givenBack = Array(repeating: false, count: scalars.count)
        self.cursor = min(cursor ?? scalars.count, scalars.count)
    }

    /// The line as a failed command gave it back: all of it is that command's line.
    public mutating func markGivenBack() { givenBack = Array(repeating: true, count: scalars.count) }

    /// Whether the first character is still one of the failed command's line given back.
    public var startsAsGivenBack: Bool { isGivenBack(at: 0) }

    /// Whether the character at `index` is still one of the failed command's line given back.
    public func isGivenBack(at index: Int) -> Bool { index < givenBack.count && givenBack[index] }

    /// Lines are equal in their text, its origins and the cursor (not in the stretches).
    public static func == (left: ModelLine, right: ModelLine) -> Bool {
        left.scalars == right.scalars && left.origins == right.origins && left.cursor == right.cursor
    }

    /// The line as given text: all of it is what it was given (a line kept as the baseline),
    /// what a recall put there included.
    public mutating func forgetStretches() {
        given = text
        stretches = Array(repeating: nil, count: scalars.count)
        origins = origins.map { $0 == .recalled ? .draft : $0 }
    }

    /// The stretches typed into the text the line was given, in order, as ranges of it;
    /// empty when nothing of the given text is left (then the line is all new).
    public var typedStretches: [Range<Int>] {
        guard stretches.contains(nil) else { return [] }
        var result: [Range<Int>] = []
        var start = 0
        while start < stretches.count {
            guard let stretch = stretches[start] else {
                start += 1
                continue
            }
            var end = start + 1
            while end < stretches.count && stretches[end] == stretch { end += 1 }
            result.append(start..<end)
            start = end
        }
        return result
    }

    public var text: String { String(String.UnicodeScalarView(scalars)) }
    /// Whether every character of the text the line was given is still in it: none was
    /// deleted (typing around them keeps them; the same text typed again is new text).
    public var keepsGiven: Bool {
        String(String.UnicodeScalarView(zip(scalars, stretches).compactMap { $1 == nil ? $0 : nil })) == given
    }
    /// Whether the user typed or pasted any of it (a recalled line they only deleted from
    /// holds nothing of theirs).
    public var holdsUserText: Bool { origins.contains { $0 == .typed || $0 == .pasted } }
    public var count: Int { scalars.count }
    public var isEmpty: Bool { scalars.isEmpty }
    public var description: String { "\(text.debugDescription)@\(cursor)" }

    /// Inserts text at the cursor; the cursor ends after it.
    public mutating func insert(_ typed: String, origin: Origin) {
        let new = Array(typed.unicodeScalars)
        scalars.insert(contentsOf: new, at: cursor)
        origins.insert(contentsOf: Array(repeating: origin, count: new.count), at: cursor)
        var stretch = cursor > 0 ? stretches[cursor - 1] : nil
        if stretch == nil {
            stretchesBegun += 1
            stretch = stretchesBegun
        }
        stretches.insert(contentsOf: Array(repeating: stretch, count: new.count), at: cursor)
        givenBack.insert(contentsOf: Array(repeating: false, count: new.count), at: cursor)
        cursor += new.count
    }

    private mutating func delete(_ range: Range<Int>) {
        scalars.removeSubrange(range)
        origins.removeSubrange(range)
        stretches.removeSubrange(range)
        givenBack.removeSubrange(range)
    }

    /// Backspace (ed-delete-prev-char): the character before the cursor.
    public mutating func deleteBefore() {
        guard cursor > 0 else { return }
        cursor -= 1
        delete(cursor..<cursor + 1)
    }

    /// The character under the cursor (emacs Ctrl-D inside a line). In vi's command mode
    /// (`x`) the cursor then stays on the line.
    public mutating func deleteUnder(staysOnLine: Bool) {
        guard cursor < scalars.count else { return }
        delete(cursor..<cursor + 1)
        if staysOnLine && cursor >= scalars.count && cursor > 0 { cursor = scalars.count - 1 }
    }

    /// Emacs `^U` (em-kill-line): the whole line.
    public mutating func killLine() {
        delete(0..<scalars.count)
        cursor = 0
    }

    /// Emacs `^K` (ed-kill-line): from the cursor to the end.
    public mutating func killToEnd() { delete(cursor..<scalars.count) }

    /// Moves the cursor by `offset`, kept inside `0...limit` (the end, or the last character).
    public mutating func move(by offset: Int, limit: Int? = nil) {
        cursor = max(0, min(limit ?? scalars.count, cursor + offset))
    }

    /// Whether this line is `base` with one contiguous insertion: the inserted part, at
    /// every place it could have gone (several when the insertion repeats its neighbours),
    /// each with its place and the origin of its first character. `nil` when it is not.
    /// A character of the text the line was given counts as given (`.draft`), however it
    /// came there first: a place that starts on it is no typing of this line's (the
    /// conservation test, seed 7: `help/` typed after a held line ending in `src/`).
    public func insertion(into base: String) -> [(place: Int, text: String, first: Origin)]? {
        let old = Array(base.unicodeScalars)
        let extra = scalars.count - old.count
        guard extra > 0 else { return nil }
        var prefix = 0
        while prefix < old.count && old[prefix] == scalars[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count && old[old.count - 1 - suffix] == scalars[scalars.count - 1 - suffix] { suffix += 1 }
        guard old.count - suffix <= prefix else { return nil }
        return ((old.count - suffix)...prefix).map { place in
            (place, String(String.UnicodeScalarView(scalars[place..<place + extra])), origin(at: place))
        }
    }

    /// Where the character at `index` came from, text the line was given counting as given.
    private func origin(at index: Int) -> Origin {
        stretches[index] == nil && origins[index] == .typed ? .draft : origins[index]
    }

    /// ``insertion(into:)`` read as a command typed into `base`: spaces and tabs at the start
    /// of the inserted part only set the command apart from the text around it (README: "Spaces
    /// typed before the `/` only set the command apart from the draft"), so each place's text
    /// starts after them, with the place and origin of its first other character.
    public func commandInsertion(into base: String) -> [(place: Int, text: String, first: Origin)]? {
        insertion(into: base)?.map { candidate in
            let inserted = candidate.text.unicodeScalars
            let spaces = inserted.prefix { $0 == " " || $0 == "\t" }.count
            let place = candidate.place + spaces
            let text = String(String.UnicodeScalarView(inserted.dropFirst(spaces)))
            return (place, text, spaces > 0 && place < origins.count ? origin(at: place) : candidate.first)
        }
    }
}
