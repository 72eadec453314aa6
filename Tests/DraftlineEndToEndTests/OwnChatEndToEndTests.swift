import DraftlineTestSupport
import Foundation
import Testing

/// `/open` with one's own key: a chat has two people, so it is refused with one line, and
/// nothing is stored under a chat of one.
@Suite("Opening a chat with yourself")
struct OwnChatEndToEndTests {
    let fixture: Fixture

    init() throws { fixture = try Fixture() }

    @Test func openingYourOwnChatIsOneLineAndStoresNothing() throws {
        let result = try fixture.runPiped(
            "/open alice\nhello me\n/expect screen home\n\u{18}o\nalice\nbob\n/expect screen bob\n",
            arguments: ["--data-dir", fixture.dataDirectory, "--as", "alice"])
        let errors = result.error.split(separator: "\n").map(String.init)
        let refusal = "error: 'alice' is you: a chat has two people"
        // Once from /open, once from the ^X o prompt, which then asks again and takes bob.
        #expect(errors.filter { $0 == refusal }.count == 2, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("error: not sent 'hello me': no chat is open") })
        #expect(result.output.contains("ok: screen is home"))
        #expect(result.output.contains("ok: screen is bob"))
        #expect(!result.output.contains("chat with Alice Chen"))
        #expect(fixture.filesContaining("hello me").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.dataDirectory + "/chats/alice+alice"))
    }
}
