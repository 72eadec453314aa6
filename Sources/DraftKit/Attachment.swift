/// A file attached to a draft, waiting to be sent.
public struct Attachment: Equatable, Sendable {
    /// The file's absolute path.
    public var path: String

    public init(path: String) { self.path = path }
}
