/// A libedit call that failed: which C function, its result code, and what went wrong.
public struct LineEditorError: Error, CustomStringConvertible, Sendable {
    /// The libedit function that failed, such as `el_init`.
    public var function: String
    /// What went wrong, in words.
    public var message: String

    public init(function: String, code: Int32? = nil, message: String? = nil) {
        self.function = function
        self.message = message ?? "failed" + (code.map { " (returned \($0))" } ?? "")
    }

    public var description: String { "\(function): \(message)" }
}
