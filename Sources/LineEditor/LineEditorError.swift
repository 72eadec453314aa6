/// A libedit call that failed: which C function, and what went wrong.
public struct LineEditorError: Error, CustomStringConvertible, Sendable {
    /// The libedit function that failed, such as `el_init`.
    public var function: String
    /// What went wrong, in words.
    public var message: String

    public init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    public var description: String { "\(function): \(message)" }
}
