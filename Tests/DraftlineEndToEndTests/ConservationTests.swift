import DraftlineTestSupport
import Foundation
import Testing

/// SPEC §1a's law, tested as a law: random sequences of every key and command, on every
/// screen and prompt, in emacs and vi mode, through the real binary on a pseudo-terminal,
/// with another process sending meanwhile. After every event, every character the sequence
/// typed or pasted is in a message it meant to send, a draft, the undo stack or the edit
/// line (unless one of its editing keys deleted it, or it quit), and nothing was sent that
/// it did not enter as a message. See ``ConservationDriver``.
///
/// `CONSERVATION_SEQUENCES` (default 5000, shared between the two modes) and
/// `CONSERVATION_SEED` change the run.
@Suite("The law of conservation: text is never lost or sent by mistake")
struct ConservationTests {
    static let seed: UInt64 = {
        ProcessInfo.processInfo.environment["CONSERVATION_SEED"].flatMap { UInt64($0) } ?? 0xC0_5E7E
    }()
    static let sequences: (emacs: Int, vi: Int) = {
        let total = ProcessInfo.processInfo.environment["CONSERVATION_SEQUENCES"].flatMap { Int($0) } ?? 5000
        return (total * 3 / 5, total - total * 3 / 5)
    }()

    @Test func emacsMode() throws { try play(vi: false, seed: Self.seed, count: Self.sequences.emacs) }

    @Test func viMode() throws { try play(vi: true, seed: Self.seed ^ 0xFFFF, count: Self.sequences.vi) }

    func play(vi: Bool, seed: UInt64, count: Int) throws {
        let driver = try ConservationDriver(vi: vi, seed: seed)
        let started = PseudoTerminal.now()
        for _ in 0..<count { try driver.playSequence() }
        let seconds = PseudoTerminal.now() - started
        let counts = driver.tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            "conservation (\(vi ? "vi" : "emacs"), seed \(seed)): \(count) sequences in "
                + String(format: "%.1f", seconds)
                + " s; \(driver.sent.count) messages sent holding \(driver.sentTokens) tokens; tokens excused: "
                + "\(driver.excused); played: \(counts.joined(separator: ", "))")
        var expected = [
            "type", "paste", "arrival", "Backspace", "Up", "Enter", "command-into-line", "^Xp", "^Xb", "^Xo", "^X/",
            "Ctrl-C", "Ctrl-D", "name", "bad-name", "empty-name", "Ctrl-C-at-name", "prompt-command",
            "Ctrl-C-at-command", "^Xb-at-command", "fresh-command",
        ]
        expected += vi ? ["Escape", "x", "k", "h", "l", "i", "a"] : ["^R", "^A", "^K", "Left", "Right"]
        for entry in expected {
            #expect(
                driver.tally[entry, default: 0] >= count / 200,
                "\(entry) played \(driver.tally[entry, default: 0]) times")
        }
    }
}
