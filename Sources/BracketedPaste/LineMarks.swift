/// Where the parts of an edit line came from, kept right through every edit (SPEC §1a: the
/// line remembers it across reads): what was pasted into text already there, and, in a line
/// given text (the line's baseline, or a line given back), the runs typed or pasted since.
///
/// Offsets are Unicode scalars from the line's start; each edit is one replacement
/// (``replace(_:count:pasted:)``), as in ``PastedRanges``.
public struct LineMarks: Equatable, Sendable {
    /// The parts pasted into text already there.
    public private(set) var pasted: PastedRanges
    /// The runs typed or pasted since the line was given its text; `nil` in a line given
    /// none (all of it is new: nothing to tell apart).
    public private(set) var inserted: InsertedRuns?

    /// The marks of a line given text or not; `pasted` and `inserted` are what it carries of
    /// them from before (a line given back keeps its marks).
    public init(givenText: Bool, pasted: [Range<Int>] = [], inserted: [Range<Int>] = []) {
        self.pasted = PastedRanges(pasted)
        self.inserted = givenText ? InsertedRuns(inserted) : nil
    }

    /// Whether an edit needs noting: some of the line is pasted, or it was given text.
    public var isWatching: Bool { !pasted.ranges.isEmpty || inserted != nil }

    /// `old` was replaced by `count` new scalars, pasted into text or not.
    public mutating func replace(_ old: Range<Int>, count: Int, pasted isPaste: Bool) {
        pasted.replace(old, count: count, pasted: isPaste)
        inserted?.replace(old, count: count)
    }
}

/// The runs of text typed or pasted into a line that was given text, each kept apart: what
/// is typed at a run's end or inside it goes on with it; what is typed anywhere else (at a
/// run's start among them: the end of the given text there) is a run of its own; deleting
/// shrinks a run. So a command attempt given back stays one run however the text around it
/// is edited (SPEC §1a, "the line's baseline").
public struct InsertedRuns: Equatable, Sendable {
    /// The runs, in order, none empty or overlapping another (two may touch).
    public private(set) var runs: [Range<Int>]

    public init(_ runs: [Range<Int>] = []) {
        self.runs = runs.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// How many scalars the runs hold.
    public var count: Int { runs.reduce(0) { $0 + $1.count } }

    /// `old` was replaced by `count` new scalars.
    public mutating func replace(_ old: Range<Int>, count: Int) {
        let place = old.lowerBound
        func moved(_ offset: Int) -> Int { offset <= place ? offset : max(place, offset - old.count) }
        var runs = runs.map { moved($0.lowerBound)..<moved($0.upperBound) }.filter { !$0.isEmpty }
        guard count > 0 else {
            self.runs = runs
            return
        }
        // Inside a run or at its end, the new text goes on with that run; elsewhere it is one
        // of its own. Whatever starts at or after it moves on.
        let extended = runs.firstIndex { $0.lowerBound < place && place <= $0.upperBound }
        for index in runs.indices where index != extended && runs[index].lowerBound >= place {
            runs[index] = (runs[index].lowerBound + count)..<(runs[index].upperBound + count)
        }
        if let extended {
            runs[extended] = runs[extended].lowerBound..<(runs[extended].upperBound + count)
        } else {
            runs.append(place..<(place + count))
            runs.sort { $0.lowerBound < $1.lowerBound }
        }
        self.runs = runs
    }
}
