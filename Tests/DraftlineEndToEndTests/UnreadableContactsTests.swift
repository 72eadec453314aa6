import DraftKit
import DraftlineTestSupport
import Foundation
import Testing

/// Who is a user is never decided from a read that failed (issue 29: nothing concludes
/// "absent" or "not a contact" from a failed read): a data directory that cannot be looked
/// at is not taken for a missing one, and a `contacts.index` whose `pread` fails is an
/// error that names it, not "no such user". Run through the binary on pipes, the failures
/// made by the one layer that calls C (`DRAFTLINE_FAULTS`) or by the file system itself.
@Suite("Contacts that cannot be read are an error, never an unknown user")
struct UnreadableContactsTests {
    let fixture: Fixture
    var data: String { fixture.dataDirectory }

    init() throws {
        fixture = try Fixture()
        try fixture.writeContacts(["zed"], into: data)
        // The first run builds contacts.index beside contacts.plist.
        let made = try fixture.runPiped("/open alice\nhello\n", arguments: ["--data-dir", data, "--as", "zed"])
        guard made.status == 0, FileManager.default.fileExists(atPath: data + "/contacts.index") else {
            throw PseudoTerminal.Failure(description: "setup: \(made.error)")
        }
    }

    /// Runs draftline on the data directory with the third `pread` of `contacts.index`
    /// failing with `EIO`: the first two read its header line when it is opened, the
    /// third is the first lookup of a key.
    func indexUnreadable(_ input: String, _ arguments: [String]) throws -> (status: Int32, error: String) {
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", data] + arguments,
            environment: fixture.environment(["DRAFTLINE_FAULTS": "fail=2:EIO:pread:\(data)/contacts.index"]),
            input: Data(input.utf8), timeout: 60)
        return (result.status, String(decoding: result.error, as: UTF8.self))
    }

    @Test func anIdentityWhoseContactsCannotBeReadIsNotCalledUnknown() throws {
        let result = try indexUnreadable("/open alice\nnot stored\n", ["--as", "zed"])
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(result.error.contains("could not read \(data)/contacts.index: pread: Input/output error"))
        #expect(!result.error.contains("no such user"), "\(result.error)")
        #expect(result.status != 0)
        #expect(try fixture.messages(in: "alice+zed").map(\.content) == ["hello"])
        // The next clean run is zed again.
        let next = try fixture.runPiped("/open alice\nagain\n", arguments: ["--data-dir", data, "--as", "zed"])
        #expect(next.status == 0, "\(next.error)")
        #expect(try fixture.messages(in: "alice+zed").map(\.content) == ["hello", "again"])
    }

    @Test func openingAContactWhoseIndexCannotBeReadSaysSoAndNotNoSuchUser() throws {
        let result = try indexUnreadable("/open zed\n", [])
        #expect(result.error.contains("could not read \(data)/contacts.index: pread: Input/output error"))
        #expect(!result.error.contains("no user 'zed'"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }

    /// Tab over contacts that cannot be read says so in one line naming the
    /// index, above the edit line, which keeps what was typed: it never silently offers no
    /// one. (Every `pread` of the index from the first lookup on fails with `EIO`.)
    @Test func tabOverContactsThatCannotBeReadSaysWhy() throws {
        let terminal = try fixture.startTerminal(
            environment: ["NO_COLOR": "1", "DRAFTLINE_FAULTS": "fail=2+:EIO:pread:\(data)/contacts.index"],
            columns: 250)
        try terminal.waitForPrompt("draftline> ", timeout: 60)
        try terminal.send("/open ze\t")
        try terminal.waitFor("could not read \(data)/contacts.index: pread: Input/output error")
        try terminal.waitFor("draftline> /open ze")
        #expect(terminal.text.components(separatedBy: "\r\n").filter { $0.contains("contacts.index") }.count == 1)
        try terminal.send("\u{15}")
        #expect(try terminal.quit() == .exited(0))
    }

    /// Someone who is no contact but whose private chat holds history (brought in by an
    /// import) is known by that history: when it cannot be read, that is said, naming the
    /// chat's folder, never "no user" (`Session.checkKnown` took a failed read for none).
    @Test func aUserKnownByAChatWhoseHistoryCannotBeReadIsNotCalledUnknown() throws {
        let chat = "yves+zed"
        try fixture.writeSegment(
            [Message(chatID: chat, messageID: "i1", content: "imported", target: "zed", sender: "yves")], chat: chat,
            number: 0)
        let clean = try fixture.runPiped("/open yves\n", arguments: ["--data-dir", data, "--as", "zed"])
        #expect(clean.status == 0 && clean.error.isEmpty, "\(clean.error)")
        let folder = "\(data)/chats/\(chat)"
        let result = try Fixture.run(
            Fixture.executable, arguments: ["--data-dir", data, "--as", "zed"],
            environment: fixture.environment(["DRAFTLINE_FAULTS": "fail=0+:EIO:openat:\(folder)"]),
            input: Data("/open yves\n".utf8), timeout: 60)
        let error = String(decoding: result.error, as: UTF8.self)
        #expect(error.split(separator: "\n").count == 1, "\(error)")
        #expect(error.contains(folder) && error.contains(String(cString: strerror(EIO))), "\(error)")
        #expect(!error.contains("no user 'yves'"), "\(error)")
        // The next clean run opens the chat and sends into it.
        let next = try fixture.runPiped("/open yves\nafter\n", arguments: ["--data-dir", data, "--as", "zed"])
        #expect(next.status == 0, "\(next.error)")
        #expect(try fixture.messages(in: chat).map(\.content) == ["imported", "after"])
    }

    @Test func aDataDirectoryThatCannotBeLookedAtIsNotTakenForAMissingOne() throws {
        // A name that stat cannot follow (ELOOP): not ENOENT, so not "no directory".
        let loop = fixture.root + "/loop"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop")
        let result = try fixture.runPiped("/open alice\nhello\n", arguments: ["--data-dir", loop, "--as", "zed"])
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(lines.first?.contains(loop) == true, "\(result.error)")
        #expect(result.error.contains(String(cString: strerror(ELOOP))), "\(result.error)")
        #expect(!result.error.contains("no such user"), "\(result.error)")
        #expect(result.status != 0)
    }
}
