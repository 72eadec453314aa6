/// The key of a draft in the draft store, such as `privateMessage_alice`.
///
/// Draft keys are only made by ``InputTarget/draftKey``, from checked parts.
public struct DraftKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key string, exactly as the original input view builds it.
    public let rawValue: String
    /// The input target the key was built from.
    public let target: InputTarget

    init(rawValue: String, target: InputTarget) {
        self.rawValue = rawValue
        self.target = target
    }

    public static func == (lhs: DraftKey, rhs: DraftKey) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { rawValue }

    public static func < (lhs: DraftKey, rhs: DraftKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
