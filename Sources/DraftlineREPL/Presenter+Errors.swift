import DraftKit
import Foundation

/// The words of every error, each worded once, and of `/expect`'s statements.
extension Presenter {
    /// An error as the one line draftline shows.
    public func line(for error: DraftlineError) -> OutputLine { OutputLine(.error, Self.flat(describe(error))) }

    /// Where to find the people one can chat with.
    private var whoIsHere: String {
        completes ? "/open then Tab lists who is here" : "check the global_key (/chats lists your conversations)"
    }

    /// What an error says, before it is made safe for the terminal.
    public func describe(_ error: DraftlineError) -> String {
        switch error {
        case .unknownCommand(let name, _) where name.hasPrefix("//"):
            // (A `/` typed after a failed command's own: the line is that attempt again.)
            guard CommandCatalogue.spec(named: String(name.dropFirst(2))) != nil else {
                return "unknown command '\(name)': \(name.dropFirst()) is none either; type /help for the list"
            }
            return "unknown command '\(name)': delete the first / to run \(name.dropFirst())"
        case .unknownCommand(let name, let slashSends):
            return "unknown command '\(name)': type /help for the list" + (slashSends ? ", or // to send a /" : "")
        case .missingArgument(let usage):
            return "missing argument: usage is \(usage)"
        case .unexpectedArgument(let argument, let usage):
            return "unexpected '\(argument)': usage is \(usage)"
        case .invalidArgument(let word, let kind):
            return invalid(word, kind)
        case .invalidGlobalKey(let text):
            let rule = "a global_key is 1-64 of a-z 0-9 . _ -, starting with a letter or digit"
            let what: String
            switch GlobalKey.problem(with: text) {
            case .empty?: what = "it is empty"
            case .tooLong(let count)?:
                what = "it is \(count) characters long, \(count - GlobalKey.maximumLength) too many"
            case .firstCharacter(let character)?: what = "it starts with " + Self.named(character)
            case .character(let character)?: what = "it holds " + Self.named(character)
            case .capitals?: what = "it holds capitals: try '\(text.lowercased())'"
            case nil: what = "it breaks the rule"
            }
            return "'\(text)' is not a valid global_key: \(what); \(rule)"
        case .unknownUser(let user):
            return "no user '\(user)': " + whoIsHere
        case .chatWithYourself(let user):
            return "'\(user)' is you: a chat has two people" + (completes ? "; " + whoIsHere : "")
        case .noChatOpen:
            return "no chat is open: /open <global_key> first"
        case .nothingToGoBackTo:
            return "already at home: nothing to go back to"
        case .notSentNoChat(let text):
            return "not sent '\(text)': no chat is open: /open <global_key> first"
        case .notSentSetAside(let reason, let text):
            return "message not sent (\(Self.describe(reason))): '\(text)' is on the undo stack (/undo brings it back)"
        case .notSent(let reason):
            return "message not sent (\(Self.describe(reason))); your text is kept as the draft"
        case .notSentBackInLine(let reason, _):
            return "message not sent (\(Self.describe(reason))); your text is back in the edit line"
        case .peerReplyNotStored(let peer, let reason):
            return "\(peer)'s answer could not be stored (\(Self.describe(reason))); nothing of yours changed"
        case .historyUnreadable(let reason):
            return Self.describe(reason)
        case .fileMissing(let path):
            return "cannot attach '\(path)': no such file"
        case .fileUnusable(let path, let problem):
            return "cannot attach '\(path)': \(Self.describe(problem)); attach a regular, readable file"
        case .noSuchAttachment(let number, let count):
            guard count > 0, let number else { return "nothing is attached here" }
            return "no attachment \(number): give a number from 1 to \(count), or nothing for all"
        case .expectationFailed(let expectation, let found):
            return
                "expectation failed: \(Self.statement(of: expectation)); found \(Self.describe(found, against: expectation))"
        case .noDraftHere:
            return "no draft here to discard"
        case .nothingToUndo:
            return "nothing to undo: no draft was discarded, emptied or lost to a failed send"
        case .tourNeedsTerminal:
            return "the tour types into the edit line, so it needs a terminal"
        case .waitInterrupted(let arrived, let wanted):
            return "wait stopped: \(arrived) of \(Self.counted(wanted, "message")) arrived"
        case .waitTimedOut(let arrived, let wanted, let seconds):
            let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "waited \(time) s: \(arrived) of \(Self.counted(wanted, "message")) arrived"
        case .totalNotReached(let held, let wanted, let seconds):
            let what = "the chat holds \(held) of \(Self.counted(wanted, "message"))"
            guard let seconds else { return "wait stopped: " + what }
            let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "waited \(time) s: " + what
        case .lineTooLong(let bytes, let setAside):
            return "line refused: it is \(Self.size(bytes)) and the limit is 64 KiB; nothing was sent"
                + (setAside ? ": it is on the undo stack, /undo brings it back to shorten" : " or changed")
        case .pasteTooLong(let bytes):
            return "paste refused: it is \(Self.size(bytes)) and the limit is 64 KiB; nothing was inserted"
        }
    }

