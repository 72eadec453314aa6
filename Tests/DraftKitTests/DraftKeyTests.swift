import DraftKit
import Testing

@Suite("Global keys and draft keys")
struct DraftKeyTests {
    @Test(arguments: ["alice", "bob.smith", "user_1", "a-b", "9lives", String(repeating: "a", count: 64)])
    func validGlobalKeys(_ text: String) throws {
        #expect(try GlobalKey(validating: text).rawValue == text)
    }

    @Test(arguments: [
        "", "Alice", ".hidden", "..", "-x", "_x", "a/b", "a b", "(null)", "ä", String(repeating: "a", count: 65),
        "a\u{0}", "a\n",
    ])
    func invalidGlobalKeysAreRefused(_ text: String) {
        #expect(throws: DraftlineError.invalidGlobalKey(text)) { try GlobalKey(validating: text) }
    }

    @Test func privateChatKey() throws {
        let target = InputTarget.privateChat(try GlobalKey(validating: "alice"))
        #expect(target.draftKey.rawValue == "privateMessage_alice")
        #expect(target.chatID(as: .me).rawValue == "alice")
    }

    @Test func commentKeysWithAndWithoutReplyTarget() throws {
        let bob = try GlobalKey(validating: "bob")
        #expect(InputTarget.comment(.tweet, id: 123, replyTo: nil).draftKey.rawValue == "tweet_123_")
        #expect(InputTarget.comment(.topic, id: 7, replyTo: bob).draftKey.rawValue == "topic_7_bob")
        #expect(InputTarget.comment(.task, id: 42, replyTo: bob).draftKey.rawValue == "task_42_bob")
        #expect(InputTarget.comment(.task, id: 42, replyTo: bob).chatID(as: .me).rawValue == "task_42")
    }

    @Test func chatIDsAreSafeFileNames() {
        #expect(ChatID("alice") != nil)
        #expect(ChatID("..") == nil)
        #expect(ChatID("a/b") == nil)
        #expect(ChatID("") == nil)
    }
}
