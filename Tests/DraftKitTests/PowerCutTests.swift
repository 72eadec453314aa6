import DraftlineTestSupport
import Foundation
import Glibc
import Testing

@testable import DraftKit

/// What a power cut would lose: each storing operation runs with its calls recorded
/// (``FaultPlan``), and the trace is played against a disk that keeps only what was synced
/// (SQLite's crash tests ask the same of a store). When the operation returns (the message
/// is shown as sent, the import or export says it is done), every data file written is
/// synced (`fsync`, `fdatasync`, `syncfs`) and every name made or renamed in a data
/// directory is synced in its directory; a file renamed over data was synced first; and
/// `format` is renamed into place only once the upgrade's moves are synced. Caches (`count`,
/// `last`, `recent`, the journal, `contacts.index`) and `tmp/` are not data.
@Suite("What a power cut would lose")
struct PowerCutTests {
    /// A disk that keeps what was synced: the trace played call by call.
    struct Disk {
        /// The data directory.
        let root: String
        /// Files outside it that are data (an export).
        var outputs: Set<String> = []
        /// A bulk load (an import), which syncs once at its end: a new file it renames into
        /// place before that need not be synced first, one it renames over data must.
        var bulk = false
        /// Files and directories there before, or made since.
        var existing: Set<String> = []
        /// Files written since their last sync, with the call that wrote them.
        var unsyncedData: [String: Int] = [:]
        /// Names made, renamed or removed in a directory since its last sync.
        var unsyncedNames: [String: Set<String>] = [:]
        /// What a power cut would lose, in words.
        var problems: [String] = []
        /// A file made without a name (`O_TMPFILE`) whose writes are not yet seen: its
        /// descriptor names the destination, so its first write tells under which path.
        var awaitingUnnamed = false
        /// The path the unnamed file's writes and syncs are traced under, until `linkat`
        /// names it.
        var unnamed: String?

        init(root: String, outputs: Set<String> = [], bulk: Bool = false) {
            self.root = root
            self.outputs = outputs
            self.bulk = bulk
            existing = Set(
                (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).map { root + "/" + $0 })
            existing.formUnion(outputs.filter { FileManager.default.fileExists(atPath: $0) })
        }

        /// Whether losing the file (or the name) loses data: the data directory itself, the
        /// chats' directories and segments, `format`, `runs`, the edit line's history, an
        /// export.
        func isData(_ path: String) -> Bool {
            // The data directory's own name in its parent: losing it loses everything.
            if outputs.contains(path) || path == root { return true }
            guard path.hasPrefix(root + "/") else { return false }
            let parts = path.dropFirst(root.count + 1).split(separator: "/").map(String.init)
            let kinds = ["chats", "threads"]
            switch parts.count {
            case 1: return (kinds + ["format", "runs"]).contains(parts[0]) || parts[0].hasPrefix("line-history.")
            case 2: return kinds.contains(parts[0])
            case 3: return kinds.contains(parts[0]) && SegmentIndex.number(parts[2]) != nil
            default: return false
            }
        }

        static func split(_ path: String) -> (directory: String, name: String) {
            let slash = path.lastIndex(of: "/") ?? path.startIndex
            return (String(path[..<slash]), String(path[path.index(after: slash)...]))
        }

        mutating func changed(_ path: String) {
            let (directory, name) = Self.split(path)
            unsyncedNames[directory, default: []].insert(name)
        }

