/// Why a file could not be imported or exported (the words are the presenter's:
/// `Presenter.describe(_:importing:)`).
public enum TransferError: Error, Equatable, Sendable {
    /// The file could not be read.
    case unreadable(FileError)
    /// The file's bytes are no chat log (what ``ChatLogFile/init(data:)`` refused).
    case unusable(ChatLogFile.Problem)
    /// `--chat` named a chat that has no history.
    case noSuchChat(String)
    /// The export holds more objects than a binary property list's 4-byte references reach.
    case tooManyObjects
    /// A private chat and a comment thread of this one name: the original's one namespace
    /// cannot hold both.
    case bothKinds(String)
    /// The export could not be written.
    case unwritable(OutputPathError)
    /// The history could not be read or written.
    case store(StoreError)
    /// An import stopped part way: why, and what was stored before it (kept; running the
    /// import again adds the rest).
    case importStopped(StoreError, after: HistoryTransfer.ImportSummary)

}
