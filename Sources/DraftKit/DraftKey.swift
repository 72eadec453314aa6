/// The key of a draft in the draft store, such as `privateMessage_alice`.
///
/// Draft keys are only made by ``InputTarget/draftKey``, from checked parts.
public struct DraftKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key string, exactly as the original input view builds it.
    public let rawValue: String

    init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: DraftKey, rhs: DraftKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
