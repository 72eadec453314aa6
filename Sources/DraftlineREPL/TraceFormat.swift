import DraftKit
import Foundation

/// How `--trace-file` writes events.
public enum TraceFormat: String, Sendable {
    /// One JSON object a line: time, event, key, text, cursor, media count, screen.
    case json
    /// The original input view's own log lines (`inputKey_save:<key>`,
    /// `inputStr_get:<text>`, `inputKey_delegate:<key>`), to put beside an app's console.
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
                switch event.kind {
                case .saved: return event.key.map { "inputKey_save:\($0.rawValue)" }
                case .restored: return "inputStr_get:\(event.draft.text?.text ?? "")"
                case .removed where event.cause == .sending: return event.key.map { "inputKey_delegate:\($0.rawValue)" }
                default: return nil
                }
            default:
                return nil
            }
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
