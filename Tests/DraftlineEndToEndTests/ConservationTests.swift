import DraftlineTestSupport
import Foundation
import Testing

/// SPEC §1a's law, held to a reference model written apart from the code
/// (Tests/ReferenceModel): random sequences of every key and command, on every screen and
/// prompt, in emacs and vi mode, with another process sending meanwhile, played through the
/// real binary on a pseudo-terminal and on a pipe. After every entry of the alphabet, what
/// each sent, every draft, the undo stack, the edit line and the screen are what the model
/// predicts. See ``ConservationDriver``.
///
/// `CONSERVATION_SEQUENCES` (default 1000, shared between the two modes) and
/// `CONSERVATION_SEED` change the run; `CONSERVATION_LOG=path` writes each disagreement
/// there as it is found; `CONSERVATION_FIRST=1` stops at the first. Every step is played:
/// none is left out as a known bug.
@Suite("The law of conservation: text is never lost or sent by mistake")
struct ConservationTests {
    static let seed: UInt64 = {
        ProcessInfo.processInfo.environment["CONSERVATION_SEED"].flatMap { UInt64($0) } ?? 0xC0_5E7E
    }()
    static let sequences: (emacs: Int, vi: Int) = {
        let total = ProcessInfo.processInfo.environment["CONSERVATION_SEQUENCES"].flatMap { Int($0) } ?? 1000
        return (total * 3 / 5, total - total * 3 / 5)
    }()

    /// `CONSERVATION_FIRST=1`: stop at the first disagreement (to time how fast one is found).
    static let stopAtFirst = ProcessInfo.processInfo.environment["CONSERVATION_FIRST"] == "1"

    @Test func emacsMode() throws { try play(vi: false, seed: Self.seed, count: Self.sequences.emacs) }

    @Test func viMode() throws { try play(vi: true, seed: Self.seed ^ 0xFFFF, count: Self.sequences.vi) }

    func play(vi: Bool, seed: UInt64, count: Int) throws {
        let driver = try ConservationDriver(vi: vi, seed: seed)
        for _ in 0..<count {
            try driver.playSequence()
            if Self.stopAtFirst && !driver.disagreements.isEmpty { break }
        }
        let seconds = PseudoTerminal.now() - driver.started
        let stored = try driver.storedMessagesAgree()
        let counts = driver.tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            "conservation (\(vi ? "vi" : "emacs"), seed \(seed)): \(driver.sequences) sequences in "
                + String(format: "%.1f", seconds) + " s; sent \(driver.terminal.sent.count) on the terminal, "
                + "\(driver.pipe.sent.count) on the pipe (looked at \(driver.pipe.looks) times, "
                + "Enter again after an error \(driver.pipe.entersAgain) times); "
                + "\(driver.disagreements.count) disagreements; played: "
                + counts.joined(separator: ", "))
        let slowest = driver.seconds.sorted { $0.value > $1.value }.prefix(5)
        print(
            "slowest entries: "
                + slowest.map { "\($0.key) \(String(format: "%.1f", $0.value)) s" }.joined(separator: ", "))
        for disagreement in driver.disagreements.prefix(40) { print("disagreement: \(disagreement)") }
        #expect(stored.isEmpty, "\(stored)")
        #expect(driver.disagreements.isEmpty, "\(driver.disagreements.count) disagreements with the model")
        var expected = [
            "type", "paste", "paste-slash", "paste-early-end", "paste-paste", "arrival", "Backspace", "Up", "Up-Down",
            "Down", "Enter",
            "Enter-again", "edit-typed-part", "command-into-line", "^Xp", "^Xb", "^Xo", "^X/", "Ctrl-C", "Ctrl-D",
            "name", "bad-name", "empty-name", "Ctrl-C-at-name", "prompt-command", "Ctrl-C-at-command",
            "^Xb-at-command", "fresh-command", "Ctrl-L",
        ]
        expected += vi ? ["Escape", "x", "k", "h", "l", "i", "a"] : ["^R", "^R-Ctrl-C", "^A", "^K", "Left", "Right"]
        if !Self.stopAtFirst {
            #expect(driver.pipe.entersAgain >= count / 200, "Enter again on the pipe \(driver.pipe.entersAgain) times")
        }
        for entry in expected where !Self.stopAtFirst {
            #expect(
                driver.tally[entry, default: 0] >= count / 200,
                "\(entry) played \(driver.tally[entry, default: 0]) times")
        }
    }
}
