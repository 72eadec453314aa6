import DraftKit
import DraftlineREPL
import DraftlineTestSupport
import Foundation
import Testing

/// Seeded random keystrokes through the real line editor: no crash, no stall over 5 s,
/// and after every leave and return the edit line holds exactly what was left.
///
/// A stall is 5 s in which draftline writes nothing. A step may take longer while it is
/// visibly working: libedit's ^R search runs a regular expression over the whole edit-line
/// history for each key, so a block pasted into a failing search over hundreds of long
/// lines takes seconds, answering every key as it goes.
@Suite("Random keystrokes on a terminal", .serialized)
struct RandomKeystrokeTests {
    static let sequences = 2000
    static let seed: UInt64 = 0xD4AF_7115

    static let words = ["hello", "draft", " ", "ID", "bob", "x", "  ", "/", "-", "42"]
    static let unicode = ["你好", "世界", "草稿", "😀", "👩‍👩‍👧", "🇯🇵", "é"]
    static let keys = [
        "\u{01}", "\u{05}", "\u{02}", "\u{06}",  // ^A ^E ^B ^F
        "\u{1B}[D", "\u{1B}[C", "\u{1B}[A", "\u{1B}[B",  // arrows
        "\u{1B}b", "\u{1B}f",  // ESC b, ESC f: word motions
        "\u{17}", "\u{08}", "\u{7F}", "\u{0B}", "\u{15}", "\u{19}",  // ^W ^H DEL ^K ^U ^Y
        "\t",  // completion
    ]

