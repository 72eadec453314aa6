/// Everything that can go wrong for a user, each with the one line draftline shows.
public enum DraftlineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line started with `/` but names no command.
    case unknownCommand(String)
    /// A command lacks an argument; the usage line says what it takes.
    case missingArgument(usage: String)
    /// A command got more arguments than it takes.
    case unexpectedArgument(String, usage: String)
    /// Text that does not follow the `global_key` grammar.
    case invalidGlobalKey(String)
    /// A valid `global_key` that names nobody this draftline knows.
    case unknownUser(GlobalKey)
    /// A count that is not a whole number in range.
    case invalidCount(String, range: ClosedRange<Int>)
    /// A message or a chat command was given where no chat is open.
    case noChatOpen
    /// `/back` on the home screen.
    case nothingToGoBackTo
    /// A message typed where no chat is open: the start of its text.
    case notSentNoChat(String)
    /// A leave key with text where no chat is open: the text is kept in the line.
    case nothingToKeepDraftFor(String)
    /// The message could not be stored, and its text went on the undo stack: the reason
    /// and the start of the text.
    case notSentSetAside(String, text: String)
    /// The message could not be stored; its text is kept as the draft.
    case notSent(String)
    /// The history on disk could not be read.
    case historyUnreadable(String)
    /// A comment ID that is not a positive whole number.
    case invalidCommentID(String)
    /// A reply target was given without its `@`.
    case invalidReplyTarget(String)
    /// `/attach` named nothing that exists.
    case fileMissing(String)
    /// `/attach` named something that is not a regular, readable, small enough file.
    case fileUnusable(String, String)
    /// `/detach n` with no attachment n.
    case noSuchAttachment(String, count: Int)
    /// A latitude or longitude that is not a number in range.
    case invalidCoordinate(String, name: String, range: ClosedRange<Double>)
    /// An `/expect` that did not hold: what was stated, and what was found.
    case expectationFailed(String, found: String)
    /// `/discard` with no draft here.
    case noDraftHere
    /// `/undo` with nothing lost to bring back.
    case nothingToUndo
    /// `/trace` with something other than on or off.
    case invalidSwitch(String)
    /// A tour speed that is not a number above 0 and at most 1000.
    case invalidSpeed(String)
    /// `/tour` without a terminal.
    case tourNeedsTerminal
    /// `/chats` with something other than a count or `all`.
    case invalidChatCount(String)
    /// A number of seconds that is not above 0 and at most an hour.
    case invalidSeconds(String)
    /// `/wait` ran out of time: how many messages arrived, of how many, in how long.
    case waitTimedOut(arrived: Int, wanted: Int, seconds: Double)
    /// `/wait` was stopped (Ctrl-C) before its messages arrived.
    case waitInterrupted(arrived: Int, wanted: Int)
    /// A line longer than ``Session/maximumLineBytes``; its size in bytes.
    case lineTooLong(Int)

    public var description: String {
        switch self {
        case .unknownCommand(let name):
            return "unknown command '\(name)': type /help for the list"
        case .missingArgument(let usage):
            return "missing argument: usage is \(usage)"
        case .unexpectedArgument(let argument, let usage):
            return "unexpected '\(argument)': usage is \(usage)"
        case .invalidGlobalKey(let text):
            return "'\(text)' is not a valid global_key: use 1-64 of a-z 0-9 . _ -, starting with a letter or digit"
        case .unknownUser(let key):
            return "no user '\(key)'"
        case .invalidCount(let text, let range):
            return "'\(text)' is not a count: give a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .noChatOpen:
            return "no chat is open: /open <global_key> first"
        case .nothingToGoBackTo:
            return "already at home: nothing to go back to"
        case .notSentNoChat(let text):
            return "not sent '\(text)': no chat is open: /open <global_key> first"
        case .nothingToKeepDraftFor:
            return "no chat is open here to keep a draft for: the line is kept; empty it to leave"
        case .notSentSetAside(let reason, let text):
            return "message not sent (\(reason)): '\(text)' is on the undo stack (/undo brings it back)"
        case .notSent(let reason):
            return "message not sent (\(reason)); your text is kept as the draft"
        case .historyUnreadable(let reason):
            return "cannot read history: \(reason)"
        case .invalidCommentID(let text):
            return "'\(text)' is not a comment id: give a positive whole number, as in /comment tweet 123"
        case .invalidReplyTarget(let text):
            return "'\(text)' is not a reply target: write @global_key, as in /comment tweet 123 @bob"
        case .fileMissing(let path):
            return "cannot attach '\(path)': no such file"
        case .fileUnusable(let path, let reason):
            return "cannot attach '\(path)': \(reason); attach a regular, readable file"
        case .noSuchAttachment(let text, let count):
            return count == 0
                ? "nothing is attached here"
                : "no attachment '\(text)': give a number from 1 to \(count), or nothing for all"
        case .invalidCoordinate(let text, let name, let range):
            return "'\(text)' is not a \(name): give a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
        case .expectationFailed(let statement, let found):
            return "expectation failed: \(statement); found \(found)"
        case .noDraftHere:
            return "no draft here to discard"
        case .nothingToUndo:
            return "nothing to undo: no draft was discarded, emptied or lost to a failed send"
        case .invalidSwitch(let text):
            return "'\(text)': use /trace on or /trace off"
        case .invalidSpeed(let text):
            return "'\(text)' is not a speed: give a number above 0 and at most 1000 (2 is twice as fast)"
        case .tourNeedsTerminal:
            return "the tour types into the edit line, so it needs a terminal"
        case .invalidChatCount(let text):
            return "'\(text)': use /chats, /chats N (1 to 100000) or /chats all"
        case .invalidSeconds(let text):
            return "'\(text)' is not a time: give seconds above 0 and at most 3600"
        case .waitInterrupted(let arrived, let wanted):
            return "wait stopped: \(arrived) of \(wanted) message\(wanted == 1 ? "" : "s") arrived"
        case .waitTimedOut(let arrived, let wanted, let seconds):
            let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "waited \(time) s: \(arrived) of \(wanted) message\(wanted == 1 ? "" : "s") arrived"
        case .lineTooLong(let bytes):
            return "line refused: it is \(Self.size(bytes)) and the limit is 64 KiB; nothing was sent or changed"
        }
    }

    /// A size in words, rounded up so that a size over a limit never reads as the limit.
    static func size(_ bytes: Int) -> String {
        bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }
}
