import DraftKit
import Glibc

/// The words of the store's errors and warnings: a call that failed "could not" (read,
/// write, open) and names the file, the call and the reason; a file that is not what it
/// must be (a link, a FIFO) is named as what it is; "damaged" is said only of a file that
/// was read and does not parse.
extension Presenter {
    /// What a store error says.
    public static func describe(_ error: StoreError) -> String {
        switch error {
        case .unavailable(let failure):
            return describe(failure)
        case .chat(let chat, let failure):
            let verb = failure.isTransient ? "could not read" : "cannot read"
            return "\(verb) the history of \(chat): \(detail(failure))"
        case .readOnly(let failure):
            return "the data directory cannot be written here: \(detail(failure))"
        case .notDelivered(let failure):
            return describe(failure)
        }
    }

    /// Why the chat server did not take a message.
    public static func describe(_ failure: DeliveryFailure) -> String {
        switch failure {
        case .notConnected: return "not connected to the server"
        case .noSuchUser(let name): return "nobody called \(TerminalText.visible(name)) is on the server"
        case .channelRefused(let channel): return "the channel \(TerminalText.visible(channel)) does not take it"
        case .refused(let code, let text): return "the server refused it (\(code) \(TerminalText.visible(text)))"
        case .cut(let sent, let relayed): return "the server cut it short (relayed \(relayed) of \(sent) bytes)"
        case .connectionLost: return "the connection ended before the server took it"
        case .noAnswer: return "the server did not answer in time"
        case .unsendable(let what): return "it cannot be sent to the server: \(TerminalText.visible(what))"
        }
    }

    /// Why an import or an export did not finish: the store's words for a store error,
    /// with what was changed (nothing, or what an import stored before it stopped).
    public static func describe(_ error: TransferError, importing: Bool) -> String {
        switch error {
        case .store(let failure):
            return describe(failure) + (importing ? "; nothing was imported" : "; nothing was written")
        case .importStopped(let failure, let before):
            guard before.added > 0 else { return describe(failure) + "; nothing was imported" }
            return "stopped: \(describe(failure)); \(counted(before.added, "message")) into "
                + "\(counted(before.chats, "chat")) were stored before it, and are kept: "
                + "running the same import again adds the rest, and nothing twice"
        case .unreadable(let failure):
            return "cannot read the file: \(failure.path): \(failure.code == ENOENT ? "no such file" : reason(failure))"
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
            return "none of its \(Self.counted(keys, "key")) holds an array of message dictionaries: "
                + "nothing was imported"
        case .noSuchChat(let chat): return "no chat '\(chat)' in this history: nothing was exported"
        case .tooManyObjects: return "the export could not be encoded: more objects than 4-byte references reach"
        case .bothKinds(let name):
            return "cannot write the export: '\(name)' is both a private chat and a comment thread; export each with "
                + "--chat chats/\(name) and --chat threads/\(name); nothing was written"
        case .unwritable(let failure): return "cannot write the export: \(describe(failure)); nothing was written"
        }
    }

    /// What an import did, in one line.
    public static func imported(_ summary: HistoryTransfer.ImportSummary, from file: String) -> String {
        let line =
            "imported \(counted(summary.added, "message")) into \(counted(summary.chats, "chat")) from \(file)"
        var notes: [String] = []
        if summary.alreadyThere > 0 { notes.append("\(summary.alreadyThere) already there") }
        if summary.skippedKeys > 0 {
            notes.append(
                "\(Self.counted(summary.skippedKeys, "key")) that hold no messages skipped")
        }
        if !summary.skippedChats.isEmpty {
            notes.append("not chat IDs, skipped: " + summary.skippedChats.joined(separator: ", "))
        }
        return notes.isEmpty ? line : line + " (" + notes.joined(separator: "; ") + ")"
    }

    /// What an export wrote, in one line.
    public static func exported(_ summary: HistoryTransfer.ExportSummary, to file: String) -> String {
        "exported \(counted(summary.messages, "message")) in \(counted(summary.chats, "chat")) to \(file)"
    }

