import DraftlineTestSupport
import Foundation
import Testing

/// How a line ends, on each screen and prompt; and what the sequence meant to send.
extension ConservationDriver {
    typealias Sent = (type: String, text: String)

    static let commands = [
        "/drafts", "/undo", "/discard", "/chats", "/history 2", "/open alice", "/open bob", "/back", "/profile",
        // unknown, mistyped, and usage errors: the line must come back whole
        "/drfts", "/history x", "/open nobody", "/open Not Valid", "/discard now", "/profile nobody",
    ]

    /// Ends the line; returns what the sequence means to send with it.
    func end() throws -> [Sent] {
        switch place {
        case .askingName: return try endName()
        case .askingCommand: return try endCommandPrompt()
        case .chat, .home, .profile: break
        }
        var roll = Int.random(in: 0..<100, using: &random)
        // Where no chat is open, mostly go to one.
        if case .chat = place {} else if pick(40) { roll = 99 }
        switch roll {
        case 0..<28:
            let meant = meantToSend(line.text)
            try press("\r", "Enter")
            return meant
        case 28..<45:
            try typeCommandIntoLine()
            let meant = meantToSend(line.text)
            try press("\r", "Enter")
            return meant
        case 45..<55:
            try press("\u{18}p", "^Xp")
        case 55..<65:
            try press("\u{18}b", "^Xb")
        case 65..<72:
            try press("\u{18}o", "^Xo")
        case 72..<78:
            try press("\u{18}/", "^X/")
        case 78..<90:
            try press("\u{3}", "Ctrl-C")
        case 90..<95:
            if !line.isEmpty { try clearLine() }
            try ctrlD()
        case 95..<98 where place != .home:
            // /attach on a fresh line: media for the draft.
            if !line.isEmpty { try clearLine() }
            try insertMode()
            try press("/attach \(attachment)\r", "/attach")
        default:
            if !line.isEmpty { try clearLine() }
            try insertMode()
            let command = ["/open alice", "/open bob", "/back", "/profile alice"].randomElement(using: &random)!
            try press(command + "\r", "fresh-command")
        }
        return []
    }

    /// Ctrl-D: on an empty line in insert mode.
    func ctrlD() throws {
        try insertMode()
        try press("\u{4}", "Ctrl-D")
    }

    /// In vi, back to insert mode (`i`) before typing text.
    func insertMode() throws {
        guard vi && commandMode else { return }
        try press("i", "i")
        commandMode = false
    }

    /// A command typed into the line at a random place (a restored draft, a line given
    /// back, or text typed now).
    func typeCommandIntoLine() throws {
        let placeAt = pick(80) ? boundary() : Int.random(in: 0...line.count, using: &random)
        let command = Self.commands.randomElement(using: &random)!
        if vi {
            if !commandMode { try press("\u{1B}", "Escape") }
            try press("0", "0")
            let steps = min(placeAt, max(0, line.count - 1))
            try press(String(repeating: "l", count: steps), "l× \(steps)")
            let append = placeAt > steps
            try press(append ? "a" : "i", append ? "a" : "i")
            line.cursor = append ? steps + 1 : steps
            commandMode = false
        } else {
            try press("\u{1}" + String(repeating: "\u{6}", count: placeAt), "move")
            line.cursor = placeAt
        }
        try press(command, "command-into-line")
        insert(command)
    }

