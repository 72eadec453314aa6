/// Why a ``HistoryStore`` could not do what was asked: the call that failed (its name,
/// path and `errno`, ``FileError``), and the chat it was for. Data only: the presenter
/// words it, "could not read" for a call that failed and "damaged" only for a file that
/// is not what it must be.
public enum StoreError: Error, Equatable, Sendable {
    /// The store could not be read or written at the moment (a device error, a full disk,
    /// no descriptors left): the call that failed. Nothing was changed.
    case unavailable(FileError)
    /// One chat's history could not be used: the call that failed, or what its files are
    /// instead of what they must be (a link, a file where its directory belongs). The
    /// other chats are not affected.
    case chat(ChatID, FileError)
    /// The data directory cannot be written here (a read-only file system, no write
    /// permission): it is read, and nothing is stored. The call that told.
    case readOnly(FileError)
    /// The other side, a chat server (``Transport``), did not take the message: why.
    /// Nothing was stored.
    case notDelivered(DeliveryFailure)
}

/// Something a ``HistoryStore`` noticed and repaired or worked around, delivered with the
/// result of the call that met it (``Reading``). Data only: the presenter words it.
public enum StoreWarning: Equatable, Sendable {
    /// A file of a chat did not parse; it was moved aside unchanged under this name
    /// (relative to the data directory), and the rest of the history is intact.
    case movedAside(ChatID, file: String)
    /// A file of a chat did not parse, and could not be moved aside (the data directory is
    /// read-only): it is left as it is, and what of it was whole is shown.
    case notRepaired(ChatID, file: String, FileError)
    /// A chat could not be read while listing chats; it is listed without its last
    /// message.
    case chatUnreadable(ChatID, FileError)
    /// A directory from an older layout could not be moved to where this version keeps it,
    /// because a directory of that name is there already (both relative to the data
    /// directory).
    case notMigrated(String, existing: String)
    /// Messages are stored, but the other draftlines on the data directory are no longer
    /// told of them (the journal cannot be written): the call that failed. Said once,
    /// until the journal works again.
    case liveDeliveryStopped(FileError)
    /// The chat list's index could not be updated: the list's order may be stale until it
    /// can (the call that failed). Said once, until the index works again.
    case chatListStale(FileError)
    /// The journal was so far ahead (a flood of lines) that this many bytes of it were
    /// skipped: messages they announced are stored, but were not shown as they arrived.
    case journalSkipped(bytes: Int)
    /// What was stored is in place and read back, but the last sync failed: it is not yet
    /// confirmed on disk (a power cut now could lose it). Nothing is to be done again.
    case notConfirmed(FileError)
    /// A message another process stored in this chat could not be read as it arrived (the
    /// call that failed): opening the chat shows it.
    case arrivalUnreadable(ChatID, FileError)
    /// The journal could not be read (the call that failed): messages others store are
    /// not shown as they arrive until it can; opening a chat shows them. Said once, until
    /// a read of it works again.
    case journalUnreadable(FileError)
    /// The chat list's index is missing and could not be built (the call that failed):
    /// the chat list reads every chat until it is.
    case chatListNotBuilt(FileError)
    /// A chat server took a message of this side's, but this side's history could not
    /// keep it (why): it is sent, and not shown again when the chat is opened.
    case sentNotKept(ChatID, StoreError)
    /// A message came from a chat server that this side's history could not keep (why):
    /// it is shown now, and not when the chat is opened again.
    case arrivalNotKept(ChatID, StoreError)
}