        /// One call, as the trace recorded it; calls that failed changed nothing.
        mutating func play(_ call: FaultPlan.Entry) {
            guard call.result != -1 else { return }
            switch call.name {
            case "write":
                if awaitingUnnamed {
                    awaitingUnnamed = false
                    unnamed = call.path
                }
                unsyncedData[call.path] = call.index
            case "linkat":
                // The unnamed file gets its name: what it holds unsynced goes with it.
                if let unnamed { unsyncedData[call.path] = unsyncedData.removeValue(forKey: unnamed) }
                unnamed = nil
                changed(call.path)
                existing.insert(call.path)
            case "fsync", "fdatasync":
                unsyncedData[call.path] = nil
                unsyncedNames[call.path] = nil
            case "syncfs":
                unsyncedData = [:]
                unsyncedNames = [:]
            case "renameat":
                let (target, source) = (call.path, call.other)
                if isData(target), let written = unsyncedData[source], !bulk || existing.contains(target) {
                    problems.append(
                        "call \(call.index) renamed \(source) over \(target), written at \(written) and not synced")
                }
                if target == root + "/format" {
                    for kind in ["chats", "threads"] where !(unsyncedNames[root + "/" + kind] ?? []).isEmpty {
                        problems.append("call \(call.index) stamped format before \(kind)/ was synced")
                    }
                }
                unsyncedData[target] = unsyncedData.removeValue(forKey: source)
                changed(target)
                changed(source)
                existing.remove(source)
                existing.insert(target)
            case "mkdir", "mkdirat", "symlinkat":
                changed(call.path)
                existing.insert(call.path)
            case "unlinkat":
                changed(call.path)
                existing.remove(call.path)
            case "open", "openat":
                if call.flags & 0o20_000_000 != 0 && call.flags & O_DIRECTORY != 0 {
                    awaitingUnnamed = true
                    break
                }
                guard call.flags & O_CREAT != 0 else { break }
                if !existing.contains(call.path) { changed(call.path) }
                existing.insert(call.path)
            default:
                break
            }
        }

        /// The operation returned: what a power cut now would lose.
        mutating func acknowledge(_ what: String) {
            for (path, written) in unsyncedData.sorted(by: { $0.key < $1.key }) where isData(path) {
                problems.append("\(what): \(path), written at call \(written), not synced")
            }
            for (directory, names) in unsyncedNames.sorted(by: { $0.key < $1.key }) {
                for name in names.sorted() where isData(directory + "/" + name) {
                    problems.append("\(what): the name \(name) in \(directory) not synced")
                }
            }
        }
    }

    /// Runs `body` with its calls recorded, plays them on a disk, acknowledges at the end;
    /// what a power cut would lose.
    static func powerCut(
        _ what: String, root: String, outputs: Set<String> = [], bulk: Bool = false, _ body: () throws -> Void
    ) throws -> [String] {
        var disk = Disk(root: root, outputs: outputs, bulk: bulk)
        let plan = FaultPlan(recording: true)
        try FaultPlan.withActive(plan) { () throws in try body() }
        #expect(plan.count > 0, "\(what) made no call through the layer")
        for call in plan.trace { disk.play(call) }
        disk.acknowledge(what)
        return disk.problems
    }

    let fixture: Fixture
    var data: String { fixture.dataDirectory }
    let alice = ChatID("alice")!

    init() throws { fixture = try Fixture() }

    func message(_ text: String) -> Message {
        Message(
            chatID: "alice", messageID: text, content: text, target: "alice", sentAt: Date(timeIntervalSince1970: 1))
    }

    @Test func aFirstSendIntoANewDataDirectory() throws {
        var history: PropertyListHistory?
        let problems = try Self.powerCut("a first send", root: data) {
            history = try PropertyListHistory(directory: data)
            try history?.append(message("first"), to: alice)
        }
        #expect(problems == [])
    }

    /// A data directory one of whose folders is missing (removed while empty): it is made
    /// again at opening, and its name synced in the data directory before a send into it
    /// returns (``HistoryDirectories``' sync of the root; no `format` is written to cover it).
    @Test func aSendIntoAFolderMadeAgainAtOpening() throws {
        _ = try PropertyListHistory(directory: data)
        #expect(rmdir(data + "/chats") == 0)
        var history: PropertyListHistory?
        let problems = try Self.powerCut("a send into a folder made again", root: data) {
            history = try PropertyListHistory(directory: data)
            try history?.append(message("first"), to: alice)
        }
        #expect(problems == [])
    }

    @Test func aSendThatExtendsTheLastSegment() throws {
        let history = try PropertyListHistory(directory: data)
        try history.append(message("one"), to: alice)
        #expect(try Self.powerCut("a send", root: data) { try history.append(message("two"), to: alice) } == [])
    }

    @Test func aSendThatStartsASegment() throws {
        let history = try PropertyListHistory(directory: data, segmentCapacity: 2)
        for text in ["one", "two"] { try history.append(message(text), to: alice) }
        #expect(try Self.powerCut("a send", root: data) { try history.append(message("three"), to: alice) } == [])
        #expect(try history.lastSegment(of: alice) == 1)
    }

