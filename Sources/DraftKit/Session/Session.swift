import Completion
import Foundation

/// The draftline REPL as plain data: it takes ``InputEvent``s and answers with
/// ``Outcome``s.
///
/// A session coordinates the parts: the ``Navigator`` (where the user is), the
/// ``Drafts`` (drafts and the undo stack), the ``Outbox`` (sending), the commands of
/// the ``CommandCatalogue``, and the history store. It owns the edit line's text between
/// two reads: a front end starts each read with ``line`` and hands back how it ended, and
/// the ledger (`Session+Ledger.swift`) accounts for every character of it. It knows no
/// terminal; tests drive it directly.
public final class Session {
    /// Where the user is.
    public internal(set) var navigator = Navigator()
    /// Every unsent draft, and the undo stack.
    public internal(set) var drafts: Drafts
    /// Whether the user quit.
    public internal(set) var hasQuit = false
    /// Whether a message could not be stored during this session.
    public internal(set) var hadSendFailure = false
    /// Whether every draft event is shown (`--trace`, `/trace on`).
    public var isTracing: Bool
    /// What the front end can do: take text back into an edit line, play the tour.
    public let capabilities: Capabilities
    /// What the next edit line starts with: the screen's draft, or a line given back (a
    /// failed command, text typed where no chat is open), or nothing. Set by the ledger
    /// after every event.
    public internal(set) var line = TextDraft(text: "")
    /// The parts of ``line`` that were pasted into text already there (a line given back
    /// keeps its origin: a paste in it is still text, never a command).
    public internal(set) var linePasted: [Range<Int>] = []
    /// The parts of ``line`` typed since its baseline was given (``LineOrigin/inserted``):
    /// a line given back after a failed command still knows which of it is the attempt.
    public internal(set) var lineInserted: [Range<Int>] = []
    /// The text the edit line holds for the user where no draft keeps it (home, a
    /// profile): given back there, or brought back by `/undo` (see ``baseline``). A pipe
    /// never holds one: the text goes on the undo stack instead.
    public internal(set) var heldLine: TextDraft?
    /// On a pipe, the line a terminal would give back after the command typed into it
    /// failed: an empty piped line right after it is Enter again on that line (the same
    /// command attempt, nothing sent), as on a terminal. Any other piped line starts from
    /// the baseline: a script cannot see the error to fix the line. Cleared by every event.
    public internal(set) var lineToEnterAgain: (text: String, origin: LineOrigin, heldDraft: Bool)?
    /// Whether ``line`` is a command line that failed, given back to be fixed (on a pipe:
    /// resumed for keys that fix it): its leading `/` is that command's, so a `/` typed
    /// after it makes no `//` escape (``LineRead/startsWithEscapedSlash``). Cleared by
    /// every event.
    var lineIsFailedCommand = false
    /// Whether ``line`` is a failed command line given back that held the target's draft
    /// (``LineRead/givenHeldDraft``): what the user's editing keys make of it still holds
    /// the draft, as edited, however little of its text is left. Cleared by every event.
    var lineHeldDraft = false

