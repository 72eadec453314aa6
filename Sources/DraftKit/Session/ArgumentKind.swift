/// What an argument accepts, as data: what ``DraftlineError/invalidArgument(_:expected:)``
/// carries, so that the presenter can say what would have been taken.
public enum ArgumentKind: Equatable, Sendable {
    /// `tweet`, `topic` or `task`.
    case commentKind
    /// A positive whole number (a comment's ID).
    case commentID
    /// `@global_key`.
    case replyTarget
    /// An attachment's number, from 1.
    case attachmentNumber
    /// A decimal latitude, -90 to 90.
    case latitude
    /// A decimal longitude, -180 to 180.
    case longitude
    /// A whole number in a range.
    case count(ClosedRange<Int>)
    /// A whole number in a range, or `all`.
    case countOrAll(ClosedRange<Int>)
    /// `on` or `off`.
    case onOff
    /// A decimal speed above 0 and at most ``ArgumentKind/maximumSpeed``.
    case speed
    /// Decimal seconds above 0 and at most ``ArgumentKind/maximumSeconds``.
    case seconds
    /// One of the tour's chapters (none: this front end plays no tour).
    case tourChapter([String])
    /// One of these words.
    case choice([String])
    /// Text in double quotes, with `\"` and `\\` as the only escapes.
    case quotedText
    /// A draft key: `privateMessage_<global_key>` or `<tweet|topic|task>_<id>_[global_key]`.
    case draftKey

    /// The fastest tour speed.
    public static let maximumSpeed = 1000.0
    /// The longest time in seconds (`/wait`).
    public static let maximumSeconds = 3600.0
}
