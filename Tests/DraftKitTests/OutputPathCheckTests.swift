import DraftlineTestSupport
import Foundation
import Glibc
import Testing

@testable import DraftKit

/// Where a file the user names may be written is never decided from a call that failed
/// (issue 29): a data directory that cannot be opened to be compared with the path is an
/// error naming it, not "nothing can be in it".
@Suite("An output path is checked against the data directory even when a call fails")
struct OutputPathCheckTests {
    let fixture: Fixture
    var data: String { fixture.dataDirectory }

    init() throws {
        fixture = try Fixture()
        _ = try PropertyListHistory(directory: data)
    }

    /// The plan that fails every `open` of the data directory itself with `EIO` (the
    /// path's own directory, `chats/`, opens).
    var dataDirectoryUnopenable: FaultPlan {
        FaultPlan([FaultPlan.Rule(failing: 0, with: EIO, onward: true, call: "open", pathSuffix: data)])
    }

    @Test func aPathInsideADataDirectoryThatCannotBeOpenedIsRefused() throws {
        let path = data + "/chats/export.plist"
        let checked = FaultPlan.withActive(dataDirectoryUnopenable) {
            () -> Result<OutputPath, OutputPathError> in
            do throws(OutputPathError) { return .success(try OutputPath(path, dataDirectory: data)) } catch {
                return .failure(error)
            }
        }
        guard case .failure(let error) = checked else {
            Issue.record("\(path) was taken as outside the data directory, which could not be opened")
            return
        }
        #expect(error.problem == .unplaceable(FileError("open", path: data, code: EIO)))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aDataDirectoryNotMadeYetHoldsNothing() throws {
        let missing = fixture.root + "/not-made"
        let output = try OutputPath(fixture.root + "/export.plist", dataDirectory: missing)
        #expect(output.path == fixture.root + "/export.plist")
    }
}
