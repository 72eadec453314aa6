import Foundation
import Testing

@testable import DraftKit

/// Two imports of one file into one data directory at the same time store each message
/// once.
@Suite("Imports that run at the same time")
struct ImportTogetherTests {
    let scratch = ScratchDirectory()

    /// A store that, the first time the import takes the lock, lets a second import of the
    /// same file (another process: its own history object and lock) run to its end first:
    /// the moment between the import's first look at the chats and its appends.
    final class Interleaved: BulkHistoryStore {
        let inner: PropertyListHistory
        var before: (() throws -> Void)?

        init(_ inner: PropertyListHistory, before: @escaping () throws -> Void) {
            self.inner = inner
            self.before = before
        }

        func exclusively<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
            if let run = before {
                before = nil
                do { try run() } catch { throw .unavailable(FileError("import", path: "\(error)", code: EIO)) }
            }
            return try inner.exclusively(body)
        }

        func append(_ message: Message, to chat: ChatID) throws(StoreError) -> [StoreWarning] {
            try inner.append(message, to: chat)
        }
        func recentMessages(in chat: ChatID, limit: Int) throws(StoreError) -> Reading<[Message]> {
            try inner.recentMessages(in: chat, limit: limit)
        }
        func messageCount(in chat: ChatID) throws(StoreError) -> Reading<Int> { try inner.messageCount(in: chat) }
        func chats() throws(StoreError) -> Reading<[ChatSummary]> { try inner.chats() }
        func recentChats(limit: Int, where include: (ChatID) -> Bool) throws(StoreError) -> Reading<[ChatSummary]> {
            try inner.recentChats(limit: limit, where: include)
        }
        func follow(notifications: Bool) -> any HistoryFeed { inner.follow(notifications: notifications) }
        func chatIDs() throws(StoreError) -> [ChatID] { try inner.chatIDs() }
        func allMessages(in chat: ChatID) throws(StoreError) -> Reading<[Message]> { try inner.allMessages(in: chat) }
        func appendAll(
            _ messages: [Message], to chat: ChatID, durable: Bool, announce: Bool
        ) throws(StoreError)
            -> [StoreWarning]
        {
            try inner.appendAll(messages, to: chat, durable: durable, announce: announce)
        }
        func commit() throws(StoreError) { try inner.commit() }
    }

    @Test func anotherImportOfTheSameFileBetweenTheLookAndTheAppendAddsNothingTwice() throws {
        let data = scratch.path + "/data"
        let file = ChatLogFile(
            chats: ["alice", "bob", "carol"].map { chat in
                (chat, (0..<40).map { Message(chatID: chat, messageID: "\(chat)-\($0)", content: "m\($0)") })
            }, skippedKeys: 0, kinds: [:])
        let other = try PropertyListHistory(directory: data)
        let history = Interleaved(try PropertyListHistory(directory: data)) {
            let summary = try HistoryTransfer(history: other).importChats(file)
            #expect(summary.added == 120)
        }
        let summary = try HistoryTransfer(history: history).importChats(file)
        #expect(summary.added == 0 && summary.alreadyThere == 120)
        for chat in ["alice", "bob", "carol"] {
            let ids = try other.allMessages(in: ChatID(chat)!).value.map(\.messageID)
            #expect(ids == (0..<40).map { "\(chat)-\($0)" }, "\(chat) holds each message once, in order")
        }
    }
}
