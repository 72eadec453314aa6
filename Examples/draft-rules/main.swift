// The draft rules of draftline, from code: `swift run draft-rules`.
//
// One in-memory store, keyed as the original chat app keys its input boxes. No terminal,
// no disk: this is the whole life of a draft.
import DraftKit

let alice = InputTarget.privateChat(try GlobalKey(validating: "alice"))
let thread = InputTarget.comment(.tweet, id: 123, replyTo: nil)
var drafts = Drafts()

@MainActor func show(_ event: String) {
    let map = drafts.keys.map { "\($0) = \(drafts.text(for: $0).map { "\"\($0.text)\" @\($0.cursor)" } ?? "-")" }
    print(event.padding(toLength: 44, withPad: " ", startingAt: 0), "{ " + map.joined(separator: ", ") + " }")
}

show("start")
_ = drafts.keep(TextDraft(text: "Bob's ID is "), for: alice, because: .left(.back))
show("leave alice's chat with text: saved")
_ = drafts.keep(TextDraft(text: "nice!"), for: thread, because: .left(.back))
show("leave a comment on tweet 123: its own key")
_ = drafts.enter(alice)
let restored = drafts.text(for: alice.draftKey)!.inserting("bob")
show("enter alice's chat: pre-filled, typed 'bob'")
let (taken, _) = drafts.take(alice, because: .sending)
show("send \"\(restored.text)\": removed first")
_ = drafts.putBack(taken, for: alice)
show("...had the write failed: put back")
_ = drafts.keep(TextDraft(text: ""), for: alice, because: .leftEmpty(.back))
show("leave with an empty line: removed")
_ = drafts.forgetAll()
show("quit: every draft is forgotten")
do {
    _ = try GlobalKey(validating: "")
} catch {
    print("and no key is built from a missing user:", error)
}
