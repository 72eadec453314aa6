import DraftKit
import DraftlineREPL
import Foundation
import IRCClient
import IRCProtocol
import LineEditor

/// The other side, wired: what other processes and the demo peers store reaches the
/// screen through the console, above the edit line while one is read.
final class Live {
    let frontend: Frontend
    let feed: any HistoryFeed
    let console: Console
    /// Where `/wait` waits: the editor's waiter on a terminal (so a signal it does not
    /// handle stays for the next read), one of its own on a pipe.
    let waiter: InputWaiter
    /// Whether the feed's last slice left more to read: the one signal of it.
    private var feedHasMore = false
    /// Whether others' typing on a chat server is shown, in the chat on screen (on a
    /// terminal; a script's transcript does not depend on how fast others type).
    var showsTyping = false
    /// The edit line being read, when one is (a terminal); and how to put text into it.
    var lineNow: () -> String? = { nil }
    var fillLine: (TextDraft) -> Void = { _ in }
    /// Who is typing where, as the server last told: the state shown, by sender and chat.
    private var typing: [TypingKey: TypingState] = [:]

    private struct TypingKey: Hashable {
        var sender: GlobalKey
        var chat: ChatID
    }

    init(frontend: Frontend, feed: any HistoryFeed, console: Console, waiter: InputWaiter) {
        self.frontend = frontend
        self.feed = feed
        self.console = console
        self.waiter = waiter
    }

    /// Seconds until something is due that no descriptor announces: the feed's next slice
    /// when the last one left more (0), a demo peer's answer, or the next look at a feed
    /// that has no descriptor; `nil` when nothing is.
    var timeout: Double? {
        if feedHasMore { return 0 }
        var seconds = frontend.session.live.peers?.secondsToNextAnswer
        if feed.descriptor < 0 { seconds = min(seconds ?? .infinity, HistoryFeedPolling.interval) }
        return seconds
    }

    /// What a line editor waits for besides keys: the feed, and the peers' answers.
    var watch: LineEditor.Watch {
        LineEditor.Watch(descriptor: feed.descriptor, timeout: { [unowned self] in timeout }) { [unowned self] in
            check()
        }
    }

    /// Stores the peers' due answers (unless `answering` is off) and shows what arrived;
    /// returns how many messages.
    @discardableResult
    func check(answering: Bool = true) -> Int {
        let received = frontend.receive(from: feed, answering: answering, lineNow: lineNow())
        feedHasMore = received.hasMore
        console.show(received.lines)
        storeShown()
        if let back = received.backInLine { fillLine(back) }
        // A chat server's word on the connection (lost, back, a channel refused).
        if let network = feed as? IRCTransport {
            let server = network.client.options.server.description
            let events = network.takeEvents()
            console.show(events.compactMap { frontend.presenter.line(for: $0, server: server) } + typingLines(events))
        }
        return received.arrived
    }

    /// Stores the arrival a chat server's slice gave to be shown first, once it is on the
    /// screen (``IRCTransport/storeShown()``): a message is not kept waiting for its
    /// durable append. What the store said is reported and shown as the slice's own is.
    private func storeShown() {
        guard let network = feed as? IRCTransport else { return }
        let reports = network.storeShown().map { Report.warning(.store($0)) }
        guard !reports.isEmpty else { return }
        frontend.onReports?(reports)
        console.show(frontend.lines(for: reports))
    }

    /// What changed of others' typing in the chat on screen, one line for each sender whose
    /// state shown differs from before these events; none for a typing ended by the
    /// sender's message among them (the message shows it).
    private func typingLines(_ events: [IRCClientEvent]) -> [OutputLine] {
        let identity = frontend.session.identity
        var before: [(key: TypingKey, state: TypingState)] = []
        var messaged: Set<TypingKey> = []
        for event in events {
            switch event {
            case .typing(let sender, let target, let state):
                let key = TypingKey(sender: sender, chat: target.chatID(as: identity))
                if !before.contains(where: { $0.key == key }) { before.append((key, typing[key] ?? .done)) }
                typing[key] = state == .done ? nil : state
            case .arrived(let arrival):
                messaged.insert(TypingKey(sender: arrival.sender, chat: arrival.target.chatID(as: identity)))
            default:
                continue
            }
        }
        guard showsTyping, let open = frontend.session.screen.target?.chatID(as: identity) else { return [] }
        return before.compactMap { key, was in
            let now = typing[key] ?? .done
            guard key.chat == open, now != was, now != .done || !messaged.contains(key) else { return nil }
            return frontend.presenter.typing(key.sender, now, was: was)
        }
    }