    /// "open chat with:": a name (good, unknown, invalid), empty (cancels), Ctrl-C, Ctrl-D.
    func endName() throws -> [Sent] {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            if !line.isEmpty { try clearLine() }
            try insertMode()
            try press(["alice", "bob"].randomElement(using: &random)! + "\r", "name")
        case 2:
            try press("\r", "bad-name")  // what was typed: usually not a known user
        case 3:
            try press("\u{3}", "Ctrl-C-at-name")
        case 4:
            if !line.isEmpty { try clearLine() }
            try ctrlD()
        default:
            if !line.isEmpty { try clearLine() }
            try press("\r", "empty-name")
        }
        return []
    }

    /// "command: /": a command (good or not), Ctrl-C (the text goes on the undo stack),
    /// Ctrl-D, or a leave key.
    func endCommandPrompt() throws -> [Sent] {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            let command = String(Self.commands.randomElement(using: &random)!.dropFirst())
            try insertMode()
            try press(command, "prompt-command")
            insert(command)
            try press("\r", "Enter")
        case 2:
            try press("\u{3}", "Ctrl-C-at-command")
        case 3:
            if !line.isEmpty { try clearLine() }
            try ctrlD()
        case 4:
            try press("\u{18}b", "^Xb-at-command")
        default:
            try press("\r", "Enter")
        }
        return []
    }

    /// What Enter on this line sends, by SPEC §1a: nothing for a command (a line starting
    /// with `/`, or a `/` typed onto the line's baseline: the chat's draft as restored, or a
    /// line given back there to keep) or where no chat is open; else the draft's media,
    /// then the text unless it is blank (`//` sends one `/`).
    func meantToSend(_ text: String) -> [Sent] {
        guard case .chat(let user) = place else { return [] }
        if text.hasPrefix("/") && !text.hasPrefix("//") { return [] }
        let draft = observation.drafts.first { $0.key == "privateMessage_\(user)" }?.text
        let baseline =
            draft.flatMap { $0.isEmpty ? nil : $0.replacingOccurrences(of: "^J", with: "\n") }
            ?? (given.hasPrefix("/") ? "" : given)
        if !recalled, !baseline.isEmpty, let inserted = Self.insertion(in: text, given: baseline),
            inserted.contains(where: { typed in
                // Blanks typed before the `/` set the command apart.
                let command = typed.drop { $0 == " " || $0 == "\t" }
                return command.hasPrefix("/") && !command.hasPrefix("//")
            })
        {
            return []
        }
        var meant: [Sent] = Array(
            repeating: (type: "image", text: ""), count: observation.media(of: "privateMessage_\(user)"))
        let message = text.hasPrefix("//") ? String(text.dropFirst()) : text
        if !message.allSatisfy(\.isWhitespace) { meant.append((type: "text", text: message)) }
        return meant
    }

    /// When `text` is `given` with one contiguous insertion: what could have been inserted,
    /// at every place it could have gone.
    static func insertion(in text: String, given: String) -> [String]? {
        let old = Array(given.unicodeScalars)
        let new = Array(text.unicodeScalars)
        let extra = new.count - old.count
        guard extra > 0 else { return nil }
        var prefix = 0
        while prefix < old.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        guard old.count - suffix <= prefix else { return nil }
        return ((old.count - suffix)...prefix).map { place in
            String(String.UnicodeScalarView(new[place..<place + extra]))
        }
    }

    /// Quits (Ctrl-D until it ends: a prompt cancels first, drafts warn first), then
    /// starts draftline again. Only a Ctrl-D that is the very next key after the warning
    /// quits, and looking (`^X d`) is a key: after a warning, the driver looks (and checks),
    /// presses Ctrl-D (which warns again: the look carried on), then the very next Ctrl-D.
    func quit() throws {
        for _ in 0..<3 {
            if !line.isEmpty { try clearLine() }
            try ctrlD()
            guard let read = try terminal.waitForAny(["\u{1B}[?2004h"], timeout: 30) else {
                try check(expecting: [])
                return try restart()
            }
            try beginRead()
            try check(expecting: [])
            guard read.before.contains("would be forgotten") else { continue }
            try ctrlD()
            guard try terminal.waitForAny(["would be forgotten"], timeout: 30) != nil, try waitForRead() else {
                throw failure("a Ctrl-D after a look at the drafts did not warn again; \(context)")
            }
            try ctrlD()
            guard try waitForRead() else {
                try check(expecting: [])
                return try restart()
            }
            throw failure("the Ctrl-D right after the quit warning did not quit; \(context)")
        }
        throw failure("three Ctrl-D on an empty line did not quit; \(context)")
    }

    /// draftline ended: its drafts and undo stack are forgotten; start it again.
    func restart() throws {
        #expect(try terminal.waitForExit() == .exited(0), "\(context)")
        forgetUnsent()
        terminal = try Self.start(fixture, vi: vi, trace: traceFile)
        guard try waitForRead() else { throw failure("draftline did not start again") }
        try beginRead()
    }
}
