import Foundation

/// One chat message, in the chat-log design's model.
///
/// Stored as a property-list dictionary with exactly these keys: `chatID`, `messageID`,
/// `content`, `target`, `mineHead`, `otherHead`, `type`, `filePath`, `address` (strings)
/// and `latitude`, `longitude` (reals). A dictionary that lacks a key reads it as the
/// model's default: `""` for strings, `0.0` for reals.
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

    public init(
        chatID: String = "", messageID: String = "", content: String = "", target: String = "",
        mineHead: String = "", otherHead: String = "", type: String = "text", filePath: String = "",
        address: String = "", latitude: Double = 0, longitude: Double = 0
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
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case chatID, messageID, content, target, mineHead, otherHead, type, filePath, address, latitude, longitude
    }

    /// Reads a message, defaulting every missing key as the seed model does.
    ///
    /// Numbers are loose across property-list writers (an integer `0`, a real `40`), so a
    /// real field also accepts an integer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? "" }
        func real(_ key: CodingKeys) throws -> Double {
            if let value = try? c.decodeIfPresent(Double.self, forKey: key) { return value }
            return Double(try c.decodeIfPresent(Int.self, forKey: key) ?? 0)
        }
        chatID = try string(.chatID)
        messageID = try string(.messageID)
        content = try string(.content)
        target = try string(.target)
        mineHead = try string(.mineHead)
        otherHead = try string(.otherHead)
        type = try string(.type)
        filePath = try string(.filePath)
        address = try string(.address)
        latitude = try real(.latitude)
        longitude = try real(.longitude)
    }

    /// The model's `toDic`: the message as a property-list dictionary.
    public var dictionary: [String: Any] {
        [
            "chatID": chatID, "messageID": messageID, "content": content, "target": target,
            "mineHead": mineHead, "otherHead": otherHead, "type": type, "filePath": filePath,
            "address": address, "latitude": latitude, "longitude": longitude,
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
            latitude: real(.latitude), longitude: real(.longitude))
    }
}