    /// An import into a new chat, and into one whose segment cannot be extended in place
    /// (XML, as another writer may leave it: the bulk load writes it anew over messages
    /// stored before).
    @Test func anImportSyncsOnceAndNeverRenamesOverUnsyncedData() throws {
        try FileManager.default.createDirectory(atPath: data + "/chats/alice", withIntermediateDirectories: true)
        let earlier: [[String: Any]] = [["chatID": "alice", "messageID": "earlier", "content": "earlier"]]
        try PropertyListSerialization.data(fromPropertyList: earlier, format: .xml, options: 0).write(
            to: URL(fileURLWithPath: data + "/chats/alice/00000000.plist"))
        let history = try PropertyListHistory(directory: data)
        let bob = ChatID("bob")!
        let problems = try Self.powerCut("an import", root: data, bulk: true) {
            try history.appendAll((0..<3).map { message("new \($0)") }, to: alice, durable: false, announce: false)
            try history.appendAll((0..<3).map { message("bob \($0)") }, to: bob, durable: false, announce: false)
            try history.commit()
        }
        #expect(problems == [])
        #expect(try history.allMessages(in: alice).value.map(\.content) == ["earlier", "new 0", "new 1", "new 2"])
    }

    @Test func anExport() throws {
        let history = try PropertyListHistory(directory: data)
        try history.append(message("one"), to: alice)
        let file = fixture.root + "/export.plist"
        let output = try OutputPath(file, dataDirectory: data)
        let problems = try Self.powerCut("an export", root: data, outputs: [file]) {
            _ = try HistoryTransfer(history: history).export(to: output)
        }
        #expect(problems == [])
    }

    @Test func aLayoutUpgrade() throws {
        try fixture.writeSegment([message("thread")], chat: "tweet_1", number: 0)
        try fixture.writeSegment([message("alice")], chat: "alice", number: 0)
        let problems = try Self.powerCut("an upgrade", root: data) { _ = try PropertyListHistory(directory: data) }
        #expect(problems == [])
        #expect(FileManager.default.fileExists(atPath: data + "/threads/tweet_1/00000000.plist"))
    }

    @Test func aTornSegmentRepairedOnRead() throws {
        let history = try PropertyListHistory(directory: data)
        for text in ["one", "two"] { try history.append(message(text), to: alice) }
        try fixture.append(Data([0x01, 0x02, 0x03]), to: "chats/alice/00000000.plist")
        var read = 0
        let problems = try Self.powerCut("a repair", root: data) {
            read = try PropertyListHistory(directory: data).allMessages(in: alice).value.count
        }
        #expect(read == 2)
        #expect(problems == [])
    }

    @Test func aRunNumberAndTheEditLinesHistory() throws {
        let directory = try DataDirectory(path: data)
        let problems = try Self.powerCut("a run and a line", root: data) {
            _ = try directory.history.claimRun()
            try directory.lineHistory(for: .me).append("a line")
        }
        #expect(problems == [])
    }

    /// The disk catches what it must: a send whose `fdatasync` is skipped, a segment renamed
    /// before its sync, an upgrade stamped before its moves were synced.
    @Test func theDiskSeesWhatAMissingSyncWouldLose() {
        let root = "/d"
        func call(_ index: Int, _ name: String, _ path: String, other: String = "") -> FaultPlan.Entry {
            FaultPlan.Entry(index: index, name: name, path: path, flags: 0, other: other, failed: 0)
        }
        var disk = Disk(root: root)
        disk.play(call(0, "write", "/d/chats/alice/00000000.plist"))
        disk.acknowledge("a send")
        #expect(disk.problems.count == 1)
        disk = Disk(root: root)
        disk.play(call(0, "write", "/d/tmp/1.tmp"))
        disk.play(call(1, "renameat", "/d/chats/alice/00000001.plist", other: "/d/tmp/1.tmp"))
        disk.play(call(2, "fsync", "/d/chats/alice"))
        disk.acknowledge("a send")
        // Renamed before its sync, and its data not synced when the send returned.
        #expect(disk.problems.count == 2)
        disk = Disk(root: root)
        disk.play(call(0, "renameat", "/d/threads/tweet_1", other: "/d/chats/tweet_1"))
        disk.play(call(1, "fsync", "/d/threads"))
        disk.play(call(2, "renameat", "/d/format", other: "/d/tmp/2.tmp"))
        #expect(disk.problems == ["call 2 stamped format before chats/ was synced"])
    }
}