    /// On a pipe, right after a failed command: makes the line a terminal would give back
    /// the edit line, as it is there, cursor at its end, for keys that fix it (a piped line
    /// that starts with an editing key); `nil` when no command just failed.
    public func resumeLineToEnterAgain() -> TextDraft? {
        guard let again = lineToEnterAgain else { return nil }
        line = TextDraft(text: again.text, cursor: again.text.unicodeScalars.count)
        lineIsFailedCommand = true
        lineHeldDraft = again.heldDraft
        linePasted = again.origin.pasted
        lineInserted = again.origin.inserted
        return line
    }
    /// The errors of the last step that was not an `/expect` check (an event, with the
    /// answers to the question it asked and a `/wait`'s end): what `/expect error` checks
    /// (``rememberErrors(of:answering:)``).
    public internal(set) var lastLineErrors: [DraftlineError] = []
    /// Whether Ctrl-D was pressed once with drafts in memory and nothing came since: a
    /// Ctrl-D that is the very next key quits.
    public internal(set) var isQuitPending = false
    /// The open target's draft the user emptied in the line, which quitting now does not
    /// count among what it forgets (``Session/emptiedDraft(_:)``).
    var draftEmptied: DraftKey?
    /// Whether the last event was a command that gave the line back empty over a draft the
    /// user had deleted from it (``keepLineEmptied(_:_:)``): no Ctrl-D warning's line.
    var lineLeftEmpty: DraftKey?
    /// On a terminal, the text a leave key asked a prompt over (`^X o`, `^X /`) where no
    /// chat keeps it: placed when the prompt ends (``settleHeldForPrompt(backInLine:_:)``).
    var heldForPrompt: TextDraft?
    /// The target whose input is on screen, as the original's input view is up: entering
    /// it looked its draft up (`inputStr`), and taking it down saves (`saveInputStr`),
    /// whether a leave key, `^X /` or a typed command takes it down. `nil` while none is
    /// shown (home, a profile, a prompt of its own).
    public private(set) var shownInput: InputTarget?
    /// The other side: the transport, sends in flight, unread chats, `/wait`'s count, the
    /// demo peers.
    public let live: LiveState
    /// How many times the ledger found text that no rule had placed, and put it on the
    /// undo stack itself. Always 0 when every rule holds: tests check it.
    public internal(set) var ledgerCatches = 0

    /// The users one can chat with, loaded when first needed (not at start-up); what was
    /// wrong with them is said at the end of the event that loaded them
    /// (``takePendingReports()``).
    public var contacts: ContactBook {
        if let loadedContacts { return loadedContacts }
        var book = loadContacts()
        if identity != .me { book.add(Contact(key: .me, name: "me")) }
        loadedContacts = book
        return book
    }
    private var loadedContacts: ContactBook?
    /// Whether the contacts' problems were said.
    private var contactsProblemsSaid = false
    /// Where messages are kept.
    public let history: any HistoryStore
    /// Who the user is (`--as`): the sender of what they send, and one of the two people
    /// of every private chat they open.
    public let identity: GlobalKey
    /// The clock every time, age and message ID follows.
    public let clock: @Sendable () -> Date

    private let loadContacts: () -> ContactBook
    let workingDirectory: String
    let home: String?
    /// The store's warnings of this event's calls, shown after its reports.
    var pendingReports: [Report] = []

    /// How many messages opening a chat shows.
    public static let openHistoryCount = 20
    /// The longest line, message or command, draftline takes: 64 KiB of UTF-8.
    public static let maximumLineBytes = 64 * 1024

    /// Makes a session. `contacts` is evaluated when first needed; `workingDirectory` and
    /// `home` resolve relative paths and `~` given to `/attach`; messages go to `transport`
    /// (by default, stored in `history`).
    public init(
        contacts: @autoclosure @escaping () -> ContactBook, history: any HistoryStore, tracing: Bool = false,
        workingDirectory: String = "/", home: String? = nil, clock: @escaping @Sendable () -> Date = { Date() },
        idSuffix: Outbox.IDSuffix = .random, identity: GlobalKey = .me, capabilities: Capabilities = .terminal,
        peers: DemoPeers? = nil, transport: (any Transport)? = nil
    ) {
        self.identity = identity
        self.capabilities = capabilities
        self.loadContacts = contacts
        self.history = history
        self.isTracing = tracing
        self.workingDirectory = workingDirectory
        self.home = home
        self.clock = clock
        drafts = Drafts(clock: clock)
        live = LiveState(
            outbox: Outbox(
                transport: transport ?? DirectoryTransport(history), identity: identity, clock: clock,
                idSuffix: idSuffix), peers: peers)
    }

    /// The current screen.
    public var screen: Screen { navigator.screen }
    /// Whether `^X o` asked for the name of a chat to open and the next line answers.
    public var isAskingForChat: Bool { navigator.isAskingForChat }
    /// What the next line answers, if it answers a question.
    public var question: Navigator.Question? { navigator.question }

