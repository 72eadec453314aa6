import ProgramDriver

/// Steps every draftline terminal test takes.
extension PseudoTerminal {
    /// Types `/open <user>` at an empty edit line and waits for the chat's prompt.
    public func open(_ user: String) throws {
        try send("/open \(user)\r")
        try waitForPrompt("\(user)> ")
    }

    /// Types `/quit` at an empty edit line and waits for draftline to end.
    @discardableResult
    public func quit() throws -> Termination {
        try send("/quit\r")
        return try waitForExit()
    }
}
