import DraftlineTestSupport
import Foundation
import Testing

/// What a person reads about keys and commands through the binary: `/help` in 80
/// columns, and one key notation (`^X p`), traces included.
@Suite("Help and key names on a pipe")
struct HelpEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func helpFitsEightyColumns() throws {
        let result = try fixture.runPiped("/help\n")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count > 20)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines.contains { $0.hasPrefix("  ^X p  draftline-profile") })
    }

    @Test func theTraceNamesKeysAsTheScreensDo() throws {
        let result = try fixture.runPiped("/trace on\n/open alice\nlook\u{18}p\n/back\n\u{18}b\n")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("trace: saved privateMessage_alice (^X p (draftline-profile)) \"look\" cursor 4"))
        #expect(lines.contains("/back or ^X b returns"))
        #expect(!result.output.contains("^Xp") && !result.output.contains("^Xb"))
    }
}
