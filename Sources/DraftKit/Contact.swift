/// Someone the user can chat with.
public struct Contact: Equatable, Sendable {
    /// The user's key.
    public var key: GlobalKey
    /// The name shown for them.
    public var name: String

    public init(key: GlobalKey, name: String) {
        self.key = key
        self.name = name
    }
}
