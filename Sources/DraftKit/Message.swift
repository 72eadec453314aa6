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
}
