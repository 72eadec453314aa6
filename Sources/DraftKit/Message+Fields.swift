import Foundation

/// A message's fields set by their place in ``Message/CodingKeys``: what the import's own
/// readers (``BinaryChatLog``, ``XMLChatLog``) do with each key they match.
extension Message {
    /// The places of the number fields (`latitude`, `longitude`) and of `sentAt`; every
    /// other place is a string field.
    static let latitudeField = 9
    static let longitudeField = 10
    static let sentAtField = 11

    /// Sets the string field at `field` (`chatID` 0 … `address` 8, `sender` 12).
    mutating func setString(_ value: String, field: Int) {
        switch field {
        case 0: chatID = value
        case 1: messageID = value
        case 2: content = value
        case 3: target = value
        case 4: mineHead = value
        case 5: otherHead = value
        case 6: type = value
        case 7: filePath = value
        case 8: address = value
        default: sender = value
        }
    }

    /// About what the message weighs once made: its strings' bytes and sixteen bytes a
    /// field (``BinaryChatLog``'s budget against a file that names one object many times).
    var weight: Int {
        16 * 13 + chatID.utf8.count + messageID.utf8.count + content.utf8.count + target.utf8.count
            + mineHead.utf8.count + otherHead.utf8.count + type.utf8.count + filePath.utf8.count
            + address.utf8.count + sender.utf8.count
    }

    /// The dates every property-list reader reads, as seconds since 2001: from the first
    /// second of year 1 to the last of year 9999 (Python's `datetime`, which `plistlib`
    /// makes of each date, holds no other; Foundation holds these and more, NaN too).
    public static let readableDates = -63_113_904_000.0..<252_423_993_600.0

    /// Whether every reader reads `date` (``readableDates``).
    public static func isReadable(_ date: Date) -> Bool { readableDates.contains(date.timeIntervalSinceReferenceDate) }

    /// Sets `latitude` (at ``latitudeField``) or `longitude`.
    mutating func setNumber(_ value: Double, field: Int) {
        if field == Self.latitudeField { latitude = value } else { longitude = value }
    }
}
