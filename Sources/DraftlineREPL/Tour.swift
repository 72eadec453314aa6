import DraftKit

/// The guided tour: the original app's story, as narration and the keys a person would
/// type for each edit line.
///
/// The executable plays it through the real line editor at a human pace; tests play it
/// through a ``Session`` with ``PipedLine``. Each step's keys end with Enter (`\r`), a
/// leave key (`^X` then `p`, `b`, `o` or `/`), Ctrl-C or Ctrl-D, so each step is exactly
/// one edit line.
public enum Tour {
    /// One edit line of the tour.
    public struct Step: Equatable, Sendable {
        /// What to say before the line is typed.
        public var narration: String
        /// The keys, as typed.
        public var keys: String
    }

    /// The story: start typing a friend's ID in alice's chat, leave to look up bob's
    /// profile, come back to find the text waiting, finish it and send; then leave a draft
    /// in bob's chat, and keep it through a command typed into it, Ctrl-C and `/undo`,
    /// `^X /`, and Ctrl-D; then quit.
    public static let steps: [Step] = [
        Step(
            narration: "This is the input box of a chat app, played in draftline's real edit line. "
                + "Every draft event is traced, and the draft map is shown after each step. "
                + "Any key skips ahead; Ctrl-C stops the tour. First, open alice's chat.",
            keys: "/open alice\r"),
        Step(
            narration: "Alice asks for Bob's ID. You start typing it, then need to look it up: "
                + "^X o leaves the chat to open another one, keeping the edit line as alice's draft.",
            keys: "Bob's ID is \u{18}o"),
        Step(
            narration: "Saved under the key privateMessage_alice, in memory. Now open bob's chat.",
            keys: "bob\r"),
        Step(
            narration: "Tap his avatar: /profile shows his global_key.",
            keys: "/profile\r"),
        Step(
            narration: "His global_key is bob. Go back to bob's chat...",
            keys: "/back\r"),
        Step(
            narration: "...and back once more, to alice.",
            keys: "/back\r"),
        Step(
            narration: "Entering alice's chat restored privateMessage_alice into the edit line, "
                + "the cursor where you left it. Finish the message and send it.",
            keys: "bob\r"),
        Step(
            narration: "Sending removed the draft first, then stored the message in history. "
                + "Now open bob's chat, to leave a draft there.",
            keys: "/open bob\r"),
        Step(
            narration: "Type something, then ^X b: back, with the edit line kept as bob's draft.",
            keys: "See you at 6\u{18}b"),
        Step(
            narration: "privateMessage_bob is waiting in memory. Open bob's chat again: the draft is in the "
                + "edit line.",
            keys: "/open bob\r"),
        Step(
            narration: "A command typed into a restored draft runs, and leaves the draft as it was: "
                + "type /drafts at the end of the line and press Enter.",
            keys: "/drafts\r"),
        Step(
            narration: "Ctrl-C abandons the line, as in a shell: the line comes back empty, and what it held "
                + "goes on the undo stack.",
            keys: " or 7?\u{3}"),
        Step(
            narration: "/undo brings it back, into the edit line.",
            keys: "/undo\r"),
        Step(
            narration: "^X / asks for a command on a prompt of its own and keeps the draft, cursor and all.",
            keys: "\u{18}/"),
        Step(
            narration: "The chat list shows the draft waiting; after the command, the draft is back in the line.",
            keys: "chats\r"),
        Step(
            narration: "Ctrl-D on an empty line quits; with drafts in memory, the first press only says what "
                + "would be lost. (Ctrl-U empties the line first; the draft itself stays.)",
            keys: "\u{15}\u{4}"),
        Step(
            narration: "Drafts never reach the disk: quitting forgets every one of them, while history stays. "
                + "/quit, typed into the draft, is a command too.",
            keys: "/quit\r"),
    ]

    /// What the tour says when it is over.
    public static let ending =
        "That is the whole flow: a key built from the conversation, saved on leave, "
        + "pre-filled on return, removed on send, forgotten on quit. "
        + "(The tour kept its history in memory: yours is untouched.)"

    /// The event a step's keys stand for, given the edit line's pre-fill: what the line
    /// editor produces when they are typed.
    public static func event(for step: Step, prefill: TextDraft?) -> InputEvent {
        var keys = step.keys
        if keys.hasSuffix("\r") { keys.removeLast() }
        return PipedLine.events(for: keys, prefill: prefill).last ?? .line("")
    }
}
