/// Why a file could not be imported or exported; each says what to do.
public enum TransferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read (the reason).
    case unreadable(String)
    /// The file's bytes are no chat log (what ``ChatLogFile/init(data:)`` refused).
    case unusable(ChatLogFile.Problem)
    /// `--chat` named a chat that has no history.
    case noSuchChat(String)
    /// The export could not be encoded.
    case cannotEncode(String)
    /// The export could not be written (the reason).
    case unwritable(String)
    /// The history could not be read or written.
    case store(StoreError)
    /// An import stopped part way: why, and what was stored before it (kept; running the
    /// import again adds the rest).
    case importStopped(StoreError, after: HistoryTransfer.ImportSummary)

    public var description: String {
        switch self {
        case .unreadable(let reason): return "cannot read the file: \(reason)"
        case .unusable(.notAPropertyList):
            return "not a property list (XML or binary): nothing was imported"
        case .unusable(.tooDeep(let levels)):
            return "the property list nests deeper than \(levels) levels, more than any chat log: nothing was imported"
        case .unusable(.tooLarge(let megabytes)):
            return "the file refers to its objects so many times that reading it would take more than "
                + "\(megabytes) MB: nothing was imported"
        case .unusable(.notADictionary):
            return "the property list is not a dictionary of chat IDs to message arrays: nothing was imported"
        case .unusable(.repeatedKey(let key)):
            return "the file holds the key '\(key)' twice, and readers keep either one: nothing was imported"
        case .unusable(.noChats(let keys)):
            return "none of its \(keys) key\(keys == 1 ? "" : "s") holds an array of message dictionaries: "
                + "nothing was imported"
        case .noSuchChat(let chat): return "no chat '\(chat)' in this history: nothing was exported"
        case .cannotEncode(let reason): return "the export could not be encoded: \(reason)"
        case .unwritable(let reason): return "cannot write the export: \(reason); nothing was written"
        case .store(let error): return "\(error)"
        case .importStopped(let error, _): return "\(error)"
        }
    }
}
