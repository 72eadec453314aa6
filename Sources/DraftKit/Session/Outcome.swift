/// What handling one event produced: the reports to show, and what the front end is asked
/// to do next.
///
/// The session never waits, plays or quits on its own: it says so here, and the front end
/// that can do it does. An outcome is written as an array of reports where it asks for
/// nothing (`[.help]`).
public struct Outcome: Equatable, Sendable, ExpressibleByArrayLiteral {
    /// What to show, in order.
    public var reports: [Report]
    /// What the front end is asked to do, in order, after showing the reports.
    public var effects: [Effect]
    /// A line a command gives the edit line (`/undo` of a line typed where no draft is
    /// kept): the ledger takes it when the event is over (``Session/line``), so an outcome
    /// the session hands back never holds one.
    var line: TextDraft? = nil

    public init(_ reports: [Report] = [], effects: [Effect] = []) {
        self.reports = reports
        self.effects = effects
    }

    public init(arrayLiteral reports: Report...) { self.init(reports) }

    /// Both outcomes, this one's first (and its line, if it gives one).
    public static func + (first: Outcome, second: Outcome) -> Outcome {
        var both = Outcome(first.reports + second.reports, effects: first.effects + second.effects)
        both.line = first.line ?? second.line
        return both
    }

    /// This outcome with more reports after its own.
    public static func + (outcome: Outcome, reports: [Report]) -> Outcome { outcome + Outcome(reports) }

    /// These reports before the outcome's own.
    public static func + (reports: [Report], outcome: Outcome) -> Outcome { Outcome(reports) + outcome }

    public static func += (outcome: inout Outcome, more: Outcome) { outcome = outcome + more }

    public static func += (outcome: inout Outcome, reports: [Report]) { outcome.reports += reports }
}

/// Something the session asks of the front end, which alone can do it.
public enum Effect: Equatable, Sendable {
    /// Wait until what the wait names is there, or its seconds have passed (`/wait`),
    /// asking ``Session/waitIsOver(_:)`` as messages arrive; then tell the session with
    /// ``Session/endWait(_:interrupted:)``.
    case wait(Wait)
    /// Play the tour: a chapter by name (`nil` for the first) at a speed (1 is a person's
    /// pace).
    case playTour(chapter: String?, speed: Double)
    /// The user quit: stop reading.
    case quit
    /// Enter this text into the edit line's own history (the up arrow, `^R`): a line the
    /// user entered, or the command typed into a draft without the draft (drafts never
    /// reach the disk).
    case remember(String)
}

extension Effect {
    /// Wait until `count` messages have arrived that no earlier wait counted, or `seconds`
    /// have passed.
    public static func wait(count: Int, seconds: Double) -> Effect {
        .wait(Wait(until: .arrivals(count), seconds: seconds))
    }
}

/// What `/wait` waits for, and for how long at most.
public struct Wait: Equatable, Sendable {
    /// What ends the wait.
    public enum Until: Equatable, Sendable {
        /// This many messages arrived that no earlier wait counted (`/wait n`).
        case arrivals(Int)
        /// The open chat holds this many messages (`/wait total n`), whenever they came.
        case total(Int)
    }

    public var until: Until
    public var seconds: Double

    public init(until: Until, seconds: Double) {
        self.until = until
        self.seconds = seconds
    }
}

/// What a front end can do, told to the session when it is made: it decides what the
/// session may ask for and where unsent text can go.
public struct Capabilities: Equatable, Sendable {
    /// Whether there is an edit line that can take text back (a terminal). Without one (a
    /// pipe), text that cannot be kept goes on the undo stack instead, so that the next
    /// line is one of its own.
    public var editLine: Bool
    /// The tour's chapters this front end can play, by name; empty when it cannot play
    /// the tour.
    public var tourChapters: [String]

    public init(editLine: Bool, tourChapters: [String] = []) {
        self.editLine = editLine
        self.tourChapters = tourChapters
    }

    /// A terminal that plays no tour: what tests and the tour itself use.
    public static let terminal = Capabilities(editLine: true)
    /// A pipe: no edit line, no tour.
    public static let pipe = Capabilities(editLine: false)
}
