import DraftKit
import DraftlineREPL
import Foundation

/// `--as KEY` must name someone the other side can `/open`: `me`, or a contact of the
/// data directory (the demo contacts and `contacts.plist`). Any other identity would make
/// chats that nobody else can open (SPEC §4: two processes are started as two people; §5:
/// an unknown user gets a clear message), so draftline refuses it, in one line that names
/// the users there are and how to add one. On a chat server (`--server`) it is not
/// asked: the identity is a nick, and the server says whether it can be had.
enum IdentityCheck {
    /// How many users the refusal names before it counts the rest.
    static let namesShown = 12

    /// Before anything is written: why `identity` cannot be used with the data directory
    /// at `path` (only read; one that is not there, `ENOENT`, has the demo contacts), or
    /// `nil` when it can or when its contacts cannot be read for any other reason (then
    /// opening the directory says why, in one line that names it, and
    /// ``problem(with:contacts:dataDirectory:)`` is asked again after it).
    static func problemBeforeOpening(with identity: GlobalKey, dataDirectory path: String) -> ProgramNotice? {
        guard needsContacts(identity) else { return nil }
        var book = ContactBook.load(directory: path)
        if let failure = book.readFailure, failure.operation == "open", failure.path == path, failure.refusal == nil,
            failure.code == ENOENT
        {
            book = ContactBook()
        }
        return book.problem == nil ? problem(with: identity, contacts: book, dataDirectory: path) : nil
    }

    /// Whether `identity` is one only the data directory's contacts can vouch for.
    static func needsContacts(_ identity: GlobalKey) -> Bool {
        identity != .me && !ContactBook.demo.contains { $0.key == identity }
    }

    /// Why `identity` is not a user of these contacts, or `nil` when it is.
    /// A contacts file that could not be read says so: it never makes `identity` unknown.
    static func problem(
        with identity: GlobalKey, contacts book: ContactBook, dataDirectory path: String
    ) -> ProgramNotice? {
        guard needsContacts(identity) else { return nil }
        do throws(FileError) {
            if let failure = book.readFailure { throw failure }
            guard try book.contact(identity) == nil else { return nil }
            // The first names and a count: never every contact read.
            let first = Set(try book.keys(startingWith: "", limit: namesShown) + [.me]).map(\.rawValue).sorted()
            let total = try book.count() + (try book.contact(.me) == nil ? 1 : 0)
            return .noSuchUser(
                identity, first: Array(first.prefix(namesShown)), total: total, problem: book.problem,
                dataDirectory: path)
        } catch {
            return .contactsUnreadable(identity, error)
        }
    }
}
