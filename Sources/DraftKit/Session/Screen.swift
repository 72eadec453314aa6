/// Where the user is. Screens form a stack: leaving pushes, `/back` pops.
public enum Screen: Equatable, Sendable {
    /// No chat open.
    case home
    /// An input target: a private chat or a comment thread.
    case chat(InputTarget)
    /// A user's profile.
    case profile(GlobalKey)

    /// The input target of this screen, if it has one.
    public var target: InputTarget? {
        if case .chat(let target) = self { return target }
        return nil
    }
}
