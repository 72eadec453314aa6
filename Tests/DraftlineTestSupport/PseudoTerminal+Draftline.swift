import ProgramDriver

/// Steps every draftline terminal test takes.
extension PseudoTerminal {
    /// Types `/open <user>` at an empty edit line and waits for the chat's prompt.
    public func open(_ user: String) throws {
        try send("/open \(user)\r")
        try waitForPrompt("\(user)> ")
    }

    /// Leaves `text` as `user`'s draft (typed at home, the cursor `back` characters from its
    /// end, then `^X b`) and opens the chat again: the draft is restored in the line.
    public func restore(_ text: String, in user: String, back: Int = 0) throws {
        try open(user)
        try send(text + String(repeating: "\u{2}", count: back) + "\u{18}b")
        try waitForPrompt("draftline> ")
        try open(user)
    }

    /// Types `/quit` at an empty edit line and waits for draftline to end.
    @discardableResult
    public func quit() throws -> Termination {
        try send("/quit\r")
        return try waitForExit()
    }

    /// Waits until the edit line's read has ended: draftline turns bracketed paste off
    /// (`ESC [?2004l`) as soon as libedit hands it the line, so what is typed next is typed
    /// while the command runs, between two reads. Needs a terminal that takes escape
    /// sequences (not `TERM=dumb`).
    public func waitForReadToEnd(timeout: Double = 10) throws {
        try waitFor("\u{1B}[?2004l", timeout: timeout)
    }
}

extension PseudoTerminal {
    /// `^X d` above the edit line, and waits for the prompt again: the draft map, the undo
    /// stack and the edit line as they are (its last line is `edit line: "…"  cursor n`).
    public func drafts(prompt: String) throws -> String {
        try send("\u{18}d")
        let shown = try waitFor("edit line: ")
        let line = try waitFor("\r\n")
        try waitFor(prompt)
        return shown + "edit line: " + line
    }
}