    /// What the next edit line starts with, when it starts with something.
    public var prefill: TextDraft? { line.text.isEmpty ? nil : line }

    /// The line's baseline (SPEC §1a): what "a command typed into a restored draft" is
    /// judged against. It is the open target's draft as restored, text and cursor (the
    /// draft store holds it, so it moves only when the draft itself does: kept by a leave,
    /// sent, cleared, discarded, brought back by `/undo`), or, where no draft is kept, the
    /// text the line holds for the user. A line given back after a failed command, a
    /// recall and a return, editing keys, a resize, an arrival or a refused Enter never
    /// move it: it is state of the session, not of one read. A draft kept with a command
    /// attempt typed into it keeps the baseline it was typed into
    /// (``Drafts/baseline(for:)``): brought back, it is an attempt again. `nil` at a prompt.
    public var baseline: TextDraft? {
        guard navigator.question == nil else { return nil }
        if let heldLine { return heldLine }
        return screen.target.flatMap { drafts.baseline(for: $0.draftKey) ?? drafts.text(for: $0.draftKey) }
    }

    /// Handles one input event: what to show, and what the front end is asked to do.
    ///
    /// `origin` is where the line's text came from (``LineOrigin``): what history recalls
    /// replaced of the user's text during the read (the ledger accounts for it too),
    /// whether the line is a recalled one, and what of it was pasted.
    @discardableResult
    public func handle(_ event: InputEvent, origin: LineOrigin = .typed) -> Outcome {
        guard !hasQuit else { return [] }
        let enterAgain = lineToEnterAgain
        lineToEnterAgain = nil
        var read = LineRead(
            given: line, baseline: baseline, held: heldLine, ending: event, origin: origin,
            question: navigator.question,
            target: screen.target, draft: screen.target.flatMap { drafts.text(for: $0.draftKey) })
        read.givenInserted = lineInserted
        read.givenFailedCommand = lineIsFailedCommand
        read.givenFailedLineHeldDraft = lineHeldDraft
        lineIsFailedCommand = false
        lineHeldDraft = false
        let leftEmpty = lineLeftEmpty
        lineLeftEmpty = nil
        read.emptiedEarlier = draftEmptied != nil && draftEmptied == read.target?.draftKey && !read.givenHeldDraft
        read.emptiedBefore = read.emptiedEarlier && read.given.text.isEmpty && leftEmpty == nil
        // Anything but a Ctrl-D that is the very next key disarms the warning.
        read.quitWasPending = isQuitPending
        if event != .quitRequest(afterKeys: false) { isQuitPending = false }
        draftEmptied = emptiedDraft(read)
        // The recalled lines the user changed and went back from go on the undo stack, under
        // whatever this event puts there: the line itself, their latest text, on top.
        for left in origin.leftRecalls where !read.text.contains(left.text) {
            read.traced += setAside(left, from: read.setAsideOrigin, .recallEdited, &read)
        }
        var outcome: Outcome
        switch event {
        case .endOfInput:
            outcome = quit()
        case .quitRequest:
            outcome = requestQuit(&read)
        case .interrupt:
            outcome = Outcome(interrupt(&read))
        case .leave(let key, _):
            outcome = Outcome(leave(with: key, &read))
        case .line(let text) where text.utf8.count > Self.maximumLineBytes && !read.typedCommandFits:
            // Too long to take: nothing is sent and the baseline stays; the line, never
            // destroyed, goes on the undo stack whole (the error line says so), to shorten.
            // (A command typed into the baseline is judged by its own length: it runs.)
            let origin = read.setAsideOrigin
            setAsideRecalled(unlessHeldBy: read.text, from: origin, &read)
            read.traced += setAside(read.line, from: origin, .lineTooLong, &read)
            read.hold = .unchanged
            if let held = heldLine { read.nextLine = held }
            outcome = [.error(.lineTooLong(text.utf8.count, setAside: true))]
        case .line:
            outcome = enter(&read)
        }
        let broughtBack = outcome.line
        outcome.line = nil
        let handled = outcome + finish(read, broughtBack: broughtBack) + showInputAgain() + takePendingReports()
        rememberErrors(of: handled.reports, answering: read.question != nil)
        // An `/expect` changes nothing: an empty piped line after it is still Enter again on
        // the failed line, so a script can check the error and then press Enter again.
        if handled.reports.contains(where: \.isCheck) { lineToEnterAgain = enterAgain }
        return handled
    }

