extension LineEditor {
    /// What a completion closure asks the editor to do.
    public enum Completion: Equatable, Sendable {
        /// Insert this text at the cursor.
        case insert(String)
        /// Show these candidates above the line and redraw it.
        case list([String])
        /// Nothing fits: ring the bell.
        case none
    }
}
