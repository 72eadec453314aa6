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

/// Something a ``HistoryStore`` noticed and repaired or worked around, delivered with the
/// result of the call that met it (``Reading``).
public enum StoreWarning: Equatable, Sendable, CustomStringConvertible {
    /// A file of a chat did not parse; it was moved aside unchanged under this name
    /// (relative to the data directory), and the rest of the history is intact.
    case movedAside(ChatID, file: String)
    /// A chat could not be read while listing chats; it is listed without its last
    /// message.
    case chatUnreadable(ChatID, String)
    /// A directory from an older layout could not be moved to where this version keeps it.
    case notMigrated(String, String)
    /// Messages are stored, but the other draftlines on the data directory are no longer
    /// told of them (the journal cannot be written): the reason. Said once, until the
    /// journal works again.
    case liveDeliveryStopped(String)
    /// The chat list's index could not be updated: the list's order may be stale until it
    /// can (the reason). Said once, until the index works again.
    case chatListStale(String)
    /// The journal was so far ahead (a flood of lines) that this many bytes of it were
    /// skipped: messages they announced are stored, but were not shown as they arrived.
    case journalSkipped(bytes: Int)

    public var description: String {
        switch self {
        case .movedAside(_, let file):
            return "damaged history file moved aside as \(file); the rest of the history is intact"
        case .chatUnreadable(let chat, let reason):
            return "cannot read the history of \(chat): \(reason); the other chats are listed"
        case .notMigrated(let name, let reason):
            return "\(name) was left where it is: \(reason)"
        case .liveDeliveryStopped(let reason):
            return "live delivery stopped: \(reason); messages are stored, but other draftlines on this "
                + "data directory do not see them arrive"
        case .chatListStale(let reason):
            return "the chat list's index cannot be updated: \(reason); /chats may show an old order"
        case .journalSkipped(let bytes):
            return "the journal ran \(bytes) bytes ahead (a flood of lines): skipped to its end; "
                + "messages it announced are stored but were not shown as they arrived"
        }
    }
}