    /// Keeps the store's warnings of a call this session made, to show after its report.
    func note(_ warnings: [StoreWarning]) {
        pendingReports += contactsProblems() + warnings.map { .warning(.store($0)) }
    }

    /// The warnings of this event's calls, in the order they were made, the contacts' first
    /// reading among them.
    func takePendingReports() -> [Report] {
        defer { pendingReports = [] }
        return pendingReports + contactsProblems()
    }

    /// What was wrong with the contacts, once they were read: once a session.
    private func contactsProblems() -> [Report] {
        guard !contactsProblemsSaid, let book = loadedContacts else { return [] }
        contactsProblemsSaid = true
        return [book.problem, book.indexProblem].compactMap { $0.map { .warning(.contacts($0)) } }
            + (book.skipped > 0 ? [.warning(.contactsSkipped(book.skipped))] : [])
    }

    /// The most users Tab offers at once: it reads only the contacts that start with what
    /// is typed, and no more than this many of them.
    public static let completionLimit = 500

    /// What the completion key does with this text before the cursor. When the contacts
    /// cannot be read and nothing else completes, that is the error, naming the file: Tab
    /// never silently offers no one.
    public func complete(_ before: String) throws(DraftlineError) -> Completion {
        // Only the users the word being typed could name (a reply target's after its `@`).
        let typed = before.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? before
        let users: [GlobalKey]
        do throws(FileError) {
            users = try contacts.keys(
                startingWith: String(typed.drop { $0 == "@" || $0 == "/" }), limit: Self.completionLimit)
        } catch {
            // Commands still complete; where only users could have, the read's failure is said.
            let completion = complete(before, among: [])
            guard completion != .none else { throw .historyUnreadable(.unavailable(error)) }
            return completion
        }
        return complete(before, among: users)
    }

    /// What the completion key does with `before`, these being the users it may name.
    private func complete(_ before: String, among users: [GlobalKey]) -> Completion {
        if isAskingForChat {
            guard !before.contains(" ") else { return .none }
            return .of(before, among: users.map(\.rawValue).filter { $0.hasPrefix(before) })
        }
        if navigator.question == .command, !before.hasPrefix("/") {
            let (word, candidates) = CommandCatalogue.completions(
                for: "/" + before, users: users, capabilities: capabilities)
            let bare = before.contains(" ") ? word : String(word.dropFirst())
            return .of(
                bare, among: candidates.map { before.contains(" ") ? $0 : String($0.dropFirst()) },
                suffix: before.contains(" ") ? "" : " ")
        }
        // A command typed into the restored draft completes as on an empty line (a new
        // user's trial: `hello` restored, ` /dr` Tab did nothing).
        if navigator.question == nil, let key = screen.target?.draftKey, let draft = drafts.text(for: key)?.text,
            !draft.hasPrefix("/"), before.hasPrefix(draft)
        {
            let typed = before.dropFirst(draft.count).drop { $0 == " " || $0 == "\t" }
            if typed.hasPrefix("/") && !typed.hasPrefix("//") { return complete(String(typed), among: users) }
        }
        let (word, candidates) = CommandCatalogue.completions(for: before, users: users, capabilities: capabilities)
        let isCommandName = before.hasPrefix("/") && !before.contains(" ")
        return .of(word, among: candidates, suffix: isCommandName ? " " : "")
    }

