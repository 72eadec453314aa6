import DraftlineREPL
import DraftlineTestSupport
import Foundation

/// The alphabet: what a sequence can do, on every screen and prompt, in emacs and vi mode.
extension ConservationDriver {
    /// The screen or question the line is on, by its prompt.
    enum Place: Equatable {
        case home, chat(String), profile(String), askingName, askingCommand

        init(prompt: String) {
            switch prompt {
            case "alice> ": self = .chat("alice")
            case "bob> ": self = .chat("bob")
            case "profile alice> ": self = .profile("alice")
            case "profile bob> ": self = .profile("bob")
            case "open chat with: ": self = .askingName
            case "command: /": self = .askingCommand
            default: self = .home
            }
        }
    }

    var place: Place { Place(prompt: observation.prompt) }

    /// `CONSERVATION_VERIFY=1`: the line is checked against draftline's after every key
    /// (slower; for finding where the test's own tracking goes wrong).
    static let verifyEveryKey = ProcessInfo.processInfo.environment["CONSERVATION_VERIFY"] == "1"

    /// One sequence: one to three edit lines, each some editing then an ending key.
    func playSequence() throws {
        if !actions.isEmpty { earlier.append(actions) }
        if earlier.count > 3 { earlier.removeFirst() }
        actions = []
        sequences += 1
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard try playLine() else { return }
        }
    }

    /// Edits the line, ends it, checks the law. Returns false when draftline quit (and
    /// was started again).
    func playLine() throws -> Bool {
        // A command that failed is back in the line: usually the user clears it.
        if given.hasPrefix("/") && pick(70) { try clearLine() }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            try edit()
            if Self.verifyEveryKey { try verifyLine("after \(actions.last ?? "")") }
        }
        if pick(12) { try verifyLine("before the ending key") }
        // A full undo stack drops its oldest entry: quit before it gets there.
        let expected: [(type: String, text: String)]
        if observation.undo.count >= 15 {
            try clearLine()
            expected = []
            try quit()
            return false
        }
        expected = try end()
        guard try waitForRead() else {
            // draftline quit: nothing but what was meant may have been sent on the way.
            let fresh = try readSent()
            sent += fresh
            settleSent(fresh)
            guard fresh.count == expected.count && zip(fresh, expected).allSatisfy({ $0 == $1 }) else {
                throw failure("sent \(fresh) while quitting; \(context)")
            }
            try restart()
            return false
        }
        try beginRead()
        try check(expecting: expected)
        return true
    }

    // MARK: - Editing

    func edit() throws {
        if place == .askingName {
            // A name is not text to keep: type one, or move.
            let name = ["ali", "bo", "x"].randomElement(using: &random)!
            try insertMode()
            try press(name, "type-name")
            line.insert(name)
            return
        }
        if vi && commandMode {
            try viCommandKey()
            return
        }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40:
            let token = newToken()
            let text =
                (line.isEmpty || pick(30) ? "" : " ") + token
                + (pick(30) ? " " + Self.fillers.randomElement(using: &random)! : "")
            try press(text, "type")
            insert(text)
        case 40..<48: try paste()
        case 48..<52:
            bobSends()
        case 52..<62 where !vi: try emacsMotion()
        case 52..<62:
            try press("\u{1B}", "Escape")
            commandMode = true
            line.cursor = max(0, line.cursor - 1)
        case 62..<72: try deleteKey()
        case 72..<80: try recallUp()
        case 80..<85 where !vi: try recallSearch()
        default:
            let text = Self.fillers.randomElement(using: &random)!
            try press(text, "type-filler")
            insert(text)
        }
    }

    /// A bracketed paste of several lines with tokens; sometimes one that starts with `/`.
    func paste() throws {
        // One that starts with `/` only onto an empty line, where it is a command; pasted into
        // text it would be text (SPEC §1a, "a paste is text"), which this driver's model of
        // the line does not track.
        var text = pick(10) && line.isEmpty ? "/etc/" : ""
        for index in 0..<Int.random(in: 1...3, using: &random) {
            if index > 0 { text += "\n" }
            text += newToken()
        }
        // The terminal sends a paste's line ends as CR.
        let bytes = "\u{1B}[200~" + text.replacingOccurrences(of: "\n", with: "\r") + "\u{1B}[201~"
        try press(bytes, "paste")
        insert(text)
        // A paste ends at the last end marker of its burst: keys sent at once after it, with
        // no pause, would be in the same burst, and the next paste's end would make them
        // text. A look at the line (keys of their own, after the paste's end) ends the burst.
        try verifyLine("after a paste")
    }

    /// The other side sends a message: it arrives above the line, which stays as it is.
    func bobSends() {
        arrivals += 1
        actions.append("arrival")
        tally["arrival", default: 0] += 1
        try? bob.write("arrival \(arrivals)\n")
    }

    func emacsMotion() throws {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            try press("\u{1}", "^A")
            line.cursor = 0
        case 1:
            try press("\u{5}", "^E")
            line.cursor = line.count
        case 2:
            try press("\u{2}", "^B")
            line.cursor = max(0, line.cursor - 1)
        case 3:
            try press("\u{6}", "^F")
            line.cursor = min(line.count, line.cursor + 1)
        case 4:
            try press("\u{1B}[D", "Left")
            line.cursor = max(0, line.cursor - 1)
        default:
            try press("\u{1B}[C", "Right")
            line.cursor = min(line.count, line.cursor + 1)
        }
    }

    /// Keys in vi's command mode: motion, `x`, `k` (recall), back to insert mode.
    func viCommandKey() throws {
        let count = line.count
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            try press("h", "h")
            line.cursor = max(0, line.cursor - 1)
        case 1:
            try press("l", "l")
            if line.cursor < count - 1 { line.cursor += 1 }
        case 2:
            try press("0", "0")
            line.cursor = 0
        case 3 where count > 0:
            try press("$", "$")
            line.cursor = count - 1
        case 4 where count > 0:
            let before = line.text
            try press("x", "x")
            _ = line.deleteUnder()
            deleted(from: before)
        case 5:
            try press("k", "k")
            try recalledSomething()
        case 6:
            try press("a", "a")
            if count > 0 { line.cursor += 1 }
            commandMode = false
        default:
            try press("i", "i")
            commandMode = false
        }
    }

    /// Backspace, or killing the line (`^U`) or its end (`^K`), in insert mode.
    func deleteKey() throws {
        let before = line.text
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
            try press("\u{7F}", "Backspace")
            _ = line.deleteBefore()
        case 6..<8 where !vi:
            try press("\u{0B}", "^K")
            _ = line.killToEnd()
        default:
            try clearLine()
        }
        deleted(from: before)
    }

    /// An empty line, by editing keys (`^U`; in vi, to the start, delete to the end, insert).
    func clearLine() throws {
        let before = line.text
        if vi {
            if !commandMode { try press("\u{1B}", "Escape") }
            try press("0Di", "clear")
            commandMode = false
        } else {
            try press("\u{15}", "^U")
        }
        _ = line.killLine()
        deleted(from: before)
    }

    /// The up arrow: the line is replaced by the last one entered (or stays, when there is
    /// none). What it held must still be accounted for.
    func recallUp() throws {
        try press("\u{1B}[A", "Up")
        try recalledSomething()
    }

    /// `^R` and part of a token of a sent message, then `^E`: the line is replaced by the
    /// newest line entered that holds it (or stays, when the line itself holds it).
    func recallSearch() throws {
        guard let target = sent.last(where: { $0.type == "text" && $0.text.contains("T") })?.text,
            let range = target.range(of: "T")
        else { return try recallUp() }
        let pattern = String(target[range.lowerBound...].prefix(4))
        // ^E accepts what the search found and ends the search, as a person does before
        // typing on: while the search runs, libedit may have matched inside the line itself
        // and moved the cursor there, which the draft map read during the search misreports.
        try press("\u{12}" + pattern + "\u{5}", "^R")
        try recalledSomething()
    }

    /// After a recall: the line is whatever history gave; the test takes it from draftline
    /// (its tokens are copies of sent ones).
    func recalledSomething() throws {
        let seen = try observe()
        // Only a recall that changed the line replaced anything.
        if seen.line != TerminalText.visible(line.text, keepNewlines: false) { recalled = true }
        observation = seen
        line = TrackedLine(seen.line.replacingOccurrences(of: "^J", with: "\n"), cursor: seen.cursor)
        // libedit's vi mode leaves a recall in command mode, at the start of the line.
        if vi { commandMode = true }
    }
}
