extension DraftlineError {
    /// Which error it is, without what it carries: the name `/expect error <kind>` checks,
    /// so a script states which error a line got without depending on its words.
    public enum Kind: String, CaseIterable, Sendable {
        case unknownCommand = "unknown-command", missingArgument = "missing-argument"
        case unexpectedArgument = "unexpected-argument", invalidArgument = "invalid-argument"
        case invalidGlobalKey = "invalid-global-key", unknownUser = "unknown-user"
        case chatWithYourself = "chat-with-yourself", noChatOpen = "no-chat-open"
        case nothingToGoBackTo = "nothing-to-go-back-to", notSentNoChat = "not-sent-no-chat"
        case notSentSetAside = "not-sent-set-aside"
        case notSent = "not-sent", peerReplyNotStored = "peer-reply-not-stored"
        case historyUnreadable = "history-unreadable", fileMissing = "file-missing", fileUnusable = "file-unusable"
        case noSuchAttachment = "no-such-attachment", expectationFailed = "expectation-failed"
        case noDraftHere = "no-draft-here", nothingToUndo = "nothing-to-undo"
        case tourNeedsTerminal = "tour-needs-terminal", waitTimedOut = "wait-timed-out"
        case waitInterrupted = "wait-interrupted", totalNotReached = "total-not-reached"
        case lineTooLong = "line-too-long", pasteTooLong = "paste-too-long"
    }

    /// Which error this is.
    public var kind: Kind {
        switch self {
        case .unknownCommand: .unknownCommand
        case .missingArgument: .missingArgument
        case .unexpectedArgument: .unexpectedArgument
        case .invalidArgument: .invalidArgument
        case .invalidGlobalKey: .invalidGlobalKey
        case .unknownUser: .unknownUser
        case .chatWithYourself: .chatWithYourself
        case .noChatOpen: .noChatOpen
        case .nothingToGoBackTo: .nothingToGoBackTo
        case .notSentNoChat: .notSentNoChat
        case .notSentSetAside: .notSentSetAside
        case .notSent, .notSentBackInLine: .notSent
        case .peerReplyNotStored: .peerReplyNotStored
        case .historyUnreadable: .historyUnreadable
        case .fileMissing: .fileMissing
        case .fileUnusable: .fileUnusable
        case .noSuchAttachment: .noSuchAttachment
        case .expectationFailed: .expectationFailed
        case .noDraftHere: .noDraftHere
        case .nothingToUndo: .nothingToUndo
        case .tourNeedsTerminal: .tourNeedsTerminal
        case .waitTimedOut: .waitTimedOut
        case .waitInterrupted: .waitInterrupted
        case .totalNotReached: .totalNotReached
        case .lineTooLong: .lineTooLong
        case .pasteTooLong: .pasteTooLong
        }
    }
}

extension DraftlineError {
    /// Why a send of the user's failed, when this error is one (the trace's `failed`
    /// event). Every case is named, so a new error is decided here.
    public var sendFailure: StoreError? {
        switch self {
        case .notSent(let reason), .notSentBackInLine(let reason, _), .notSentSetAside(let reason, _): reason
        case .unknownCommand, .missingArgument, .unexpectedArgument, .invalidArgument, .invalidGlobalKey, .unknownUser,
            .chatWithYourself, .noChatOpen, .nothingToGoBackTo, .notSentNoChat, .peerReplyNotStored,
            .historyUnreadable, .fileMissing, .fileUnusable, .noSuchAttachment, .expectationFailed, .noDraftHere,
            .nothingToUndo, .tourNeedsTerminal, .waitTimedOut, .waitInterrupted, .totalNotReached, .lineTooLong,
            .pasteTooLong:
            nil
        }
    }
}

extension DraftlineError {
    /// The error as it is said where it happened: an unknown command's `//` hint only
    /// where `//` sends (``unknownCommand(_:slashSends:)``).
    func said(slashSends: Bool) -> DraftlineError {
        guard case .unknownCommand(let name, _) = self else { return self }
        return .unknownCommand(name, slashSends: slashSends)
    }
}
