import Foundation

/// Brings a file in the original design's layout (``ChatLogFile``) into a history, and
/// writes a history out in that layout: through any store that whole histories can be
/// moved in and out of (``BulkHistoryStore``).
public struct HistoryTransfer {
    /// The history read from and written to.
    public let history: any BulkHistoryStore
    /// Whether a name is a user's (in the contacts): for a file that does not say what its
    /// chats are, `tweet_1` is then a private chat, not a thread. It throws when the
    /// contacts cannot be read: then nothing is imported, rather than filed by a guess.
    let isUser: (String) throws(FileError) -> Bool

    public init(
        history: any BulkHistoryStore, isUser: @escaping (String) throws(FileError) -> Bool = { _ in false }
    ) {
        self.history = history
        self.isUser = isUser
    }

    /// What an import did.
    public struct ImportSummary: Equatable, Sendable {
        /// Chats that received messages.
        public var chats = 0
        /// Messages appended.
        public var added = 0
        /// Messages skipped because a message with their ID was already there.
        public var alreadyThere = 0
        /// Keys of the file that are not arrays of message dictionaries.
        public var skippedKeys = 0
        /// Keys that are arrays of messages but not usable chat IDs.
        public var skippedChats: [String] = []
        /// What the store noticed on the way (a damaged file set aside).
        public var warnings: [StoreWarning] = []
        /// Messages whose date not every reader reads (NaN, year 10000, year 0): stored
        /// without it, as a message that has none (``Message/unknownTime``).
        public var undatable: [Undatable] = []
    }

    /// A message imported without its date, which `plistlib` cannot read
    /// (``Message/isReadable(_:)``): never stored, or the segment and every export holding it
    /// would be unreadable.
    public struct Undatable: Equatable, Sendable {
        /// The file's key the message was under.
        public var chat: String
        /// Its place in that chat's array, from 0.
        public var position: Int
        /// Its ID (derived when it had none).
        public var messageID: String
        /// The date as the file gave it: seconds since 2001.
        public var seconds: Double
    }

    /// Appends the messages of a file in the original layout, in its order, to the chats
    /// its keys name. A message whose `messageID` is already in its chat is skipped, so
    /// importing a file twice adds nothing; a message without an ID gets one derived from
    /// its chat, its position in the file and its fields, the same on every import. Each
    /// chat is the kind the file records (``ChatLogFile/kinds``); in a file that records
    /// none, a key that looks like a comment thread (`tweet_123`) is a thread unless it is
    /// a user's (``isUser``), as the layout upgrade decides; other keys are private chats.
    /// A message without a `sender` gets its ``Message/author``, so exporting it again
    /// writes who sent it; a date not every reader reads is not stored
    /// (``ImportSummary/undatable``). Nothing changes when the file cannot be used, or when a
    /// chat's history cannot be read before the first append. When storing stops part way,
    /// the error says what was stored before it (``TransferError/importStopped(_:after:)``):
    /// running the import again adds the rest, and nothing twice.
    public func importFile(_ path: String) throws(TransferError) -> ImportSummary {
        try importChats(ChatLogFile(contentsOf: path))
    }

    /// Appends the chats of a file already read (see ``importFile(_:)``).
    public func importChats(_ file: ChatLogFile) throws(TransferError) -> ImportSummary {
        var summary = ImportSummary(skippedKeys: file.skippedKeys)
        var plan: [(ChatID, [Message])] = []
        for (key, messages) in file.chats {
            var kind = ChatID.Kind.privateChat
            if let recorded = file.kinds[key] {
                kind = recorded
            } else if ChatID.looksLikeThread(key) {
                do throws(FileError) {
                    if try !isUser(key) { kind = .thread }
                } catch {
                    throw .store(.unavailable(error))
                }
            }
            guard let chat = ChatID(key, kind: kind) else {
                summary.skippedChats.append(key)
                continue
            }
            // IDs as written: Swift's `==` takes canonically equivalent ones for one.
            var known: Set<ExactText>
            do throws(StoreError) {
                let stored = try history.allMessages(in: chat)
                summary.warnings += stored.warnings
                known = Set(stored.value.map { ExactText($0.messageID) })
            } catch {
                throw .store(error)
            }
            var new: [Message] = []
            for (position, original) in messages.enumerated() {
                var message = original
                if message.messageID.isEmpty { message.messageID = Self.derivedID(message, chat: key, at: position) }
                if message.sender.isEmpty { message.sender = message.author }
                guard known.insert(ExactText(message.messageID)).inserted else {
                    summary.alreadyThere += 1
                    continue
                }
                if !Message.isReadable(message.sentAt) {
                    summary.undatable.append(
                        Undatable(
                            chat: key, position: position, messageID: message.messageID,
                            seconds: message.sentAt.timeIntervalSinceReferenceDate))
                    message.sentAt = Message.unknownTime
                }
                new.append(message)
            }
            if !new.isEmpty { plan.append((chat, new)) }
        }
        for (chat, planned) in plan {
            let before = summary
            do throws(StoreError) {
                // Under the lock, the chat's IDs are read again: another import of the same
                // file, running at the same time, may have stored these messages since.
                try history.exclusively { () throws(StoreError) in
                    let stored = Set(try history.allMessages(in: chat).value.map { ExactText($0.messageID) })
                    let messages = planned.filter { !stored.contains(ExactText($0.messageID)) }
                    summary.alreadyThere += planned.count - messages.count
                    guard !messages.isEmpty else { return }
                    // Not announced: a running draftline shows what people send, not a bulk load.
                    summary.warnings += try history.appendAll(messages, to: chat, durable: false, announce: false)
                    summary.chats += 1
                    summary.added += messages.count
                }
            } catch {
                // What was stored before is kept and synced; the rest is left for a second run.
                if before.added > 0 { try? history.commit() }
                throw .importStopped(error, after: before)
            }
        }
        if summary.added > 0 {
            do throws(StoreError) {
                try history.commit()
            } catch {
                // Every message is in place: the sync alone failed.
                guard case .unavailable(let failure) = error else { throw .store(error) }
                summary.warnings.append(.notConfirmed(failure))
            }
        }
        return summary
    }

