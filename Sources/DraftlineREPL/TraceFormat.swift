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

    /// The trace lines for these reports (draft events, sent, arrived and failed messages), at
    /// `time`, on `screen` (as `/expect screen` names it).
    public func lines(for reports: [Report], time: Date, screen: String) -> [String] {
        reports.compactMap { report in
            switch (self, report) {
            case (.json, .draft(let event)) where event.kind != .unchanged:
                return Self.json([
                    "time": Self.stamp(time), "event": event.kind.rawValue, "key": event.key?.rawValue ?? NSNull(),
                    "text": event.draft.text?.text ?? NSNull(), "cursor": event.draft.text?.cursor ?? 0,
                    "media": event.draft.attachments.count, "cause": Self.cause(event.cause), "screen": screen,
                ])
            case (.json, .sent(let message)):
                return Self.json([
                    "time": Self.stamp(time), "event": "sent", "chat": message.chatID, "messageID": message.messageID,
                    "type": message.type, "text": message.content, "screen": screen,
                ])
            case (.json, .arrived(let message)):
                return Self.json([
                    "time": Self.stamp(time), "event": "arrived", "chat": message.chatID, "from": message.author,
                    "messageID": message.messageID, "type": message.type, "text": message.content, "screen": screen,
                ])
            case (.json, .arrivedElsewhere(let message, let chat, let unread, _)):
                return Self.json([
                    "time": Self.stamp(time), "event": "arrived-elsewhere", "chat": chat.rawValue,
                    "from": message.author, "messageID": message.messageID, "type": message.type,
                    "text": message.content, "unread": unread, "screen": screen,
                ])
            case (.json, .error(.notSent(let reason))), (.json, .error(.notSentSetAside(let reason, _))):
                return Self.json([
                    "time": Self.stamp(time), "event": "failed", "reason": reason.description, "screen": screen,
                ])
            case (.debuglog, .draft(let event)):
                return Self.originalLine(for: event).map { TerminalText.visible($0, keepNewlines: false) }
            default:
                return nil
            }
        }
    }

    /// What the original input view logs for this event, unescaped; `nil` for an event
    /// the original has no call for (the undo stack, `/attach`, a failed send).
    ///
    /// Only the moves the original makes count: the lookup on entering (`inputStr`), the
    /// save on leaving (`saveInputStr`, which ``DraftRules/keep(_:for:because:)`` reports as
    /// saved, removed or unchanged) and the removal that starts a send (`deleteInputData`,
    /// ``DraftRules/take(_:because:)``'s event, also for a blank line).
    public static func originalLine(for event: DraftEvent) -> String? {
        guard let key = event.key?.rawValue else { return nil }
        switch (event.cause, event.kind) {
        case (.entering, .restored), (.entering, .unchanged):
            return "inputStr_get:" + (event.draft.text?.text ?? "(null)")
        case (.left, .saved), (.left, .removed), (.left, .unchanged), (.leftEmpty, .saved), (.leftEmpty, .removed),
            (.leftEmpty, .unchanged):
            return "inputKey_save:" + key
        case (.sending, .removed), (.sending, .unchanged), (.blankLine, .cleared), (.blankLine, .removed),
            (.blankLine, .unchanged):
            return "inputKey_delegate:" + key
        default:
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
        case .attached: return "attach"
        case .detached: return "detach"
        case .entering: return "enter"
        case .sending: return "send"
        case .blankLine: return "blank-line"
        case .sendFailed: return "send-failed"
        case .sendFailedAside: return "send-failed-undo-stack"
        case .replacedBySend: return "replaced-by-send"
        case .replacedByRecall: return "replaced-by-recall"
        case .keptOverRecall: return "kept-over-recall"
        case .nowhereToKeep: return "nowhere-to-keep"
        case .interrupted: return "interrupt"
        case .discardCommand: return "discard"
        case .undo: return "undo"
        case .quitting: return "quit"
        }
    }

    private static func json(_ object: [String: Any]) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