    /// An import's messages stored without their dates (``HistoryTransfer/Undatable``): one
    /// line each, naming the message, the first ``undatableShown``, then one for the rest.
    public func lines(forUndatable messages: [HistoryTransfer.Undatable]) -> [String] {
        var lines = messages.prefix(Self.undatableShown).map { message in
            "message '\(message.messageID)' (\(message.chat), number \(message.position + 1)) has a date no "
                + "property-list reader can read (\(message.seconds) s from 2001): imported without its date"
        }
        if messages.count > Self.undatableShown {
            lines.append("and \(messages.count - Self.undatableShown) more messages imported without their dates")
        }
        return lines
    }

    /// A wait for a lock that has lasted a second: who holds it, and what draftline waits
    /// to do (open the data directory; with `transferring`, read and write the history).
    public func lockWaitNotice(_ wait: LockWait, transferring: Bool) -> String {
        let purpose = transferring ? "to read and write the history" : "to open the data directory"
        return "waiting for the lock \(wait.path) \(purpose): it is \(Self.holders(wait))"
    }

    /// A lock's holders in words.
    static func holders(_ wait: LockWait) -> String {
        guard !wait.holders.isEmpty else { return "held by another process" }
        return "held by "
            + wait.holders.map { "process \($0.pid)" + ($0.command.isEmpty ? "" : " (\($0.command))") }
            .joined(separator: ", ")
    }

    /// The warning that this process does not say it runs as an identity (its presence file
    /// is held).
    public static func presenceNotAnnounced(_ identity: GlobalKey, _ error: StoreError) -> OutputLine {
        let why = "(\(describe(error))): going on without; a demo peer may answer as \(identity)"
        return OutputLine(.warning, flat("cannot say that \(identity) runs here \(why)"))
    }

    /// How many messages imported without their dates are named one by one.
    public static let undatableShown = 20

    /// A word its argument does not accept, and what would have been taken.
    private func invalid(_ word: String, _ kind: ArgumentKind) -> String {
        switch kind {
        case .commentKind:
            return "'\(word)' is not a comment kind: use tweet, topic or task"
        case .commentID:
            return
                "'\(word)' is not a comment id: give a whole number from 0 to \(UInt64.max), as in /comment tweet 123"
        case .replyTarget:
            return "'\(word)' is not a reply target: write @global_key, as in /comment tweet 123 @bob"
        case .attachmentNumber:
            return "'\(word)' is not an attachment number: give a whole number from 1, or nothing for all"
        case .latitude:
            return "'\(word)' is not a latitude: give a decimal number from -90 to 90"
        case .longitude:
            return "'\(word)' is not a longitude: give a decimal number from -180 to 180"
        case .count(let range):
            return "'\(word)' is not a count: give a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .countOrAll(let range):
            return
                "'\(word)' is not a count: give a whole number from \(range.lowerBound) to \(range.upperBound), or all"
        case .onOff:
            return "'\(word)' is not on or off"
        case .speed:
            return "'\(word)' is not a speed: give a decimal number above 0 and at most "
                + "\(Int(ArgumentKind.maximumSpeed)) (2 is twice as fast)"
        case .seconds:
            return
                "'\(word)' is not a time: give decimal seconds above 0 and at most \(Int(ArgumentKind.maximumSeconds))"
        case .tourChapter(let chapters):
            guard !chapters.isEmpty else { return describe(.tourNeedsTerminal) }
            return "'\(word)' is not a chapter of the tour: use \(chapters.joined(separator: ", ")), or a speed"
        case .choice(let words):
            return "'\(word)': use " + words.joined(separator: ", ")
        case .quotedText:
            return
                "'\(word)' is not quoted text: write it in double quotes, with \\\" for a quote, \\\\ for a backslash, "
                + "\\n, \\t, \\r or \\u{hex} for a control character"
        case .draftKey:
            return "'\(word)' is not a draft key: write privateMessage_<global_key> or <kind>_<id>_[global_key]"
        }
    }

    static func describe(_ problem: Attachment.Problem) -> String {
        switch problem {
        case .directory: return "it is a directory"
        case .fifo: return "it is a FIFO"
        case .device: return "it is a device"
        case .socket: return "it is a socket"
        case .notRegular: return "it is not a regular file"
        case .notReadable: return "it is not readable"
        case .tooLarge(let bytes): return "it is \(bytes / 1024 / 1024) MiB; the limit is 100 MiB"
        case .system(let code): return String(cString: strerror(code))
        }
    }

