import DraftKit
import Foundation
import Testing

/// The storage contract (``HistoryStore``), held against every store draftline has.
@Suite("The history store contract")
struct HistoryStoreContractTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, propertyList
        var testDescription: String { rawValue }
    }

    let scratch = ScratchDirectory()

    func store(_ kind: Kind, capacity: Int = 4) throws -> any HistoryStore {
        switch kind {
        case .memory: return InMemoryHistory()
        case .propertyList: return try PropertyListHistory(directory: scratch.path + "/data", segmentCapacity: capacity)
        }
    }

    static let alice = ChatID("alice")!
    static let userCalledTweet1 = ChatID("tweet_1")!
    static let threadTweet1 = ChatID("tweet_1", kind: .thread)!

    static func message(_ text: String, _ chat: ChatID, at seconds: Double = 1_000_000) -> Message {
        Message(
            chatID: chat.rawValue, messageID: "id-\(text)", content: text, target: chat.rawValue, mineHead: "me",
            otherHead: chat.rawValue, type: "location", filePath: "/f/\(text)", address: "addr \(text)",
            latitude: 1.5, longitude: -2.25, sentAt: Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: Kind.allCases)
    func messagesComeBackInOrderWithEveryField(_ kind: Kind) throws {
        let history = try store(kind)
        let sent = (0..<11).map { Self.message("m\($0)", Self.alice, at: 1_000_000 + Double($0) * 0.001) }
        for message in sent { try history.append(message, to: Self.alice) }
        #expect(try history.recentMessages(in: Self.alice, limit: 100).value == sent)
        #expect(try history.recentMessages(in: Self.alice, limit: 3).value == Array(sent.suffix(3)))
        #expect(try history.recentMessages(in: Self.alice, limit: 0).value == [])
        #expect(try history.messageCount(in: Self.alice).value == 11)
    }

    @Test(arguments: Kind.allCases)
    func aPrivateChatAndAThreadNeverShareAHistoryWhateverTheNames(_ kind: Kind) throws {
        let history = try store(kind)
        try history.append(Self.message("to the user", Self.userCalledTweet1), to: Self.userCalledTweet1)
        try history.append(Self.message("in the thread", Self.threadTweet1), to: Self.threadTweet1)
        #expect(try history.recentMessages(in: Self.userCalledTweet1, limit: 9).value.map(\.content) == ["to the user"])
        #expect(try history.recentMessages(in: Self.threadTweet1, limit: 9).value.map(\.content) == ["in the thread"])
        #expect(
            try history.chats().value.map(\.chatID).sorted() == [Self.userCalledTweet1, Self.threadTweet1].sorted())
    }

    @Test(arguments: Kind.allCases)
    func theChatListCarriesEachLastMessageAndItsSendTime(_ kind: Kind) throws {
        let history = try store(kind)
        try history.append(Self.message("old", Self.alice, at: 10), to: Self.alice)
        try history.append(Self.message("new", Self.alice, at: 20), to: Self.alice)
        try history.append(Self.message("thread", Self.threadTweet1, at: 15), to: Self.threadTweet1)
        let summaries = try history.chats().value.sorted { $0.chatID < $1.chatID }
        #expect(summaries.map(\.lastMessage?.content) == ["new", "thread"])
        #expect(summaries.map(\.lastActivity) == [Date(timeIntervalSince1970: 20), Date(timeIntervalSince1970: 15)])
    }

    @Test(arguments: Kind.allCases)
    func anUnknownChatIsEmpty(_ kind: Kind) throws {
        let history = try store(kind)
        #expect(try history.recentMessages(in: Self.alice, limit: 5).value == [])
        #expect(try history.messageCount(in: Self.alice).value == 0)
        #expect(try history.chats().value == [])
    }

    @Test(arguments: Kind.allCases)
    func aFailedAppendChangesNothing(_ kind: Kind) throws {
        let history = try store(kind)
        try history.append(Self.message("kept", Self.alice), to: Self.alice)
        // The store in memory is told; the files' every call that changes the disk fails, as
        // on a full disk.
        let fullDisk = FaultPlan([FaultPlan.Rule(failing: 0, with: ENOSPC, onward: true, changesOnly: true)])
        switch history {
        case let memory as InMemoryHistory:
            memory.nextAppendFailure = .unavailable(FileError("write", path: "memory", code: ENOSPC))
        case is PropertyListHistory: break
        default: Issue.record("no way to make \(kind) fail")
        }
        FaultPlan.withActive(fullDisk) {
            #expect(throws: StoreError.self) { try history.append(Self.message("lost", Self.alice), to: Self.alice) }
        }
        #expect(try history.recentMessages(in: Self.alice, limit: 9).value.map(\.content) == ["kept"])
        #expect(try history.messageCount(in: Self.alice).value == 1)
    }

    @Test(arguments: Kind.allCases)
    func recentChatsAreTheLastChangedNewestFirstEachOnce(_ kind: Kind) throws {
        let history = try store(kind)
        let names = (0..<30).map { ChatID("user\($0)")! }
        for (index, chat) in names.enumerated() {
            try history.append(Self.message("m\(index)", chat, at: 1_000 + Double(index)), to: chat)
        }
        // user3 changes again: it is the newest now, and listed once.
        try history.append(Self.message("again", names[3], at: 2_000), to: names[3])
        let recent = try history.recentChats(limit: 4, where: { _ in true }).value
        #expect(recent.map(\.chatID.rawValue) == ["user3", "user29", "user28", "user27"])
        #expect(recent.map(\.lastMessage?.content) == ["again", "m29", "m28", "m27"])
        let odd = try history.recentChats(limit: 3, where: { Int($0.rawValue.dropFirst(4))! % 2 == 1 }).value
        #expect(odd.map(\.chatID.rawValue) == ["user3", "user29", "user27"])
        #expect(try history.recentChats(limit: 100, where: { _ in true }).value.count == 30)
    }
}