    /// A random burst of keystrokes, never containing ^X (the test's own leave keys),
    /// ^C, ^D, ^Z, ^S, ^Q, ^\ or a newline.
    static func burst(_ random: inout SeededGenerator) -> String {
        var keystrokes = ""
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30: keystrokes += words.randomElement(using: &random)!
            case 30..<45: keystrokes += unicode.randomElement(using: &random)!
            case 45..<88: keystrokes += keys.randomElement(using: &random)!
            case 88..<93:  // ^R: an incremental search, ended by whatever key comes next
                keystrokes += "\u{12}" + words.randomElement(using: &random)!.trimmingCharacters(in: .whitespaces)
            default:  // a pasted block
                let pieces = (0..<Int.random(in: 10...60, using: &random)).map { _ in
                    Bool.random(using: &random)
                        ? String(UnicodeScalar(UInt8.random(in: 0x61...0x7A, using: &random)))
                        : unicode.randomElement(using: &random)!
                }
                keystrokes += pieces.joined()
            }
        }
        return keystrokes + "x"  // never end on a prefix key
    }

    /// The draft the last `saved` event for alice among these trace-file lines (JSON, one
    /// object a line) names: its text and its cursor, or nil when none of them saves alice's.
    static func savedDraft(in lines: some Sequence<Substring>) -> (text: String, cursor: Int)? {
        for line in lines.reversed() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "saved", object["key"] as? String == "privateMessage_alice",
                let text = object["text"] as? String, let cursor = object["cursor"] as? Int
            else { continue }
            return (text, cursor)
        }
        return nil
    }

    /// The trace file, read from where the last read stopped: the drafts are read there, whole,
    /// not off the screen, where draftline wraps its trace lines at the terminal's width.
    struct TraceReader {
        let path: String
        /// How many bytes earlier reads took: whole lines only.
        var offset = 0

        /// The draft the last `saved` event for alice written since the previous read names.
        mutating func savedDraft() throws -> (text: String, cursor: Int)? {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let end = data.lastIndex(of: UInt8(ascii: "\n")), end >= offset else { return nil }
            let lines = String(decoding: data[offset..<end], as: UTF8.self).split(separator: "\n")
            offset = end + 1
            return RandomKeystrokeTests.savedDraft(in: lines)
        }
    }

    @Test func leavingAndReturningAlwaysGivesBackTheSameLine() throws {
        let fixture = try Fixture()
        // The trace goes to the screen too (draftline's own lines, wrapped at 80 columns, under
        // random drafts), and the waits below look for its first words; the drafts are read
        // from the file.
        let tracePath = fixture.root + "/trace.jsonl"
        let terminal = try fixture.startTerminal(
            ["--trace", "--trace-file", tracePath], environment: ["NO_COLOR": "1"])
        var trace = TraceReader(path: tracePath)
        var random = SeededGenerator(seed: Self.seed)
        try terminal.waitForPrompt("draftline> ", timeout: 120, idle: 5)
        try terminal.send("/open alice\r")
        try terminal.waitForPrompt("alice> ", timeout: 120, idle: 5)
        var sent = 0
        var compared = 0
        for sequence in 0..<Self.sequences {
            let keys = Self.burst(&random)
            let context = "sequence \(sequence) (seed \(Self.seed)), keys \(keys.debugDescription)"
            do {
                try play(
                    keys, sequence: sequence, terminal: terminal, fixture: fixture, trace: &trace, random: &random,
                    sent: &sent, compared: &compared)
            } catch {
                throw PseudoTerminal.Failure(description: "\(context): \(error)")
            }
        }
        try terminal.send("\u{01}\u{0B}/quit\r")  // the edit line holds the draft: ^A ^K clear it first
        #expect(try terminal.waitForExit(timeout: 5) == .exited(0))
        #expect(sent > Self.sequences / 20, "too few sends to check the stored text")
        #expect(compared > Self.sequences / 2, "too few drafts left to compare")
    }

    /// One sequence: the keys, a leave key, back, and a comparison (or a send).
    func play(
        _ keys: String, sequence: Int, terminal: PseudoTerminal, fixture: Fixture, trace: inout TraceReader,
        random: inout SeededGenerator, sent: inout Int, compared: inout Int
    ) throws {
        do {  // one level deeper than needed: kept so the body reads as one block
            let context = "sequence \(sequence) (seed \(Self.seed)), keys \(keys.debugDescription)"
            try terminal.send(keys)
            // Leave with one of the three keys; wait for where it leads.
            let leave = ["p", "b", "o"].randomElement(using: &random)!
            try terminal.send("\u{18}" + leave)
            switch leave {
            case "p":
                try terminal.waitFor("── profile ──", timeout: 120, idle: 5)
                try terminal.waitForPrompt("profile alice> ", timeout: 120, idle: 5)
                try terminal.send("/back\r")
                try terminal.waitFor("── chat with Alice Chen (alice) ──", timeout: 120, idle: 5)
            case "b":
                try terminal.waitFor("home: /open", timeout: 120, idle: 5)
                try terminal.waitForPrompt("draftline> ", timeout: 120, idle: 5)
                try terminal.send("/open alice\r")
                try terminal.waitFor("── chat with Alice Chen (alice) ──", timeout: 120, idle: 5)
            default:
                try terminal.waitForPrompt("open chat with: ", timeout: 120, idle: 5)
                try terminal.send("alice\r")
                try terminal.waitFor("already in the chat with alice", timeout: 120, idle: 5)
            }
            try terminal.waitForPrompt("alice> ", timeout: 120, idle: 5)
            let expected = try trace.savedDraft()
            if expected != nil { compared += 1 }
            // Back in the chat: the edit line must hold exactly what was left. Only a draft
            // with no `/` is sent: one typed into the draft before is a command attempt there
            // still (the draft keeps the baseline it was typed into), and `//` sends one `/`.
            if let expected, !expected.text.contains("/"), !expected.text.allSatisfy(\.isWhitespace),
                Int.random(in: 0..<100, using: &random) < 15
            {
                try terminal.send("\r")  // send it: the stored message is the edit line, byte for byte
                try terminal.waitFor("trace: removed privateMessage_alice (sending", timeout: 120, idle: 5)
                try terminal.waitForPrompt("alice> ", timeout: 120, idle: 5)
                sent += 1
                let stored = try #require(try fixture.messages(in: "alice").last, "\(context)")
                #expect(stored.content == expected.text, "\(context)")
            } else {
                try terminal.send("\u{18}p")  // leave again at once: the trace shows the edit line
                try terminal.waitFor("── profile ──", timeout: 120, idle: 5)
                try terminal.waitForPrompt("profile alice> ", timeout: 120, idle: 5)
                let twice = try trace.savedDraft()
                #expect(twice?.text == expected?.text, "\(context): text")
                #expect(twice?.cursor == expected?.cursor, "\(context): cursor")
                try terminal.send("/back\r")
                try terminal.waitFor("── chat with Alice Chen (alice) ──", timeout: 120, idle: 5)
                try terminal.waitForPrompt("alice> ", timeout: 120, idle: 5)
            }
        }
    }
}

@Suite("Reading the trace")
struct TraceParsingTests {
    @Test func savedDraftIsReadFromTraceFileLines() {
        let lines: [Substring] = [
            #"{"cursor":2,"event":"saved","key":"privateMessage_alice","text":"no"}"#,
            #"{"cursor":7,"event":"saved","key":"privateMessage_alice","text":"a \"b\" cursor 3"}"#,
            #"{"cursor":1,"event":"saved","key":"privateMessage_bob","text":"x"}"#,
            #"{"cursor":0,"event":"removed","key":"privateMessage_alice","text":"y"}"#,
        ]
        #expect(RandomKeystrokeTests.savedDraft(in: lines)?.text == "a \"b\" cursor 3")
        #expect(RandomKeystrokeTests.savedDraft(in: lines)?.cursor == 7)
        #expect(RandomKeystrokeTests.savedDraft(in: lines.suffix(2)) == nil)
    }
}
