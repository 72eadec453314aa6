import Foundation

/// A message's fields in their one order, and each field's value by its name: what every
/// reader and writer of a message goes through, so a field is read and written one way.
extension Message {
    /// The fields, in the order a message dictionary is written; each named by its key.
    enum Field: Int, CaseIterable, CodingKey {
        case chatID, messageID, content, target, mineHead, otherHead, type, filePath, address, latitude, longitude
        case sentAt, sender

        /// What the field holds.
        var kind: Kind {
            switch self {
            case .latitude, .longitude: .number
            case .sentAt: .date
            default: .text
            }
        }
    }

    /// What a field holds: a string, a real (`latitude`, `longitude`) or a date (`sentAt`).
    enum Kind { case text, number, date }

    /// A field's value.
    enum Value {
        case text(String)
        case number(Double)
        case date(Date)

        /// The value as a property-list object.
        var object: Any {
            switch self {
            case .text(let text): text
            case .number(let number): number
            case .date(let date): date
            }
        }
    }

    /// The value of `field`; setting a value of another kind than the field's leaves it as it was.
    subscript(field: Field) -> Value {
        get {
            switch field {
            case .chatID: .text(chatID)
            case .messageID: .text(messageID)
            case .content: .text(content)
            case .target: .text(target)
            case .mineHead: .text(mineHead)
            case .otherHead: .text(otherHead)
            case .type: .text(type)
            case .filePath: .text(filePath)
            case .address: .text(address)
            case .latitude: .number(latitude)
            case .longitude: .number(longitude)
            case .sentAt: .date(sentAt)
            case .sender: .text(sender)
            }
        }
        set {
            switch (field, newValue) {
            case (.chatID, .text(let text)): chatID = text
            case (.messageID, .text(let text)): messageID = text
            case (.content, .text(let text)): content = text
            case (.target, .text(let text)): target = text
            case (.mineHead, .text(let text)): mineHead = text
            case (.otherHead, .text(let text)): otherHead = text
            case (.type, .text(let text)): type = text
            case (.filePath, .text(let text)): filePath = text
            case (.address, .text(let text)): address = text
            case (.latitude, .number(let number)): latitude = number
            case (.longitude, .number(let number)): longitude = number
            case (.sentAt, .date(let date)): sentAt = date
            case (.sender, .text(let text)): sender = text
            default: break
            }
        }
    }

    /// Reads a message, defaulting every missing or mistyped key as the seed model does; a
    /// real field also takes an integer, as writers are loose about numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        self.init(type: "")
        for field in Field.allCases {
            switch field.kind {
            case .text:
                if let text = container.text(forKey: field) { self[field] = .text(text) }
            case .number:
                if let number = (try? container.decodeIfPresent(Double.self, forKey: field)) ?? nil {
                    self[field] = .number(number)
                } else if let number = (try? container.decodeIfPresent(Int.self, forKey: field)) ?? nil {
                    self[field] = .number(Double(number))
                }
            case .date:
                if let date = (try? container.decodeIfPresent(Date.self, forKey: field)) ?? nil {
                    self[field] = .date(date)
                }
            }
        }
    }

    /// Writes every field under its key, in ``Field`` order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        for field in Field.allCases {
            switch self[field] {
            case .text(let text): try container.encode(text, forKey: field)
            case .number(let number): try container.encode(number, forKey: field)
            case .date(let date): try container.encode(date, forKey: field)
            }
        }
    }

    /// The model's `toDic`: the message as a property-list dictionary (with `sentAt` and
    /// `sender`).
    public var dictionary: [String: Any] {
        Dictionary(uniqueKeysWithValues: Field.allCases.map { ($0.stringValue, self[$0].object) })
    }

    /// The model's `toChatModel`: a message from a property-list dictionary, with every
    /// missing or mistyped key defaulted.
    public init(dictionary: [String: Any]) {
        self.init(type: "")
        for field in Field.allCases {
            switch (field.kind, dictionary[field.stringValue]) {
            case (.text, let text as String): self[field] = .text(text)
            case (.number, let number as Double): self[field] = .number(number)
            case (.number, let number as Int): self[field] = .number(Double(number))
            case (.number, let number as NSNumber): self[field] = .number(number.doubleValue)
            case (.date, let date as Date): self[field] = .date(date)
            default: break
            }
        }
    }

    /// About what the message weighs once made: its strings' bytes and sixteen bytes a
    /// field (``BinaryChatLog``'s budget against a file that names one object many times).
    var weight: Int {
        16 * Field.allCases.count + chatID.utf8.count + messageID.utf8.count + content.utf8.count
            + target.utf8.count + mineHead.utf8.count + otherHead.utf8.count + type.utf8.count + filePath.utf8.count
            + address.utf8.count + sender.utf8.count
    }

    /// The dates every property-list reader reads, as seconds since 2001: years 1 to 9999
    /// (all Python's `datetime` holds, which `plistlib` makes of each date).
    public static let readableDates = -63_113_904_000.0..<252_423_993_600.0

    /// Whether every reader reads `date` (``readableDates``).
    public static func isReadable(_ date: Date) -> Bool { readableDates.contains(date.timeIntervalSinceReferenceDate) }
}
