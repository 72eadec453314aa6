/// Why a ``HistoryStore`` could not do what was asked, in terms of chats, not files.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store cannot be read or written at the moment (a full disk, a permission, a
    /// device error): what went wrong, in words. Nothing was changed.
    case unavailable(String)
    /// One chat's history cannot be read; the other chats are not affected.
    case damagedChat(ChatID, String)

    public var description: String {
        switch self {
        case .unavailable(let reason): return reason
        case .damagedChat(let chat, let reason): return "the history of \(chat) is damaged: \(reason)"
        }
    }
}

/// Something a ``HistoryStore`` noticed and repaired or worked around, delivered as an
/// event through ``HistoryStore/onWarning``.
public enum StoreWarning: Equatable, Sendable, CustomStringConvertible {
    /// A file of a chat did not parse; it was moved aside unchanged under this name
    /// (relative to the data directory), and the rest of the history is intact.
    case movedAside(ChatID, file: String)
    /// A chat could not be read while listing chats; it is listed without its last
    /// message.
    case chatUnreadable(ChatID, String)
    /// A directory from an older layout could not be moved to where this version keeps it.
    case notMigrated(String, String)

    public var description: String {
        switch self {
        case .movedAside(_, let file):
            return "damaged history file moved aside as \(file); the rest of the history is intact"
        case .chatUnreadable(let chat, let reason):
            return "cannot read the history of \(chat): \(reason); the other chats are listed"
        case .notMigrated(let name, let reason):
            return "\(name) was left where it is: \(reason)"
        }
    }
}