    /// Why `contacts.plist` is not used, or `contacts.index` not kept, and what to do.
    public static func describe(_ problem: ContactsProblem) -> String {
        let demoOnly = "only the demo contacts are here"
        switch problem {
        case .unreadable(let failure):
            return "contacts.plist cannot be read (\(detail(failure))): \(demoOnly)"
        case .tooLarge(let bytes, let limit):
            return "contacts.plist is \(mebibytes(bytes)), more than the \(mebibytes(limit)) draftline reads "
                + "(about a million contacts): remove contacts until it fits; \(demoOnly)"
        case .notPlain(let bytes, let limit):
            return "contacts.plist is \(mebibytes(bytes)) and not an array of dictionaries whose every key and "
                + "value is a string, the one form draftline reads past \(mebibytes(limit)): keep only strings in it "
                + "(global_key, name), or keep it under \(mebibytes(limit)); \(demoOnly)"
        case .expands(let limit):
            return "contacts.plist names its strings so many times that they would take more than "
                + "\(mebibytes(limit)) once read: give each contact its own strings; \(demoOnly)"
        case .notAList:
            return "contacts.plist is not a property list holding an array: \(demoOnly)"
        case .indexNotWritten(let failure, let bytes):
            return "contacts.index cannot be written (\(detail(failure))): every contact is here, "
                + "but each start reads all of contacts.plist (\(mebibytes(bytes))) again until it can be"
        }
    }

    /// Bytes in MiB with one decimal, rounded up so that a size over a limit never reads as
    /// the limit.
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) - 1) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// A size in words, rounded up so that a size over a limit never reads as the limit.
    static func size(_ bytes: Int) -> String {
        bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }

    /// What an expectation states, as `/expect` would write it.
    static func statement(of expectation: Expectation) -> String {
        switch expectation {
        case .draft(let key, let text, let cursor, let media):
            let parts =
                [
                    text.map { "is " + Expectation.quoted($0) }, cursor.map { "cursor \($0)" },
                    media.map { "media \($0)" },
                ]
                .compactMap { $0 }
            return "draft \(key) " + (parts.isEmpty ? "exists" : parts.joined(separator: " "))
        case .noDraft(let key):
            return "no draft for \(key)"
        case .drafts(let count):
            return "\(Self.counted(count, "draft")) in memory"
        case .messages(let count):
            return "the chat holds \(Self.counted(count, "message"))"
        case .message(let place, let text, let sender, let type):
            let parts =
                [text.map { "is " + Expectation.quoted($0) }, sender.map { "from \($0)" }, type.map { "type \($0)" }]
                .compactMap { $0 }
            let which = place == 1 ? "last message" : "message \(place) from the end"
            return which + " " + (parts.isEmpty ? "exists" : parts.joined(separator: " "))
        case .undo(let count):
            return "the undo stack holds \(Self.counted(count, "entry", "entries"))"
        case .undoTop(let text):
            return "the undo stack's top is " + Expectation.quoted(text)
        case .line(let text, let cursor):
            return "the edit line is " + Expectation.quoted(text) + (cursor.map { " cursor \($0)" } ?? "")
        case .screen(let name):
            return "screen is \(name)"
        case .error(let kind):
            return "the line before got " + (kind.map { "the error \($0.rawValue)" } ?? "an error")
        }
    }

    /// What was found, in the terms of what was expected.
    static func describe(_ found: Expectation.Found, against expectation: Expectation) -> String {
        switch (found, expectation) {
        case (.draft(nil, 0), _):
            return "no draft"
        case (.draft(let text, let media), .draft(_, let expectedText, let cursor, let expectedMedia)):
            let parts = [
                expectedText.map { _ in text.map { Expectation.quoted($0.text) } ?? "no text" },
                cursor.map { _ in "cursor \(text?.cursor ?? 0)" }, expectedMedia.map { _ in "media \(media)" },
            ]
            return parts.compactMap { $0 }.joined(separator: " ")
        case (.draft(let text, let media), _):
            return (text.map { Expectation.quoted($0.text) + " cursor \($0.cursor)" } ?? "no text") + " media \(media)"
        case (.count(let count), _):
            return "\(count)"
        case (.message(nil, let held), _):
            return held == 0 ? "no message" : "only \(Self.counted(held, "message"))"
        case (.message(let message?, _), .message(_, let text, let sender, let type)):
            let parts = [
                text.map { _ in Expectation.quoted(message.content) }, sender.map { _ in "from \(message.author)" },
                type.map { _ in "type \(message.type)" },
            ]
            return parts.compactMap { $0 }.joined(separator: " ")
        case (.message(let message?, _), _):
            return Expectation.quoted(message.content)
        case (.undoTop(let text?, _), _):
            return Expectation.quoted(text.text)
        case (.undoTop(nil, let entries), _):
            return entries == 0 ? "an empty undo stack" : "a top entry without text"
        case (.line(let line), _):
            return Expectation.quoted(line.text) + " cursor \(line.cursor)"
        case (.screen(let name), _):
            return name
        case (.errors(let kinds), _):
            return kinds.isEmpty ? "no error" : kinds.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// A character a global_key cannot hold, as a person reads it: a line break (a paste
    /// of several lines), a tab or a space by name, anything else quoted.
    static func named(_ character: Character) -> String {
        switch character {
        case "\n", "\r", "\r\n": "a line break (a name is one line)"
        case "\t": "a tab"
        case " ": "a space"
        default: "'\(character)'"
        }
    }
}
