import DraftKit
import Foundation

/// How `--trace-file` writes events.
public enum TraceFormat: String, Sendable {
    /// One JSON object a line: time, event, key, text, cursor, media count, screen.
    case json
    /// The original input view's own log lines, line for line (SPEC §2), to put beside an
    /// app's console: entering a target logs `inputStr_get:<text>` (`inputStr_get:(null)`
    /// without a draft), leaving logs `inputKey_save:<key>` (empty text too), a send logs
    /// `inputKey_delegate:<key>` first (a draft there or not). Control characters in a
    /// draft are written in caret notation (`^[`, `^J`), so the file never holds a raw
    /// escape sequence and each entry is one line.
    case debuglog

    /// The trace lines for these reports (draft events, sent, arrived and failed messages:
    /// ``Report/event``, where every report is decided), at `time`, on `screen` (as
    /// `/expect screen` names it).
    public func lines(for reports: [Report], time: Date, screen: String) -> [String] {
        reports.compactMap { report in
            guard let event = report.event else { return nil }
            switch self {
            case .json:
                return Self.json(for: event, time: time, screen: screen)
            case .debuglog:
                switch event {
                case .draft(let event):
                    return Self.originalLine(for: event).map { TerminalText.visible($0, keepNewlines: false) }
                case .sent, .arrived, .arrivedElsewhere, .sendFailed:
                    // The original's log has draft calls only.
                    return nil
                }
            }
        }
    }

    /// The JSON line for an event; `nil` for a draft lookup that changed nothing. Every
    /// event is named, so a new one is decided here.
    private static func json(for event: Report.Event, time: Date, screen: String) -> String? {
        switch event {
        case .draft(let event):
            guard event.kind != .unchanged else { return nil }
            return json([
                "time": stamp(time), "event": event.kind.rawValue, "key": event.key?.rawValue ?? NSNull(),
                "text": event.draft.text?.text ?? NSNull(), "cursor": event.draft.text?.cursor ?? 0,
                "media": event.draft.attachments.count, "cause": cause(event.cause), "screen": screen,
            ])
        case .sent(let message):
            return json([
                "time": stamp(time), "event": "sent", "chat": message.chatID, "messageID": message.messageID,
                "type": message.type, "text": message.content, "screen": screen,
            ])
        case .arrived(let message):
            return json([
                "time": stamp(time), "event": "arrived", "chat": message.chatID, "from": message.author,
                "messageID": message.messageID, "type": message.type, "text": message.content, "screen": screen,
            ])
        case .arrivedElsewhere(let message, let chat, let unread):
            return json([
                "time": stamp(time), "event": "arrived-elsewhere", "chat": chat.rawValue,
                "from": message.author, "messageID": message.messageID, "type": message.type,
                "text": message.content, "unread": unread, "screen": screen,
            ])
        case .sendFailed(let reason):
            return json([
                "time": stamp(time), "event": "failed", "reason": Presenter.describe(reason), "screen": screen,
            ])
        }
    }

    /// What the original input view logs for this event, unescaped; `nil` for an event
    /// the original has no call for (the undo stack, `/attach`, a blank line, a failed
    /// send, quitting).
    ///
    /// Only the moves the original makes count: the lookup on entering (`inputStr`, also
    /// the return after `^X /`), the save on leaving (`saveInputStr`, whichever way the
    /// input is left: a leave key, `^X /`, a typed command; empty text too) and the removal
    /// that starts a real send (`deleteInputData`). Every cause is named, so a new one is
    /// decided here.
    public static func originalLine(for event: DraftEvent) -> String? {
        // What goes on the undo stack is draftline's own: the original has no stack.
        guard let key = event.key?.rawValue, event.kind != .discarded else { return nil }
        switch event.cause {
        case .entering:
            return "inputStr_get:" + (event.draft.text?.text ?? "(null)")
        case .left, .leftEmpty, .leftByCommand:
            return "inputKey_save:" + key
        case .sending:
            return "inputKey_delegate:" + key
        case .blankLine, .attached, .detached, .sendFailed, .sendFailedAside, .replacedBySend, .replacedByRecall,
            .recallEdited, .keptOverRecall, .editedAroundCommand, .nowhereToKeep, .lineTooLong, .interrupted,
            .discardCommand, .undo,
            .quitting, .undoStackFull:
            return nil
        }
    }

    private static func stamp(_ time: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: time)
    }

    private static func cause(_ cause: DraftEvent.Cause) -> String {
        switch cause {
        case .left(let key): return "leave-\(key.rawValue)"
        case .leftEmpty(let key): return "leave-\(key.rawValue)-empty"
        case .leftByCommand: return "leave-by-command"
        case .attached: return "attach"
        case .detached: return "detach"
        case .entering: return "enter"
        case .sending: return "send"
        case .blankLine: return "blank-line"
        case .sendFailed: return "send-failed"
        case .sendFailedAside: return "send-failed-undo-stack"
        case .replacedBySend: return "replaced-by-send"
        case .replacedByRecall: return "replaced-by-recall"
        case .recallEdited: return "recall-edited"
        case .keptOverRecall: return "kept-over-recall"
        case .editedAroundCommand: return "edited-around-command"
        case .nowhereToKeep: return "nowhere-to-keep"
        case .lineTooLong: return "line-too-long"
        case .interrupted: return "interrupt"
        case .discardCommand: return "discard"
        case .undo: return "undo"
        case .quitting: return "quit"
        case .undoStackFull: return "undo-stack-full"
        }
    }

    private static func json(_ object: [String: Any]) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
