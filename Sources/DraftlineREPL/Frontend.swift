import Completion
import DraftKit

/// A session with its presenter: events in, lines out. What the executable drives on a
/// terminal and on a pipe, and what tests drive as data.
///
/// The session's state reads through (`frontend.prompt`, `frontend.drafts`).
@dynamicMemberLookup
public final class Frontend {
    /// The session, as data.
    public let session: Session
    /// Turns its reports into lines; its words are also the demo peers' script.
    public var presenter: Presenter {
        didSet {
            presenter.completes = session.capabilities.editLine
            session.live.peers?.script = presenter.demoPeerScript
        }
    }
    /// Sees every event's reports, before they become lines (the trace file).
    public var onReports: (([Report]) -> Void)?
    /// The prompt that names where the user is, in the presenter's words.
    public var prompt: String { presenter.prompt(on: session.screen, answering: session.question) }

    public init(_ session: Session, presenter: Presenter = Presenter()) {
        self.session = session
        self.presenter = presenter
        self.presenter.completes = session.capabilities.editLine
        session.live.peers?.script = presenter.demoPeerScript
    }

    /// What one event produced, for a front end: lines to show, then what to do.
    public struct Response: Equatable, Sendable {
        /// The lines, in order.
        public var lines: [OutputLine]
        /// What the session asks of the front end after showing them.
        public var effects: [Effect]
        /// The reports the lines were made from (what a script's results record).
        public var reports: [Report]
    }

    /// Handles one input event: the lines to show and what to do next. `origin` is where
    /// the line's text came from (what recalls replaced, what was pasted).
    @discardableResult
    public func handle(_ event: InputEvent, origin: LineOrigin = .typed) -> Response {
        let outcome = session.handle(event, origin: origin)
        onReports?(outcome.reports)
        return Response(lines: lines(for: outcome.reports), effects: outcome.effects, reports: outcome.reports)
    }

    /// The demo peers' due answers stored (unless `answering` is off), then what `feed`
    /// brought: the lines to show and how many messages arrived (in the open chat or
    /// elsewhere).
    public func receive(from feed: any HistoryFeed, answering: Bool = true, lineNow: String? = nil) -> Received {
        let answers = answering ? session.answerPeers() : []
        let slice = feed.take()
        let reports = answers + session.receive(slice, lineNow: lineNow)
        onReports?(reports)
        let arrived = reports.count { report in
            switch report.event {
            case .arrived, .arrivedElsewhere: return true
            case .draft, .sent, .sendFailed, nil: return false
            }
        }
        let back = reports.lazy.compactMap { report -> TextDraft? in
            if case .error(.notSentBackInLine(_, let text)) = report { return text }
            return nil
        }.last
        return Received(lines: lines(for: reports), arrived: arrived, hasMore: slice.hasMore, backInLine: back)
    }

    /// What one look at a feed brought.
    public struct Received {
        /// What to show.
        public var lines: [OutputLine]
        /// How many messages arrived for this user.
        public var arrived: Int
        /// Whether the feed has more waiting (a bounded slice was taken): look again once
        /// no key is waiting.
        public var hasMore: Bool
        /// A refused send's text, back in the edit line being read (``Session/line``).
        public var backInLine: TextDraft?
    }

    /// The lines for reports the session made outside an event (the draft map).
    public func lines(for reports: [Report]) -> [OutputLine] {
        presenter.lines(for: reports, identity: session.identity, tracing: session.isTracing)
    }

    /// What the completion key does with this text before the cursor; when it cannot say
    /// (the contacts could not be read: Tab rings), the line that says why goes to `say`.
    public func complete(_ before: String, saying say: ([OutputLine]) -> Void = { _ in }) -> Completion {
        do throws(DraftlineError) {
            return try session.complete(before)
        } catch {
            say(lines(for: [.error(error)]))
            return .none
        }
    }

    public subscript<T>(dynamicMember path: KeyPath<Session, T>) -> T { session[keyPath: path] }
}