    // MARK: - Screens

    /// Where a leave key goes, once the ledger kept the line (the input is down).
    func navigate(with key: LeaveKey) -> [Report] {
        shownInput = nil
        do throws(DraftlineError) {
            switch key {
            case .profile: return try showProfile(of: nil)
            case .back: return try back()
            case .open:
                navigator.question = .chatName
                return []
            case .command:
                navigator.question = .command
                return []
            }
        } catch {
            // Nowhere to go: stay, with the draft saved and back in the edit line.
            return [.error(error)]
        }
    }

    func go(to next: Screen) -> [Report] {
        let left = takeDownInput()
        navigator.push(next)
        return left + enter(next)
    }

    /// The input on screen goes down because a command took the user elsewhere: the
    /// original's save is made (the draft, which a command never changes, stays).
    func takeDownInput() -> [Report] {
        guard let target = shownInput else { return [] }
        shownInput = nil
        return drafts.leave(target).map(Report.draft)
    }

    /// Back on a target's screen with its input down (after `^X /`'s command, a cancelled
    /// name prompt, a leave key that went nowhere): the input comes up again and looks
    /// its draft up, as the original's view does when it returns.
    func showInputAgain() -> [Report] {
        guard !hasQuit, shownInput == nil, navigator.question == nil, let target = screen.target else { return [] }
        shownInput = target
        return drafts.enter(target).map(Report.draft)
    }

    /// What arriving on a screen shows.
    func enter(_ screen: Screen) -> [Report] {
        shownInput = nil
        switch screen {
        case .home:
            return [.home]
        case .chat(let target):
            shownInput = target
            live.unread[target.chatID(as: identity)] = nil
            var reports: [Report] = [.chatTitle(target, name: target.otherUser.flatMap(displayName(of:)))]
            do throws(StoreError) {
                let reading = try history.recentMessages(in: target.chatID(as: identity), limit: Self.openHistoryCount)
                note(reading.warnings)
                reports.append(.messages(reading.value))
            } catch {
                reports.append(.error(.historyUnreadable(error)))
            }
            reports += drafts.enter(target).map(Report.draft)
            let media = drafts.attachments(for: target.draftKey)
            if !media.isEmpty { reports.append(.attachments(media)) }
            return reports
        case .profile(let user):
            let name = displayName(of: user)
            let count: Result<Int, StoreError>
            do throws(StoreError) {
                let reading = try history.messageCount(in: InputTarget.privateChat(user).chatID(as: identity))
                note(reading.warnings)
                count = .success(reading.value)
            } catch {
                count = .failure(error)
            }
            return [
                .profile(
                    Profile(of: user, name: name, messageCount: count, drafts: drafts, from: navigator.previousScreen))
            ]
        }
    }

    /// Checks that `key` is someone here: a contact, or a user whose private chat with this
    /// identity holds history (one brought in by `draftline import`, whose file names no
    /// contacts), so every chat `/chats` lists can be opened; on a chat server, anyone
    /// (the server says at the send whether they are there).
    func checkKnown(_ key: GlobalKey) throws(DraftlineError) {
        if live.transport.reachesAnyone { return }
        // A contacts.index that cannot be read says so: it never makes someone unknown.
        do throws(FileError) {
            guard try contacts.contact(key) == nil else { return }
        } catch {
            throw .historyUnreadable(.unavailable(error))
        }
        // A chat whose history cannot be read says so, naming the file: never "no user".
        let chat = InputTarget.privateChat(key).chatID(as: identity)
        do throws(StoreError) {
            let reading = try history.recentMessages(in: chat, limit: 1)
            note(reading.warnings)
            if !reading.value.isEmpty { return }
        } catch {
            throw .historyUnreadable(error)
        }
        throw .unknownUser(key)
    }

    func currentTarget() throws(DraftlineError) -> InputTarget {
        guard let target = screen.target else { throw .noChatOpen }
        return target
    }
}