    /// Who is typing (or shows a draft) in the chat on screen, as the server last told: a
    /// line each, for a chat just entered.
    func typingHere() -> [OutputLine] {
        let identity = frontend.session.identity
        guard showsTyping, let open = frontend.session.screen.target?.chatID(as: identity) else { return [] }
        return typing.filter { $0.key.chat == open }.sorted { $0.key.sender.rawValue < $1.key.sender.rawValue }
            .map { frontend.presenter.typing($0.key.sender, $0.value, was: .done) }
    }

    /// Waits, showing what arrives, until no send is in flight (the server answered each)
    /// or `seconds` have passed: a script's next line then sees each send's fate, as it
    /// would on a transport that answers at once.
    func settle(seconds: Double = 15) {
        let deadline = InputWaiter.now() + seconds
        check(answering: false)
        while !frontend.session.live.inFlight.isEmpty {
            let remaining = deadline - InputWaiter.now()
            guard remaining > 0 else { return }
            let wake = waiter.wait(
                input: -1, handling: [], watched: feed.descriptor, timeout: min(remaining, timeout ?? 0.25))
            if case .failed = wake { return }
            check(answering: false)
        }
    }

    /// Quitting with sends in flight (SPEC §6: a send counts only when the server has
    /// it): waits, showing what arrives, up to `seconds` in all for each send's fate, saying
    /// so in one line once it takes more than `notice` seconds; an acknowledged send is
    /// stored and shown as sent, and the session's last word names those refused or still
    /// unanswered. Nothing when no send is in flight.
    func confirmBeforeQuit(seconds: Double = 5, notice: Double = 0.5) {
        let session = frontend.session
        storeShown()
        guard !session.live.inFlight.isEmpty else { return }
        let start = InputWaiter.now()
        var said = false
        check(answering: false)
        while !session.live.inFlight.isEmpty {
            let now = InputWaiter.now()
            guard now < start + seconds else { break }
            if !said, now >= start + notice {
                said = true
                console.show(frontend.lines(for: [.confirming(session.live.inFlight.count)]))
            }
            let until = start + (said ? seconds : notice)
            let wake = waiter.wait(
                input: -1, handling: [], watched: feed.descriptor, timeout: min(until - now, timeout ?? until - now))
            if case .failed = wake { break }
            check(answering: false)
        }
        console.show(frontend.lines(for: session.endQuit()))
    }

    /// `/wait`: shows arrivals as they come until what `wait` names is there (enough
    /// messages arrived that no earlier wait counted, or the open chat holds enough), or its
    /// seconds have passed, or an interrupt (Ctrl-C on a terminal) ends it; then the
    /// session's word on it, shown and returned (its one line: what came, or an error).
    @discardableResult
    func wait(_ wait: Wait, interruptible: Bool) -> [Report] {
        let deadline = InputWaiter.now() + wait.seconds
        let session = frontend.session
        check()
        var interrupted = false
        waiting: while !session.waitIsOver(wait) {
            let remaining = deadline - InputWaiter.now()
            guard remaining > 0 else { break }
            let wake = waiter.wait(
                input: -1, handling: interruptible ? .interrupt : [], watched: feed.descriptor,
                timeout: min(remaining, timeout ?? remaining))
            switch wake {
            case .signals:
                interrupted = true
                break waiting
            case .failed:
                break waiting
            case .input, .watched, .timeout:
                check()
            }
        }
        let ended = session.endWait(wait, interrupted: interrupted)
        console.show(frontend.lines(for: ended))
        return ended
    }
}
