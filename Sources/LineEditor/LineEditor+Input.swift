extension LineEditor {
    /// What one call of ``readLine(prompt:prefill:cursor:)`` produced.
    public struct Input: Equatable, Sendable {
        /// How a read ends.
        public enum Ending: Equatable, Sendable {
            /// Enter.
            case entered
            /// A leaving function, by name.
            case left(function: String)
            /// Ctrl-C (the key), or SIGINT from outside.
            case interrupted
            /// Ctrl-D on an empty line, or the terminal went away.
            case endOfFile
        }

        public var ending: Ending
        /// The edit line at that moment (without a newline).
        public var line: Line
        /// What the line held each time a history recall replaced text the user had typed
        /// or changed, during this read, oldest first: the line before the first recall, then
        /// each recalled line the user edited before recalling another. When the line was
        /// empty at the first recall, that empty line comes first: the recalls replaced
        /// nothing of the user's own.
        public var recalledOver: [Line]
        /// Recalled lines the user changed and then went back from to their own line (Down
        /// past the newest line, `^G`), oldest first: libedit forgets such edits; they are
        /// the user's text all the same.
        public var leftRecalls: [Line]
        /// Whose the line is as the read ends: the user's own, or one recalled from
        /// history (Up, `^R`, vi's `k` or `/`) that they did not come back from to their own
        /// line (Down past the newest line, `^G` in a search), changed since or not.
        public var source: Source

        /// Whose a line is.
        public enum Source: Equatable, Sendable {
            /// The user's own line.
            case own
            /// A recalled history line, exactly as the recall left it.
            case recalled
            /// A recalled line the user changed since.
            case recalledAndChanged
        }
        /// The parts of the line (Unicode scalars from its start) pasted into text already
        /// there, wherever later edits moved them; a paste onto an empty line is not here:
        /// it is like typing the line.
        public var pasted: [Range<Int>]
        /// The parts of a line that was given text (a pre-fill) typed or pasted since it was
        /// given, wherever later edits moved them, marks it carried in included (``LineMarks``);
        /// empty in a line given none.
        public var inserted: [Range<Int>]
        /// How many keys the read took, the one that ended it included (a pre-fill is not a
        /// key; a paste, a cursor key are): 1 when the first key ended the read (a Ctrl-D
        /// right after the previous read), 0 when no key did (the terminal went away).
        public var keysRead: Int
    }
}
