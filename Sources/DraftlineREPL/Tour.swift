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

        /// Seconds to read the narration before the first key, at speed 1.
        public var readingPause: Double { min(4, 0.8 + 0.03 * Double(narration.count)) }

        /// Seconds the step takes at speed 1: the pause, then a key every ``Tour/keyInterval``.
        public var duration: Double { readingPause + Double(keys.unicodeScalars.count) * Tour.keyInterval }
    }

    /// Seconds between two keys at speed 1: a person typing about 14 keys a second.
    public static let keyInterval = 1.0 / 14

    /// A chapter: one rule, told in a few edit lines (each plays in under a minute).
    public struct Chapter: Sendable {
        /// What `--tour NAME` and `/tour NAME` call it.
        public var name: String
        /// What it shows.
        public var title: String
        public var steps: [Step]
        /// Seconds at speed 1 after which a demo contact answers a message; `nil` when
        /// nobody answers in this chapter.
        public var peerDelay: Double?
    }

    /// Every chapter: the story first (the default), then one a rule.
    public static let chapters: [Chapter] = [
        Chapter(name: "story", title: "the whole flow, as the original app's users met it", steps: steps),
        Chapter(
            name: "undo", title: "discard and undo",
            steps: [
                Step(narration: "Discard and undo. Open alice's chat.", keys: "/open alice\r"),
                Step(narration: "Leave a draft: type, then ^X b.", keys: "Lunch on Friday?\u{18}b"),
                Step(narration: "Back in her chat, the draft is in the edit line.", keys: "/open alice\r"),
                Step(
                    narration: "/discard, typed into the draft, runs as a command: it drops the draft, "
                        + "onto the undo stack.",
                    keys: "/discard\r"),
                Step(
                    narration: "Type newer words and leave: a newer draft for alice.", keys: "Friday works\u{18}b"),
                Step(
                    narration: "/undo brings the discarded one back, and never overwrites silently: the newer "
                        + "draft goes on the undo stack, and it says so.",
                    keys: "/undo\r"),
                Step(narration: "/undo again: the newer draft is back.", keys: "/undo\r"),
            ]),
        Chapter(
            name: "empty", title: "an emptied and a cleared draft",
            steps: [
                Step(narration: "An emptied and a cleared draft. Open bob's chat.", keys: "/open bob\r"),
                Step(narration: "Leave a draft there.", keys: "See you at 6\u{18}b"),
                Step(narration: "Come back: it is in the edit line.", keys: "/open bob\r"),
                Step(
                    narration: "Ctrl-U empties the line; leaving with an empty line removes the draft, "
                        + "onto the undo stack.",
                    keys: "\u{15}\u{18}b"),
                Step(narration: "/undo brings it back.", keys: "/undo\r"),
                Step(narration: "Open bob's chat again.", keys: "/open bob\r"),
                Step(
                    narration: "A blank line sends nothing: it clears the draft, onto the undo stack too.",
                    keys: "\u{15}   \r"),
                Step(narration: "And /undo brings it back again.", keys: "/undo\r"),
            ]),
        Chapter(
            name: "comments", title: "comment and reply keys",
            steps: [
                Step(
                    narration: "Comment and reply keys. A new comment on tweet 123 has a draft key of its own: "
                        + "tweet_123_, replying to nobody.",
                    keys: "/comment tweet 123\r"),
                Step(narration: "Leave a draft there.", keys: "Nice shot!\u{18}b"),
                Step(
                    narration: "A reply to bob on the same tweet is another input box: tweet_123_bob.",
                    keys: "/comment tweet 123 @bob\r"),
                Step(narration: "Leave a draft there too.", keys: "@bob thanks\u{18}b"),
                Step(
                    narration: "bob's private chat is a third one, privateMessage_bob, empty.",
                    keys: "/open bob\r"),
                Step(narration: "The draft map lists both comment drafts, apart.", keys: "/drafts\r"),
            ]),
        Chapter(
            name: "cursor", title: "the cursor restored mid-line",
            steps: [
                Step(narration: "The cursor restored mid-line. Open carol's chat.", keys: "/open carol\r"),
                Step(
                    narration: "Type, move the cursor back with ^B, and leave: the draft keeps where the cursor was.",
                    keys: "Meet at the station\u{2}\u{2}\u{2}\u{2}\u{2}\u{2}\u{2}\u{18}b"),
                Step(narration: "Come back: the cursor is where you left it.", keys: "/open carol\r"),
                Step(narration: "What you type goes in there. Enter sends the whole line.", keys: "north \r"),
            ]),
        Chapter(
            name: "keys", title: "Ctrl-C, Up, a paste and Ctrl-D: what the keys do with your text",
            steps: [
                Step(narration: "What the keys do with your text. Open dmitri's chat.", keys: "/open dmitri\r"),
                Step(
                    narration: "Ctrl-C abandons the line, as in a shell: it goes on the undo stack, and a line "
                        + "says so.",
                    keys: "Half a thought\u{3}"),
                Step(narration: "/undo brings it back.", keys: "/undo\r"),
                Step(
                    narration: "Up recalls earlier lines over it: twice is /open dmitri. Enter runs it, and what "
                        + "was in the line is kept as the draft, back in the line.",
                    keys: "\u{1B}[A\u{1B}[A\r"),
                Step(narration: "^X p: his profile, the line kept as his draft.", keys: "\u{18}p"),
                Step(
                    narration: "On a profile there is no draft to keep: Ctrl-C puts the line on the undo stack.",
                    keys: "typed on a profile\u{3}"),
                Step(narration: "^X b: back to his chat, the draft in the line.", keys: "\u{18}b"),
                Step(
                    narration: "A paste is inserted, never entered, even with a line break in it: Enter sends "
                        + "one message holding both lines.",
                    keys: "\u{5} and more:\u{1B}[200~ first line\nsecond line\u{1B}[201~\r"),
                Step(narration: "Leave a draft, then go home.", keys: "For later\u{18}b"),
                Step(
                    narration:
                        "Ctrl-D on an empty line quits; with a draft or an undo entry in memory, the first press "
                        + "only warns...",
                    keys: "\u{4}"),
                Step(narration: "...and the second quits, forgetting the draft.", keys: "\u{4}"),
            ]),
        Chapter(
            name: "live", title: "a chat with two sides",
            steps: [
                Step(
                    narration: "A chat with two sides. In this chapter bob answers what you send, as the demo "
                        + "contacts do with draftline --demo. Open his chat.",
                    keys: "/open bob\r"),
                Step(
                    narration: "Ask him something, then start the next line at once.",
                    keys: "Are you free on Saturday?\r"),
                Step(narration: "Keep typing...", keys: "I was thinking of the lake, if the weather holds\r"),
                Step(narration: "Half a line, then ^X p to his profile.", keys: "Shall I bring\u{18}p"),
                Step(
                    narration: "His answers came in above your line while you typed, and nothing in the line "
                        + "moved. On a profile no chat is open: an answer is one line and an unread count.",
                    keys: "/chats\r"),
                Step(narration: "Back to his chat: the half line and its cursor are waiting.", keys: "\u{18}b"),
                Step(narration: "Finish it and send.", keys: " the boat?\r"),
            ],
            peerDelay: 3.5),
        Chapter(
            name: "media", title: "media drafts",
            steps: [
                Step(narration: "Media drafts. Open mei's chat.", keys: "/open mei\r"),
                Step(
                    narration: "A draft has a media list of its own, as in the original: /attach adds a file.",
                    keys: "/attach photo.png\r"),
                Step(narration: "Leave with a caption: text and media are saved together.", keys: "Look!\u{18}b"),
                Step(narration: "Come back: the caption and the attachment are both there.", keys: "/open mei\r"),
                Step(narration: "Enter sends the attachment as a message of its own, then the text.", keys: "\r"),
            ]),
    ]

    /// The chapter with this name.
    public static func chapter(named name: String) -> Chapter? { chapters.first { $0.name == name } }

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
            narration: "^X b goes back with the line kept as the draft, waiting in memory.",
            keys: "\u{18}b"),
        Step(
            narration: "Ctrl-D on an empty line quits; with drafts in memory, the first press only says what "
                + "would be lost. (A draft you empty in the line is no draft: it is not counted.)",
            keys: "\u{4}"),
        Step(
            narration: "Drafts never reach the disk: quitting forgets every one of them, while history stays. "
                + "/quit is a command too.",
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
