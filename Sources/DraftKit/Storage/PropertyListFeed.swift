/// ``PropertyListHistory``'s feed: the journal, followed, and the messages its records
/// point at, read from their segments.
final class PropertyListFeed: HistoryFeed {
    private let history: PropertyListHistory
    private let reader: JournalReader
    private let watch: DirectoryWatch?

    init(history: PropertyListHistory, notifications: Bool) {
        self.history = history
        // The watch first: a line written between the two is then both counted by the
        // reader's start and announced by the watch, never missed.
        watch = notifications ? DirectoryWatch(directory: history.journal.directory) : nil
        reader = JournalReader(journal: history.journal)
    }

    var descriptor: Int32 { watch?.descriptor ?? -1 }

    func take() -> [Arrival] {
        watch?.drain()
        var cache: (path: String, messages: [Message])?
        return reader.take().compactMap { record in
            history.message(at: record, cache: &cache).map { Arrival(chat: record.chat, message: $0) }
        }
    }
}
