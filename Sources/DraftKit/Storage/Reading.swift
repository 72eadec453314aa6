/// What a store read, with the warnings of that one call (a damaged file moved aside, a
/// chat that could not be listed): the caller that asked gets them, and no one else.
public struct Reading<Value> {
    /// What was read.
    public var value: Value
    /// What the store noticed and worked around on the way, in order.
    public var warnings: [StoreWarning]

    public init(_ value: Value, warnings: [StoreWarning] = []) {
        self.value = value
        self.warnings = warnings
    }
}

extension Reading: Equatable where Value: Equatable {}
extension Reading: Sendable where Value: Sendable {}
