import Foundation

/// What the session has to say about an event, as data; a front end's presenter turns
/// each report into lines for its screen.
///
/// A report carries everything its lines show (a user's display name included, resolved
/// when the report is made), so presenting one never reads a file. The presenter owns
/// every word: a new case is worded there, and its switch does not compile until it is.
public enum Report: Equatable, Sendable {
    /// Arrived on the home screen.
    case home
    /// Arrived in a chat or comment thread; `name` is the chat's user's display name,
    /// when the contacts give one.
    case chatTitle(InputTarget, name: String?)
    /// Messages shown from history, oldest first (an empty list: none yet).
    case messages([Message])
    /// A message just stored.
    case sent(Message)
    /// A message from the other side, in the open chat.
    case arrived(Message)
    /// A message from someone in a chat that is not open, how many are now unread there,
    /// and the other person's display name (a private chat whose contact has one).
    case arrivedElsewhere(Message, chat: ChatID, unread: Int, name: String?)
    /// A user's profile.
    case profile(Profile)
    /// The current draft's media list (empty: nothing attached any more).
    case attachments([Attachment])
    /// A draft event, for the trace.
    case draft(DraftEvent)
    /// `/undo` brought this back, to where it came from; `replaced` when the draft that was
    /// there went on the stack.
    case undone(DraftContents, origin: Drafts.Lost.Origin, replaced: Bool)
    /// The chat list, most recent first; `more` when there may be chats it leaves out.
    case chatList([ChatListEntry], more: Bool)
    /// The draft map, the undo stack (oldest first), and, when asked from a key while a
    /// line is read, the edit line as it is: everywhere unsent text is.
    case draftMap([DraftMapEntry], undo: [Drafts.Lost], line: TextDraft?)
    /// Help on commands and keys.
    case help
    /// The target asked for is already on screen.
    case alreadyHere(InputTarget)
    /// `/discard` dropped the draft.
    case discarded
    /// `/trace` turned the trace on or off.
    case tracing(Bool)
    /// Quitting forgot these drafts and this many entries of the undo stack (as the Ctrl-D
    /// warning counts them).
    case forgotten([DraftKey], undo: Int)
    /// Quitting from a line that held text no draft keeps (given back after a failed
    /// Enter, brought back by `/undo`, held over a prompt): that text, forgotten with the
    /// rest.
    case lineForgotten(String)
    /// Ctrl-D with this many drafts in memory and entries on the undo stack, all of which
    /// quitting forgets: a second one (or `/quit`) quits.
    case quitPending(drafts: Int, undo: Int)
    /// Quitting waits for the server to confirm this many sends still in flight (said when
    /// the wait is not over at once).
    case confirming(Int)
    /// Quitting ended with these sends not confirmed by the server (refused, or no answer
    /// in time), oldest first: not stored on this side, and their text is not kept.
    case notConfirmed([Message])
    /// What the line held before a history recall is now the target's draft (the recalled
    /// command ran or failed over it), and the next edit line does not show it; `here`
    /// when the target is still on screen.
    case keptOverRecall(TextDraft, target: InputTarget, here: Bool)
    /// A message sent from a draft with a `//` typed into it: sent with one `/` there (SPEC
    /// §1a), which the line on screen did not show.
    case oneSlashSent
    /// Text went on the undo stack without the user asking (`count` pieces, the first
    /// because of `because`, and the files named in `files` with them): `/undo` brings it
    /// back.
    case setAside(because: DraftEvent.Cause, count: Int, files: [String])
    /// An `/expect` that held.
    case expectationMet(Expectation)
    /// A `/wait` that got what it waited for: `count` is how many messages arrived, or
    /// how many the open chat holds.
    case waited(Wait.Until, count: Int)
    /// A demo peer stopped answering, for good: the person is really there.
    case peerSilenced(GlobalKey, DemoPeers.Silence)
    /// Something the user asked for went wrong.
    case error(DraftlineError)
    /// Something noticed on the way, such as a damaged file moved aside.
    case warning(Warning)

