/// The chat list: each chat's last message, for the chats the index names last.
extension PropertyListHistory {
    /// Every chat with its last segment read: a cost in the number of chats, paid for
    /// `/chats all` (and once to build the index).
    public func chats() throws(StoreError) -> Reading<[ChatSummary]> {
        var warnings: [StoreWarning] = []
        let summaries = try chatIDs().compactMap { chat in
            let reading = summary(of: chat, repair: true)
            warnings += reading.warnings
            return reading.value
        }
        return Reading(summaries, warnings: warnings)
    }

    /// The chats the index `recent` names last, newest first, each read for its last message
    /// only (without an index, every chat). A failed read is an error, never a shorter list.
    public func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> Reading<[ChatSummary]> {
        let found = try Self.available { () throws(FileError) in
            try recent.newest(limit) { (chat: ChatID) throws(FileError) -> Bool in
                guard include(chat) else { return false }
                return try directories.root(of: chat.kind).exists(chat.rawValue)
            }
        }
        guard let entries = found else {
            var all = try chats()
            all.value = Array(
                all.value.filter { include($0.chatID) }.sorted {
                    ($1.lastActivity, $0.chatID) < ($0.lastActivity, $1.chatID)
                }
                .prefix(limit))
            return all
        }
        var warnings: [StoreWarning] = []
        let summaries = entries.compactMap { entry -> ChatSummary? in
            let reading = summary(of: entry.chat, repair: true)
            warnings += reading.warnings
            guard var summary = reading.value else { return nil }
            summary.changed = entry.date
            return summary
        }
        return Reading(summaries, warnings: warnings)
    }

    /// How many bytes of the chat list's index the last ``recentChats(limit:where:)`` looked
    /// at (for the fuzzers and tests).
    public var chatListBytesScanned: Int { recent.bytesScanned }

    /// A chat's summary; `nil` when it has no segment. One that cannot be read has no last
    /// message, and a warning. Without `repair`, a damaged segment is passed over as it is.
    func summary(of chat: ChatID, repair: Bool) -> Reading<ChatSummary?> {
        var warnings: [StoreWarning] = []
        do throws(FileError) {
            guard let folder = try directories.directory(of: chat) else { return Reading(nil) }
            var earlier = SegmentIndex.Earlier(index: segments.index, chat: chat, directory: folder)
            guard let last = try earlier.lastSegment() else { return Reading(nil) }
            // Only the last message is wanted: the others are passed over, not decoded (the
            // chat list's cost is in what it shows).
            if let data = try? SegmentStore.bytes(SegmentIndex.name(last), in: folder),
                let decoded = SegmentCodec.lastMessage(data), let message = decoded
            {
                return Reading(ChatSummary(chatID: chat, lastMessage: message))
            }
            func read(_ number: Int) throws(FileError) -> [Message]? {
                if repair { return try segments.read(chat, in: folder, number, repair: true, warnings: &warnings) }
                return try SegmentStore.bytes(SegmentIndex.name(number), in: folder).flatMap { SegmentCodec.decode($0) }
            }
            // Back past empty segments to the last message there is (the listing once).
            var lastMessage = try read(last)?.last
            var number = last
            while lastMessage == nil, let previous = try earlier.segment(before: number) {
                lastMessage = try read(previous)?.last
                number = previous
            }
            if repair { segments.removeEmpty(passedBy: &earlier) }
            return Reading(ChatSummary(chatID: chat, lastMessage: lastMessage), warnings: warnings)
        } catch {
            return Reading(
                ChatSummary(chatID: chat, lastMessage: nil, unreadable: true),
                warnings: warnings + [.chatUnreadable(chat, error)])
        }
    }
}