    /// What an export wrote.
    public struct ExportSummary: Equatable, Sendable {
        /// Chats written.
        public var chats = 0
        /// Messages written.
        public var messages = 0
        /// What the store noticed on the way (a damaged file set aside).
        public var warnings: [StoreWarning] = []
    }

    /// Writes every chat (or the one named `chat`) to `output` in the original layout:
    /// a binary property list, written to a temporary file beside it, synced, and
    /// renamed into place, mode 0600. The output path was checked to be outside the data
    /// directory and no FIFO or device (``OutputPath``).
    public func export(to output: OutputPath, chat name: String? = nil) throws(TransferError) -> ExportSummary {
        var chats: [ChatID]
        do throws(StoreError) {
            chats = try history.chatIDs()
        } catch {
            throw .store(error)
        }
        if var name {
            // `chats/NAME` and `threads/NAME` name the kind (as the data directory does), so
            // a private chat `tweet_1` beside the thread `tweet_1` can be exported too.
            var preferred: [ChatID.Kind] =
                ChatID.looksLikeThread(name) ? [.thread, .privateChat] : [.privateChat, .thread]
            for kind in ChatID.Kind.allCases where name.hasPrefix(HistoryDirectories.name(of: kind) + "/") {
                name.removeFirst(HistoryDirectories.name(of: kind).count + 1)
                preferred = [kind]
            }
            guard
                let chosen = preferred.compactMap({ kind in chats.first { $0.kind == kind && $0.rawValue == name } })
                    .first
            else { throw .noSuchChat(name) }
            chats = [chosen]
        }
        var names: Set<String> = []
        for chat in chats where !names.insert(chat.rawValue).inserted {
            // One namespace in the original: a thread and a private chat of one name
            // cannot both be written; the private chat comes first, and the error says so.
            throw .bothKinds(chat.rawValue)
        }
        // Each chat is read and encoded in turn: memory holds the file's bytes and one
        // chat's messages, never the whole history as values.
        var encoder = SegmentEncoder.chatLog()
        var written: [(key: Int, value: Int)] = []
        var summary = ExportSummary()
        for chat in chats {
            do throws(StoreError) {
                let messages = try history.allMessages(in: chat)
                written.append(encoder.addChat(chat.rawValue, messages.value))
                summary.messages += messages.value.count
                summary.warnings += messages.warnings
            } catch {
                throw .store(error)
            }
        }
        // draftline's own key: each chat's kind (``ChatLogFile/kindsKey``).
        written.append(
            encoder.addNames(
                ChatLogFile.kindsKey, chats.map { ($0.rawValue, ChatLogFile.kindNames[$0.kind] ?? "chat") }))
        guard let bytes = encoder.finishChatLog(written) else {
            throw .tooManyObjects
        }
        do throws(OutputPathError) {
            // In place once renamed: a sync of its directory that failed then is said, and
            // the export is not reported as "nothing was written".
            if let unconfirmed = try output.replace(with: Data(bytes)) {
                summary.warnings.append(.notConfirmed(unconfirmed))
            }
        } catch {
            throw .unwritable(error)
        }
        summary.chats = chats.count
        return summary
    }

    /// A stable ID for a message that has none: its chat, position and fields, hashed
    /// (FNV-1a, 64 bits).
    static func derivedID(_ message: Message, chat: String, at position: Int) -> String {
        let fields = [
            chat, String(position), message.content, message.type, message.filePath, message.address,
            String(message.latitude), String(message.longitude), message.target,
        ]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in fields.joined(separator: "\u{0}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "imported-\(position)-\(String(hash, radix: 16))"
    }
}
