import Foundation

/// One chat message, in the chat-log design's model.
///
/// Stored as a property-list dictionary with the model's eleven keys: `chatID`,
/// `messageID`, `content`, `target`, `mineHead`, `otherHead`, `type`, `filePath`, `address`
/// (strings) and `latitude`, `longitude` (reals); draftline adds `sentAt` (a date), the
/// time the message was sent, and `sender` (a string), the global_key of who sent it. A
/// dictionary that lacks a key, or holds a value of another
/// type under it, reads it as the model's default, as its `as? String ?? ""` does: `""`
/// for strings, `0.0` for reals, 1970 for the date. One bad field never hides a message.
public struct Message: Codable, Equatable, Sendable {
    public var chatID: String
    public var messageID: String
    public var content: String
    /// The user or thread the message is addressed to.
    public var target: String
    /// The sender's avatar.
    public var mineHead: String
    /// The other side's avatar.
    public var otherHead: String
    /// `text`, `image`, `voice`, `file` or `location`.
    public var type: String
    public var filePath: String
    public var address: String
    public var latitude: Double
    public var longitude: Double
    /// When the message was sent; 1970 for a message written without one.
    public var sentAt: Date
    /// The global_key of who sent it; empty in a message written before senders were
    /// recorded (see ``author``).
    public var sender: String

    /// The time a message without `sentAt` reads as.
    public static let unknownTime = Date(timeIntervalSince1970: 0)

    public init(
        chatID: String = "", messageID: String = "", content: String = "", target: String = "",
        mineHead: String = "", otherHead: String = "", type: String = "text", filePath: String = "",
        address: String = "", latitude: Double = 0, longitude: Double = 0, sentAt: Date = Message.unknownTime,
        sender: String = ""
    ) {
        self.chatID = chatID
        self.messageID = messageID
        self.content = content
        self.target = target
        self.mineHead = mineHead
        self.otherHead = otherHead
        self.type = type
        self.filePath = filePath
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.sentAt = sentAt
        self.sender = sender
    }

    /// Who sent the message: ``sender``; for a message without one, its ``mineHead`` (the
    /// sender's avatar) when that is a global_key, else `me`. Before two people could share
    /// a data directory, every message was written by its one user, the default identity
    /// `me`, with `mineHead` `me`; a file from elsewhere names its sender in `mineHead`.
    public var author: String {
        guard sender.isEmpty else { return sender }
        return GlobalKey.isValid(mineHead) ? mineHead : GlobalKey.me.rawValue
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case chatID, messageID, content, target, mineHead, otherHead, type, filePath, address, latitude, longitude
        case sentAt, sender
    }

    /// Reads a message, defaulting every missing or mistyped key as the seed model does.
    ///
    /// Numbers are loose across property-list writers (an integer `0`, a real `40`), so a
    /// real field also accepts an integer; a string `$null` is that text, as written
    /// (``Swift/KeyedDecodingContainer/text(forKey:)``). Only a value that is not a
    /// dictionary at all fails.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) -> String { c.text(forKey: key) ?? "" }
        func real(_ key: CodingKeys) -> Double {
            if let value = (try? c.decodeIfPresent(Double.self, forKey: key)) ?? nil { return value }
            return Double(((try? c.decodeIfPresent(Int.self, forKey: key)) ?? nil) ?? 0)
        }
        chatID = string(.chatID)
        messageID = string(.messageID)
        content = string(.content)
        target = string(.target)
        mineHead = string(.mineHead)
        otherHead = string(.otherHead)
        type = string(.type)
        filePath = string(.filePath)
        address = string(.address)
        latitude = real(.latitude)
        longitude = real(.longitude)
        sentAt = ((try? c.decodeIfPresent(Date.self, forKey: .sentAt)) ?? nil) ?? Self.unknownTime
        sender = string(.sender)
    }

    /// The model's `toDic`: the message as a property-list dictionary (with `sentAt` and
    /// `sender`).
    public var dictionary: [String: Any] {
        [
            "chatID": chatID, "messageID": messageID, "content": content, "target": target,
            "mineHead": mineHead, "otherHead": otherHead, "type": type, "filePath": filePath,
            "address": address, "latitude": latitude, "longitude": longitude, "sentAt": sentAt, "sender": sender,
        ]
    }

    /// The model's `toChatModel`: a message from a property-list dictionary, with every
    /// missing or mistyped key defaulted.
    public init(dictionary: [String: Any]) {
        func string(_ key: CodingKeys) -> String { dictionary[key.rawValue] as? String ?? "" }
        func real(_ key: CodingKeys) -> Double {
            switch dictionary[key.rawValue] {
            case let value as Double: return value
            case let value as Int: return Double(value)
            case let value as NSNumber: return value.doubleValue
            default: return 0
            }
        }
        self.init(
            chatID: string(.chatID), messageID: string(.messageID), content: string(.content),
            target: string(.target), mineHead: string(.mineHead), otherHead: string(.otherHead),
            type: string(.type), filePath: string(.filePath), address: string(.address),
            latitude: real(.latitude), longitude: real(.longitude),
            sentAt: dictionary[CodingKeys.sentAt.rawValue] as? Date ?? Self.unknownTime, sender: string(.sender))
    }
}
