import DraftlineTestSupport
import Foundation
import Glibc
import ReferenceModel

/// The binary on a pipe: each step as the bytes of a piped line (SPEC §2 pipe mode: a line
/// is typed into the edit line, then Enter; `^X p`, `^X b`, `^X o`, `^X /`, Ctrl-C and Ctrl-D
/// as their bytes, ending the line; Ctrl-U, Ctrl-A/E/B/F and Ctrl-D inside a line as
/// editing keys; pastes as bracketed-paste bytes). What a pipe cannot say (a recall, vi's
/// keys) is said the way a pipe can, or not at all: this side's model is fed what was said.
final class PipeSide: Side {
    var process: PipedProcess!
    /// The last byte written was an editing key: a newline right after it is not Enter (the
    /// line goes on), so Enter is then an empty line.
    var afterEditingKey = false
    /// `CONSERVATION_TRACE=1`: every piped line's bytes written to the log too.
    static let trace = ProcessInfo.processInfo.environment["CONSERVATION_TRACE"] == "1"

    /// How many times the pipe was looked at, and pressed Enter again after a failed line.
    var looks = 0
    var entersAgain = 0
    /// The bytes of the piped line being written, the model where it started, and whether
    /// it holds a paste.
    var lineBytes = 0
    lazy var lineStart = model
    var pasteInLine = false

    /// `attachment`: the file the sequences attach (the terminal's).
    init(attachment: String) throws {
        try super.init(name: "pipe", onPipe: true, vi: false)
        model.attachable.insert(attachment)
        try start()
    }

    func start() throws {
        afterEditingKey = false
        lineBytes = 0
        pasteInLine = false
        lineStart = model
        process = try fixture.startPiped(["--trace-file", traceFile])
    }

    /// What a pipe can say of a step, as steps of its own model.
    func translate(_ step: ModelStep) -> [ModelStep] {
        let line = model.line
        switch step {
        case .escape, .viLeft: return [.left]
        case .viInsert, .redraw, .recall, .recallAndReturn, .downOnOwnLine, .down, .look: return []
        case .viAppend: return line.isEmpty ? [] : [.right]
        case .viRight: return line.cursor < line.count - 1 ? [.right] : []
        case .viHome: return [.home]
        case .viEnd: return line.isEmpty ? [] : [.end, .left]
        case .searchThenInterrupt: return [.interrupt]
        default: return [step]
        }
    }

    /// The bytes of one of this side's steps; a key that ends a line is followed by a
    /// newline, which is not Enter after it.
    func bytes(for step: ModelStep) -> String {
        let line = model.line
        switch step {
        case .type(let text): return text
        case .paste(let text):
            return "\u{1B}[200~" + text.replacingOccurrences(of: "\n", with: "\r") + "\u{1B}[201~"
        case .backspace(let count): return String(repeating: "\u{7F}", count: count)
        case .deleteUnder: return line.cursor < line.count ? "\u{4}" : ""
        case .killLine: return "\u{15}"
        case .killToEnd: return "\u{0B}"
        case .home: return "\u{1}"
        case .end: return "\u{5}"
        case .left: return "\u{2}"
        case .right: return "\u{6}"
        case .enter: return afterEditingKey ? "\n\n" : "\n"
        case .leave(let key): return "\u{18}" + key.rawValue + "\n"
        case .interrupt: return "\u{3}\n"
        case .endOfFile: return line.isEmpty || model.prompt != .none ? "\u{4}\n" : "\u{4}"
        default: return ""
        }
    }

    /// Plays a step as the pipe can say it. Returns what went wrong with the process itself.
    func play(_ step: ModelStep) throws -> String? {
        if step == .arrival {
            try arrive()
            return nil
        }
        for said in translate(step) {
            // Two pastes on one piped line would be one (a piped line is one burst: a paste
            // ends at its last ESC[201~): end the line first with keys that change nothing.
            if case .paste = said, pasteInLine {
                try say(nil, "\u{1}" + String(repeating: "\u{6}", count: model.line.cursor) + "\n")
            }
            try say(said, bytes(for: said))
            if case .paste = said { pasteInLine = true }
            if model.quit {
                guard (try? process.waitForExit(timeout: 10)) != nil else {
                    model.restart()
                    return "draftline did not quit"
                }
                model.restart()
                try start()
            }
        }
        return nil
    }

    /// Writes the bytes of a step and plays it on the model. A piped line over 64 KiB is
    /// refused whole by the line reader before it is typed (provenance's answer to D11): the
    /// model goes back to where the line started.
    func say(_ step: ModelStep?, _ bytes: String) throws {
        // A step with nothing to say did nothing (Backspace at the start, ^K at the end).
        guard !bytes.isEmpty else { return }
        if step == .enter && model.entersAgain && bytes == "\n" { entersAgain += 1 }
        if Self.trace { ConservationDriver.log?.write(Data("pipe \(bytes.debugDescription) on \(model.line)\n".utf8)) }
        try process.write(bytes)
        if let last = bytes.unicodeScalars.last {
            afterEditingKey = [0x01, 0x02, 0x04, 0x05, 0x06, 0x08, 0x0B, 0x15, 0x7F].contains(last.value)
        }
        guard let end = bytes.firstIndex(of: "\n") else {
            lineBytes += bytes.utf8.count
            if let step { model.apply(step) }
            return
        }
        lineBytes += bytes[..<end].utf8.count
        if lineBytes > ReferenceModel.lineLimit {
            model = lineStart
            // Enter after an editing key is an empty line of its own, after the refused one.
            if step == .enter && bytes.hasSuffix("\n\n") { model.apply(.enter) }
        } else if let step {
            model.apply(step)
        }
        lineBytes = 0
        lineStart = model
        pasteInLine = false
    }

    /// `/drafts` then `/expect screen`, typed into the line when it is the draft as restored
    /// (so that they change nothing); `nil` when the line is not (the pipe looks later).
    func look() throws -> Observation? {
        guard model.lineIsBaseline, !exited else { return nil }
        let expected = expectedPlace
        let check = "/expect screen " + expected
        looks += 1
        for text in ["/drafts", check] {
            try say(.type(text), text)
            try say(.enter, "\n")
        }
        // Line by line until the check answers; at a prompt the model did not expect, the
        // two lines are taken as a name (or a command) and the error says so.
        var before = ""
        var place = ""
        let deadline = PseudoTerminal.now() + 30
        while place.isEmpty {
            let row = try process.waitFor("\n", timeout: max(1, deadline - PseudoTerminal.now()))
            if let answer = row.range(of: "screen is ") {
                let rest = row[answer.upperBound...]
                place = rest.range(of: "; found ").map { String(rest[$0.upperBound...]) } ?? String(rest)
            } else if row.contains("'" + check + "'") {
                place = row.contains("global_key") ? "name" : "command"
            } else {
                before += row + "\n"
            }
        }
        try readSent()
        return Observation(listing: before, place: place)
    }

    /// Whether the process has ended (a zombie waiting to be reaped).
    var exited: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(end, offsetBy: 2)] == "Z"
    }

    /// After a disagreement: a fresh process and a fresh model (history and messages stay).
    func startAgain() throws {
        process.closeInput()
        if (try? process.waitForExit(timeout: 10)) == nil { kill(process.pid, SIGKILL) }
        try readSent()
        model.restart(sent: sent)
        try start()
    }

    var lastOutput: String { String(process.text.suffix(3000)) }
}
