/// Which parts of an edit line were pasted into text already there, kept right as the line
/// is edited: the line remembers where its text came from (SPEC §1a, "a paste is text").
///
/// Offsets are Unicode scalars from the line's start. Every edit is a replacement of one
/// part of the line with new text (typing and a paste insert, the editing keys delete,
/// a recall replaces all of it); text typed into a pasted part splits it.
public struct PastedRanges: Equatable, Sendable {
    /// The pasted parts, in order, none empty or touching another.
    public private(set) var ranges: [Range<Int>]

    public init(_ ranges: [Range<Int>] = []) {
        self.ranges = []
        for range in ranges { add(range) }
    }

    /// Whether the scalar at `offset` was pasted.
    public func contains(_ offset: Int) -> Bool { ranges.contains { $0.contains(offset) } }

    /// `old` was replaced by `count` scalars, pasted or not.
    public mutating func replace(_ old: Range<Int>, count: Int, pasted: Bool) {
        let shift = count - old.count
        var kept: [Range<Int>] = []
        for range in ranges {
            if range.upperBound <= old.lowerBound {
                kept.append(range)
                continue
            }
            if range.lowerBound >= old.upperBound {
                kept.append((range.lowerBound + shift)..<(range.upperBound + shift))
                continue
            }
            // The range overlaps the replaced part (or text went in inside it): what is left
            // of it on each side stays pasted.
            if range.lowerBound < old.lowerBound { kept.append(range.lowerBound..<old.lowerBound) }
            if range.upperBound > old.upperBound {
                kept.append((old.upperBound + shift)..<(range.upperBound + shift))
            }
        }
        ranges = []
        for range in kept { add(range) }
        if pasted && count > 0 { add(old.lowerBound..<(old.lowerBound + count)) }
    }

    /// Forgets every range (the whole line was replaced).
    public mutating func removeAll() { ranges = [] }

    private mutating func add(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var merged = range
        ranges.removeAll { other in
            guard
                other.overlaps(merged) || other.upperBound == merged.lowerBound || merged.upperBound == other.lowerBound
            else { return false }
            merged = min(other.lowerBound, merged.lowerBound)..<max(other.upperBound, merged.upperBound)
            return true
        }
        ranges.append(merged)
        ranges.sort { $0.lowerBound < $1.lowerBound }
    }
}

/// A paste's line breaks as a terminal sends them (CR, or CR LF) made LF, across the
/// pieces a paste comes in.
public struct LineBreaks: Sendable {
    private var afterCR = false

    public init() {}

    /// The scalars with each CR LF or lone CR made one LF.
    public mutating func normalize<S: Sequence>(_ scalars: S) -> [Unicode.Scalar] where S.Element == Unicode.Scalar {
        var result: [Unicode.Scalar] = []
        for scalar in scalars {
            if scalar == "\n" && afterCR {
                afterCR = false
                continue
            }
            afterCR = scalar == "\r"
            result.append(scalar == "\r" ? "\n" : scalar)
        }
        return result
    }
}
