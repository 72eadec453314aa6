/// The screen stack: where the user is, and where `/back` goes.
///
/// Leaving pushes a screen, `/back` pops one; the first screen is always home. While the
/// user is asked for the name of a chat to open (`^X o`), ``isAskingForChat`` is set and
/// the next line answers.
public struct Navigator: Equatable, Sendable {
    /// The screens, home first; the last one is where the user is.
    public private(set) var screens: [Screen] = [.home]
    /// Whether the next line is the name of a chat to open.
    public var isAskingForChat = false

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

    /// The prompt that names where the user is.
    public var prompt: String {
        if isAskingForChat { return "open chat with: " }
        switch screen {
        case .home: return "draftline> "
        case .chat(.privateChat(let user)): return "\(user)> "
        case .chat(.comment(let kind, let id, let replyTo)):
            return "\(kind.rawValue) \(id) " + (replyTo.map { "reply to @\($0)" } ?? "new comment") + "> "
        case .profile(let user): return "profile \(user)> "
        }
    }
}
