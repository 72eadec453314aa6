import Testing

@testable import DraftKit

@Suite("The drafts: the two maps under the moves")
struct DraftsTests {
    let alice = InputTarget.privateChat(try! GlobalKey(validating: "alice")).draftKey
    let bob = InputTarget.privateChat(try! GlobalKey(validating: "bob")).draftKey

    @Test func savesTextWithCursorAndKeepsKeysApart() {
        var store = Drafts()
        #expect(store.saveText(TextDraft(text: "hi\tthere 你好 😀", cursor: 3), for: alice) == .saved)
        store.saveText(TextDraft(text: "for bob"), for: bob)
        #expect(store.text(for: alice) == TextDraft(text: "hi\tthere 你好 😀", cursor: 3))
        #expect(store.text(for: bob)?.cursor == 7)
        #expect(store.keys == [alice, bob])
    }

    @Test func emptyTextRemovesTheEntry() {
        var store = Drafts()
        store.saveText(TextDraft(text: "x"), for: alice)
        #expect(store.saveText(TextDraft(text: ""), for: alice) == .removed)
        #expect(store.text(for: alice) == nil)
        #expect(store.saveText(TextDraft(text: ""), for: alice) == .none)
        #expect(store.isEmpty)
    }

    @Test func emptyMediaListRemovesTheEntryAndTextIsSeparate() {
        var store = Drafts()
        store.saveAttachments([Attachment(path: "/tmp/a.png")], for: alice)
        store.saveText(TextDraft(text: "caption"), for: alice)
        #expect(store.count == 1)
        #expect(store.saveAttachments([], for: alice) == .removed)
        #expect(store.attachments(for: alice).isEmpty)
        #expect(store.text(for: alice)?.text == "caption")
    }

    @Test func removeThenRestorePutsBothBack() {
        var store = Drafts()
        store.saveText(TextDraft(text: "unsent", cursor: 2), for: alice)
        store.saveAttachments([Attachment(path: "/tmp/a.png")], for: alice)
        let removed = store.remove(alice)
        #expect(!store.hasDraft(for: alice))
        store.restore(removed, for: alice)
        #expect(store.text(for: alice) == TextDraft(text: "unsent", cursor: 2))
        #expect(store.attachments(for: alice) == [Attachment(path: "/tmp/a.png")])
    }

    @Test func removeAllForgetsEverything() {
        var store = Drafts()
        store.saveText(TextDraft(text: "a"), for: alice)
        store.saveText(TextDraft(text: "b"), for: bob)
        #expect(store.removeAll() == [alice, bob])
        #expect(store.isEmpty)
    }

    @Test func cursorIsClampedToTheText() {
        #expect(TextDraft(text: "abc", cursor: 99).cursor == 3)
        #expect(TextDraft(text: "abc", cursor: -1).cursor == 0)
        #expect(TextDraft(text: "你好😀").cursor == 3)
    }

    @Test func typingIntoADraftInsertsAtTheCursor() {
        let draft = TextDraft(text: "Bob's ID is ", cursor: 12).inserting("bob")
        #expect(draft == TextDraft(text: "Bob's ID is bob", cursor: 15))
        #expect(TextDraft(text: "你😀好", cursor: 1).inserting("X") == TextDraft(text: "你X😀好", cursor: 2))
    }
}
