/// The screen stack: where the user is, and where `/back` goes.
///
/// Leaving pushes a screen, `/back` pops one; the first screen is always home. While the
/// user is asked for something on a prompt of its own (the name of a chat to open, or a
/// command), ``question`` says what, and the next line answers.
public struct Navigator: Equatable, Sendable {
    /// What a prompt of its own asks for.
    public enum Question: Equatable, Sendable {
        /// The name of a chat to open.
        case chatName
        /// A command, run with the draft kept.
        case command
    }

    /// The screens, home first; the last one is where the user is.
    public private(set) var screens: [Screen] = [.home]
    /// What the next line answers, if it answers a question.
    public var question: Question?

    /// Whether the next line is the name of a chat to open.
    public var isAskingForChat: Bool { question == .chatName }

    /// The deepest the stack gets; older screens above home are dropped.
    public static let maximumDepth = 64

    public init() {}

    /// The current screen.
    public var screen: Screen { screens[screens.count - 1] }

    /// The user of the open chat, of the profile on screen, or the one a comment replies to.
    public var currentUser: GlobalKey? {
        switch screen {
        case .chat(let target): return target.otherUser
        case .profile(let user): return user
        case .home: return nil
        }
    }

    /// The screen below the current one: where `/back` goes.
    public var previousScreen: Screen? { screens.count > 1 ? screens[screens.count - 2] : nil }

    /// Goes to a screen.
    public mutating func push(_ next: Screen) {
        screens.append(next)
        if screens.count > Self.maximumDepth { screens.remove(at: 1) }
    }

    /// Returns to the previous screen.
    public mutating func pop() throws(DraftlineError) {
        guard screens.count > 1 else { throw .nothingToGoBackTo }
        screens.removeLast()
    }
}