    /// A warning about the data rather than about what the user asked.
    public enum Warning: Equatable, Sendable {
        /// From the history store.
        case store(StoreWarning)
        /// Entries of `contacts.plist` without a valid global_key.
        case contactsSkipped(Int)
        /// `contacts.plist` as a whole could not be used, or its index could not be kept.
        case contacts(ContactsProblem)
        /// An attachment's file was deleted after `/attach`: it is sent as a name only.
        case attachmentGone(String)
    }
}

extension Report {
    /// A draft or message event: what the trace file records (`--trace-file`), what a
    /// recording (`--record`) checks after, and what a front end counts as arrived.
    public enum Event: Equatable, Sendable {
        /// A draft event.
        case draft(DraftEvent)
        /// A message just stored.
        case sent(Message)
        /// A message from the other side, in the open chat.
        case arrived(Message)
        /// A message from someone in a chat that is not open, and how many are now unread
        /// there.
        case arrivedElsewhere(Message, chat: ChatID, unread: Int)
        /// A send the store or the server refused, and why.
        case sendFailed(StoreError)
    }

    /// The event this report is; `nil` for what no trace records (screens, lists, the
    /// answers to commands, notices). Every case is named, with ``isCheck`` below, so a new
    /// report is decided here: the trace, `--record` and the arrival count switch over
    /// ``Event``, never over `Report` with a `default`.
    public var event: Event? {
        switch self {
        case .draft(let event): .draft(event)
        case .sent(let message): .sent(message)
        case .arrived(let message): .arrived(message)
        case .arrivedElsewhere(let message, let chat, let unread, _):
            .arrivedElsewhere(message, chat: chat, unread: unread)
        case .error(let error): error.sendFailure.map(Event.sendFailed)
        case .home, .chatTitle, .messages, .profile, .attachments, .undone, .chatList, .draftMap, .help, .alreadyHere,
            .discarded, .tracing, .forgotten, .lineForgotten, .quitPending, .confirming, .notConfirmed, .keptOverRecall,
            .oneSlashSent, .setAside, .expectationMet, .waited, .peerSilenced, .warning:
            nil
        }
    }

    /// Whether this is the result of an `/expect` check, met or not. Every case is named.
    public var isCheck: Bool {
        switch self {
        case .expectationMet: true
        case .error(let error): error.kind == .expectationFailed
        case .home, .chatTitle, .messages, .sent, .arrived, .arrivedElsewhere, .profile, .attachments, .draft, .undone,
            .chatList, .draftMap, .help, .alreadyHere, .discarded, .tracing, .forgotten, .lineForgotten, .quitPending,
            .confirming, .notConfirmed, .keptOverRecall, .oneSlashSent, .setAside, .waited, .peerSilenced, .warning:
            false
        }
    }
}

/// A user's profile as shown.
public struct Profile: Equatable, Sendable {
    public var user: GlobalKey
    /// The user's display name, when the contacts give one.
    public var name: String?
    /// How many messages the private chat holds, or why that is not known.
    public var messageCount: Result<Int, StoreError>
    /// Drafts waiting: the private chat's with this user, and, for a profile reached
    /// from a comment thread, that thread's.
    public var waitingDrafts: [DraftKey]

    /// The profile of `user` (called `name`, its private chat holding `messageCount`
    /// messages), reached from `previous`.
    init(
        of user: GlobalKey, name: String?, messageCount: Result<Int, StoreError>, drafts: Drafts,
        from previous: Screen?
    ) {
        self.user = user
        self.name = name
        self.messageCount = messageCount
        var waiting = [InputTarget.privateChat(user).draftKey]
        if case .chat(let thread)? = previous, case .comment = thread { waiting.append(thread.draftKey) }
        waitingDrafts = waiting.filter(drafts.hasDraft(for:))
    }
}

/// One draft as the draft map shows it.
public struct DraftMapEntry: Equatable, Sendable {
    public var key: DraftKey
    public var text: TextDraft?
    public var mediaCount: Int
    /// Seconds since the draft last changed, by the session's clock.
    public var age: Double

    /// Every draft in the store, in key order, aged at `now`.
    static func map(of drafts: Drafts, at now: Date) -> [DraftMapEntry] {
        drafts.keys.map { key in
            DraftMapEntry(
                key: key, text: drafts.text(for: key), mediaCount: drafts.attachments(for: key).count,
                age: now.timeIntervalSince(drafts.updated[key] ?? now))
        }
    }
}
