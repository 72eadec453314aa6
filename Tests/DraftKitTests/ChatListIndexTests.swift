import DraftlineREPL
import Foundation
import Glibc
import Testing

@testable import DraftKit

/// The chat list's index (`recent`) and `/chats [n|all]`.
@Suite("The chat list and its index")
struct ChatListIndexTests {
    let scratch = ScratchDirectory()
    var data: String { scratch.path + "/data" }

    func message(_ text: String, _ chat: ChatID, at seconds: Double) -> Message {
        Message(
            chatID: chat.rawValue, messageID: text, content: text, target: chat.rawValue,
            sentAt: Date(timeIntervalSince1970: seconds))
    }

    @Test func aDirectoryWithoutTheIndexGetsOneBuiltInTimeOrder() throws {
        let history = try PropertyListHistory(directory: data)
        for (index, name) in ["carol", "alice", "bob"].enumerated() {
            try history.append(message(name, ChatID(name)!, at: 100 - Double(index)), to: ChatID(name)!)
        }
        unlink(data + "/recent")
        let reopened = try PropertyListHistory(directory: data)
        // By the last message's time, not the order of the appends.
        #expect(
            try reopened.recentChats(limit: 3, where: { _ in true }).value.map(\.chatID.rawValue) == [
                "carol", "alice", "bob",
            ])
        #expect(FileManager.default.fileExists(atPath: data + "/recent"))
    }

    @Test func theIndexIsReadBackwardsAcrossBlocksAndCompactedWithoutLosingOrder() throws {
        let history = try PropertyListHistory(directory: data)
        history.recent.compactionFloor = 8 * 1024
        // Long names, so that the file spans many 16 KiB blocks.
        let chats = (0..<1500).map { ChatID("a-rather-long-user-name-to-fill-blocks-\($0)")! }
        for round in 0..<2 {
            for (index, chat) in chats.enumerated() {
                try history.append(message("\(round)-\(index)", chat, at: Double(round * 10_000 + index)), to: chat)
            }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: data + "/recent")[.size] as? Int) ?? 0
        #expect(size < 2 * 1500 * 60, "compacted: \(size) bytes")
        let listed = try history.recentChats(limit: 1200, where: { _ in true }).value
        #expect(listed.map(\.chatID) == Array(chats.reversed().prefix(1200)))
        #expect(listed.allSatisfy { $0.lastMessage?.content.hasPrefix("1-") == true })
    }

    @Test func aDamagedChatIsListedWithAWarningAndAGoneOneIsLeftOut() throws {
        let history = try PropertyListHistory(directory: data)
        for (index, name) in ["alice", "bob", "carol", "dave"].enumerated() {
            try history.append(message(name, ChatID(name)!, at: Double(index)), to: ChatID(name)!)
        }
        try FileManager.default.removeItem(atPath: data + "/chats/dave")
        chmod(data + "/chats/bob", 0o777)  // shared with others: refused, never read
        let reading = try history.recentChats(limit: 10, where: { _ in true })
        let listed = reading.value
        #expect(listed.map(\.chatID.rawValue) == ["carol", "bob", "alice"])
        #expect(listed[1].lastMessage == nil)
        #expect(reading.warnings.count == 1)
    }

    @Test func chatsShowsTwentyByDefaultThenNOrAll() throws {
        let history = try PropertyListHistory(directory: data)
        let session = Frontend(Session(contacts: ContactBook(), history: history))
        for index in 0..<30 {
            let chat = ChatID("user\(index)")!
            try history.append(message("m\(index)", chat, at: Double(index)), to: chat)
        }
        let shown = session.handle(.line("/chats")).lines.map(\.text)
        #expect(shown.count == 21)
        #expect(shown.first == "  user29 · you: m29")
        #expect(shown.last == "(the 20 most recent: /chats 40 or /chats all for more)")
        #expect(session.handle(.line("/chats 3")).lines.map(\.text).count == 4)
        let all = session.handle(.line("/chats all")).lines.map(\.text)
        #expect(all.count == 30 && all.last == "  user0 · you: m0")
        #expect(session.handle(.line("/chats 0")).lines.map(\.kind) == [.error])
        #expect(session.handle(.line("/chats many")).lines.first?.text.contains("or all") == true)
        // A draft puts its chat on the list, newest first, whatever the index says.
        session.handle(.line("/open alice"))
        session.handle(.leave(.back, TextDraft(text: "later", cursor: 5)))
        let withDraft = session.handle(.line("/chats 2")).lines.map(\.text)
        #expect(withDraft.prefix(2) == ["  alice (Alice Chen) · (no messages)", "      Draft: later"], "\(withDraft)")
        // A message and a draft of several lines show each break as one ↵ (the message's
        // indent under its first line had shown as a wide gap, a draft's breaks as ^J).
        session.handle(.line("/open alice"))
        session.handle(.line("later\n  indented"))
        session.handle(.leave(.back, TextDraft(text: "draft one\ndraft two")))
        let multiline = session.handle(.line("/chats 1")).lines.map(\.text)
        #expect(
            multiline.prefix(2) == [
                "  alice (Alice Chen) · you: later ↵ indented", "      Draft: draft one ↵ draft two",
            ],
            "\(multiline)")
    }
}