    /// What a store warning says.
    public static func describe(_ warning: StoreWarning) -> String {
        switch warning {
        case .movedAside(_, let file):
            return "damaged history file moved aside as \(file); the rest of the history is intact"
        case .notRepaired(_, let file, let failure):
            return "the history file \(file) is damaged and is left as it is (\(describe(failure))): "
                + "what of it is whole is shown"
        case .chatUnreadable(let chat, let failure):
            let verb = failure.isTransient ? "could not read" : "cannot read"
            return "\(verb) the history of \(chat): \(detail(failure)); the other chats are listed"
        case .notMigrated(let name, let existing):
            return "\(name) was left where it is: \(existing) exists already"
        case .liveDeliveryStopped(let failure):
            return "live delivery stopped: \(describe(failure)); messages are stored, but other draftlines on this "
                + "data directory do not see them arrive"
        case .chatListStale(let failure):
            return "the chat list's index cannot be updated: \(describe(failure)); /chats may show an old order"
        case .journalSkipped(let bytes):
            return "the journal ran \(bytes) bytes ahead (a flood of lines): skipped to its end; "
                + "messages it announced are stored but were not shown as they arrived"
        case .notConfirmed(let failure):
            return "stored, but not yet confirmed on disk (\(describe(failure))): a power cut now could lose it; "
                + "it is not to be stored again"
        case .arrivalUnreadable(let chat, let failure):
            return
                "a message arrived in \(chat) but could not be read (\(describe(failure))): opening the chat shows it"
        case .journalUnreadable(let failure):
            return "messages others store are not shown as they arrive: \(describe(failure)); opening a chat shows them"
        case .chatListNotBuilt(let failure):
            return "the chat list's index was not built (\(describe(failure))): /chats reads every chat until it is"
        case .sentNotKept(let chat, let error):
            return "sent to \(chat), but this side's history could not keep it (\(describe(error))): "
                + "it is not to be sent again"
        case .arrivalNotKept(let chat, let error):
            return "a message arrived in \(chat) but this side's history could not keep it (\(describe(error))): "
                + "it is shown only now"
        }
    }

    /// A failed call, or a refused file: what could not be done (read, open, lock, write),
    /// then ``detail(_:)``.
    public static func describe(_ failure: FileError) -> String {
        guard failure.refusal == nil else { return detail(failure) }
        switch failure.operation {
        case "read", "pread", "readdir", "fdopendir", "fstat", "fstatat", "stat", "readlinkat":
            return "could not read " + detail(failure)
        case "open": return "could not open " + detail(failure)
        case "flock": return "could not lock " + detail(failure)
        default: return "could not write " + detail(failure)
        }
    }

    /// The file and what went wrong with it: the call and the C library's reason, or what
    /// the file is instead of what it must be.
    static func detail(_ failure: FileError) -> String {
        if let refusal = failure.refusal { return "\(failure.path) \(describe(refusal))" }
        let reason = String(cString: strerror(failure.code))
        return failure.operation == "open"
            ? "\(failure.path): \(reason)" : "\(failure.path): \(failure.operation): \(reason)"
    }

    /// What is wrong with a refused file.
    static func describe(_ refusal: FileError.Refusal) -> String {
        switch refusal {
        case .symbolicLink: return "is a symbolic link, which is never followed"
        case .notRegularFile(let kind): return "is \(describe(kind)), not a regular file"
        case .notDirectory(let kind): return "is \(describe(kind)), not a directory"
        case .anotherUsers: return "belongs to another user"
        case .shared: return "is shared (sticky, or writable by others): give a directory of your own"
        case .otherNames: return "has other names (hard links)"
        case .tooLarge(let limit): return "is larger than \(limit / 1024 / 1024) MiB, more than is ever read of it"
        case .unencodable: return "cannot be encoded"
        case .doesNotParse: return "does not hold what it must (it does not parse): it is left as it is"
        case .lockHeld(let wait):
            return "is \(holders(wait)); not free after \(String(format: "%.1f", wait.waited)) s"
        }
    }

    /// What is wrong with an output path (an export, a trace file, a report), naming it.
    public static func describe(_ error: OutputPathError) -> String {
        let path = error.path
        switch error.problem {
        case .namesDirectory: return "\(path) names a directory, not a file"
        case .insideDataDirectory(let data):
            return "\(path) is inside the data directory (\(data)): give a path outside it"
        case .notRegularFile(let kind): return "\(path) is \(describe(kind)), not a regular file: it is left as it is"
        case .failed(let failure): return "\(path): \(reason(failure))"
        case .unplaceable(let failure?): return "\(path): cannot tell where it is (\(reason(failure)))"
        case .unplaceable(nil): return "\(path): too deep to tell where it is"
        }
    }

    /// Why a call failed, in the C library's words, or what was wrong with the file, as a
    /// clause after a path ("it is a FIFO, not a regular file").
    static func reason(_ failure: FileError) -> String {
        failure.refusal.map { "it " + describe($0) } ?? String(cString: strerror(failure.code))
    }

    /// A kind of file, in words.
    static func describe(_ kind: FileKind) -> String {
        switch kind {
        case .regularFile: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO"
        case .device: return "a device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a regular file"
        }
    }
}
