/// Why a ``HistoryStore`` could not do what was asked. Data only: the presenter words it,
/// "damaged" only for a file that is not what it must be.
public enum StoreError: Error, Equatable, Sendable {
    /// The store could not be read or written at the moment: the call that failed. Nothing changed.
    case unavailable(FileError)
    /// One chat's history could not be used (a call failed, or its files are not what they
    /// must be); the other chats are not affected.
    case chat(ChatID, FileError)
    /// The data directory cannot be written here: it is read, and nothing is stored.
    case readOnly(FileError)
    /// The chat server (``Transport``) did not take the message: why. Nothing was stored.
    case notDelivered(DeliveryFailure)
}

/// Something a ``HistoryStore`` noticed and repaired or worked around, delivered with the
/// result of the call that met it (``Reading``).
public enum StoreWarning: Equatable, Sendable {
    /// A file of a chat did not parse; it was moved aside unchanged under this name.
    case movedAside(ChatID, file: String)
    /// A file of a chat did not parse and, read-only, is left as it is; what was whole is shown.
    case notRepaired(ChatID, file: String, FileError)
    /// A chat could not be read while listing chats; it is listed without its last message.
    case chatUnreadable(ChatID, FileError)
    /// A directory of an older layout could not be moved: one of that name is there already.
    case notMigrated(String, existing: String)
    /// Messages are stored, but the journal cannot be written, so other draftlines are not
    /// told of them. Said once, until it works again.
    case liveDeliveryStopped(FileError)
    /// The chat list's index could not be updated: its order may be stale. Said once.
    case chatListStale(FileError)
    /// This many bytes of a flooded journal were skipped: what they announced is stored, not shown.
    case journalSkipped(bytes: Int)
    /// What was stored is in place, but the last sync failed: not yet confirmed on disk.
    /// Nothing is to be done again.
    case notConfirmed(FileError)
    /// A message another process stored could not be read as it arrived: opening the chat shows it.
    case arrivalUnreadable(ChatID, FileError)
    /// The journal could not be read: others' messages are not shown as they arrive until it
    /// can. Said once, until a read works again.
    case journalUnreadable(FileError)
    /// The chat list's index is missing and could not be built: the list reads every chat.
    case chatListNotBuilt(FileError)
    /// A chat server took a message this side's history could not keep: it is sent, and not
    /// shown again when the chat is opened.
    case sentNotKept(ChatID, StoreError)
    /// A message came from a chat server that this side's history could not keep: it is
    /// shown now, not when the chat is opened again.
    case arrivalNotKept(ChatID, StoreError)
}
