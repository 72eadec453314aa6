import DraftKit
import DraftlineTestSupport
import Foundation
import Glibc
import ProgramDriver
import Testing

/// The storage's anomaly sweep, in the manner of SQLite's I/O-error tests: the real binary
/// runs a scenario once with a trace of every storage call it makes (`DRAFTLINE_FAULTS`,
/// ``FaultPlan``), then once for each call with that one call failing — the call itself
/// replaced by the failure, in the one layer that calls C (``Syscall``). After each run,
/// Python's `plistlib` reads the data directory: every earlier message is there exactly
/// once and in order, a message shown as sent is there once, one that was not is not; the
/// exit status and the one line agree with that; then a clean run opens the chat, shows it
/// and sends, and `plistlib` reads it again.
///
/// `make test` fails every call with `EIO`, every fifth with `EINTR` (which must change
/// nothing) and every call that can need space with `ENOSPC`. `STORAGE_SWEEP=full` fails
/// every call with each of `EIO`, `EINTR`, `ENOSPC`, `EAGAIN`, `EROFS`, `EDQUOT`, `EACCES`
/// and `EMFILE`. `STORAGE_SWEEP_SCENARIO=<word>` runs the scenarios whose name holds it.
///
/// Every run has one pinned clock, so the clean runs after a faulted run are judged once
/// for each directory faulted runs left (``CleanRuns``; `STORAGE_SWEEP_CLEAN=every` runs
/// them after every run), and the reader copies the template for each run: a run costs
/// the faulted process and, when it left a directory no run left before, the clean ones.
///
/// The scenarios run one after another, two runs at a time: the sweep keeps two cores busy,
/// never a dozen, so the timing of the suites that run beside it is not its to spoil.
@Suite("Every storage call failing once, with the real binary", .serialized)
struct StorageFaultSweepTests {
    /// Whether the full sweep runs (`STORAGE_SWEEP=full`).
    static let full = ProcessInfo.processInfo.environment["STORAGE_SWEEP"] == "full"

    // MARK: - Scenarios

    /// What one scenario runs and how its outcome is judged.
    struct Scenario: Sendable {
        enum Kind: Sendable {
            /// A message sent to a chat on a pipe: `/open <chat>`, then the text.
            case send(chat: String)
            /// `draftline import` of the template's `import.plist`.
            case importing
            /// A start on a directory of the first layout: `/chats`.
            case upgrade
            /// `draftline export` to the template's `out.plist` (which holds an older export).
            case export
        }

        let name: String
        let kind: Kind
        /// Calls its clean run must make, as `name:path-suffix` (alternatives split by `|`):
        /// what the scenario is about.
        let covers: [String]
        /// Makes the template: `<root>/data`, and the files the scenario needs beside it.
        let prepare: @Sendable (Fixture) throws -> Void
    }

    /// What the import scenario's file holds, by where each chat is kept: half of carol's
    /// again with fifty new, a new chat, and a thread.
    static let imported: [String: [String]] = [
        "chats/carol": (50..<150).map { "carol \($0)" }, "chats/dave": (0..<30).map { "dave \($0)" },
        "threads/tweet_5": (0..<10).map { "tweet 5 \($0)" },
    ]

    /// The text a send scenario sends while a call fails, and the one the clean run sends.
    static let sent = "sweep message"
    static let after = "after the fault"

    static let scenarios: [Scenario] = [
        Scenario(
            name: "a send into an appended chat", kind: .send(chat: "alice"),
            covers: ["fdatasync:/chats/alice/00000001.plist"]
        ) { fixture in
            try sendMessages((1...20).map { "alice \($0)" }, to: "alice", in: fixture)
        },
        Scenario(
            name: "a send into an imported chat", kind: .send(chat: "carol"),
            covers: ["renameat:/chats/carol/00000001.plist", "fsync:/chats/carol", "symlinkat:"]
        ) { fixture in
            try importMessages(["carol": (0..<100).map { "carol \($0)" }], in: fixture)
        },
        Scenario(
            name: "a send that rotates the journal and compacts the chat list", kind: .send(chat: "alice"),
            covers: ["renameat:/live/journal.1", "renameat:/data/recent"]
        ) { fixture in
            try sendMessages((1...20).map { "alice \($0)" }, to: "alice", in: fixture)
            // The journal one line short of its rotation, and a chat list's index past its
            // compaction: the send rotates the one and compacts the other.
            let journal = fixture.dataDirectory + "/live/journal"
            let size = (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0
            let line = "c\talice\t0\t0\t-\n"
            try fixture.append(
                Data(String(repeating: line, count: ((1 << 20) - size) / line.utf8.count - 1).utf8),
                to: "live/journal")
            // Long lines of one chat that is not there: few to parse, 264 KiB to compact.
            let entry = "c\t" + "ghost" + String(repeating: "x", count: 59) + "\t1000000000000\n"
            try fixture.append(
                Data(String(repeating: entry, count: 264 * 1024 / entry.utf8.count + 1).utf8), to: "recent")
        },
        Scenario(
            name: "an import into an existing directory", kind: .importing,
            covers: ["renameat:/threads/tweet_5/00000000.plist", "write:/chats/carol/00000000.plist", "syncfs:"]
        ) { fixture in
            try sendMessages((1...20).map { "alice \($0)" }, to: "alice", in: fixture)
            try importMessages(["carol": (0..<100).map { "carol \($0)" }], in: fixture)
            // Half of carol's again with fifty new, a new chat, and a thread.
            try writeChatLog(
                Dictionary(uniqueKeysWithValues: imported.map { (String($0.key.split(separator: "/")[1]), $0.value) }),
                to: fixture.root + "/import.plist", in: fixture)
        },
        Scenario(
            name: "a layout upgrade", kind: .upgrade,
            covers: [
                "renameat:/threads/tweet_1", "fsync:/data/threads", "renameat:/data/format", "renameat:/data/recent",
            ]
        ) { fixture in
            // The first layout: threads in chats/, no format, no chat list's index; tweet_9
            // is a contact's private chat, tweet_1 a thread.
            func segment(_ chat: String, _ texts: [String]) throws {
                try fixture.writeSegment(
                    texts.map {
                        Message(chatID: chat, messageID: $0, content: $0, sentAt: Date(timeIntervalSince1970: 1))
                    },
                    chat: chat, number: 0)
            }
            try segment("alice", (1...5).map { "alice \($0)" })
            try segment("tweet_1", (1...3).map { "tweet 1 \($0)" })
            try segment("tweet_9", (1...2).map { "tweet 9 \($0)" })
            try fixture.writeContacts(["tweet_9"], into: fixture.dataDirectory)
        },
        Scenario(name: "an export", kind: .export, covers: ["renameat:/out.plist", "fsync:/out.plist|fsync:.tmp"]) {
            fixture in
            try sendMessages((1...20).map { "alice \($0)" }, to: "alice", in: fixture)
            try importMessages(["carol": (0..<100).map { "carol \($0)" }], in: fixture)
            try sendMessages(["thread 1"], to: nil, in: fixture, opening: "/comment tweet 1")
            try writeChatLog(["old": ["old export"]], to: fixture.root + "/out.plist", in: fixture)
        },
    ]

    /// Sends `texts` through the binary (in `opening`'s chat, else `/open <chat>`).
    static func sendMessages(_ texts: [String], to chat: String?, in fixture: Fixture, opening: String? = nil) throws {
        let result = try fixture.runPiped(([opening ?? "/open \(chat ?? "")"] + texts).joined(separator: "\n") + "\n")
        guard result.status == 0, result.error.isEmpty else {
            throw PseudoTerminal.Failure(description: "making the template failed: \(result.error)")
        }
    }

    /// Imports chats of these texts through the binary.
    static func importMessages(_ chats: [String: [String]], in fixture: Fixture) throws {
        let file = fixture.root + "/template-import.plist"
        try writeChatLog(chats, to: file, in: fixture)
        let result = try fixture.runPiped("", arguments: ["import", file, "--data-dir", fixture.dataDirectory])
        try FileManager.default.removeItem(atPath: file)
        guard result.status == 0 else {
            throw PseudoTerminal.Failure(description: "making the template failed: \(result.error)")
        }
    }

    /// Writes a file in the original design's layout with `plistlib`: each text a message
    /// whose ID is the text.
    static func writeChatLog(_ chats: [String: [String]], to path: String, in fixture: Fixture) throws {
        let script = """
            import json, plistlib, sys
            chats = json.loads(sys.argv[2])
            log = {chat: [{"chatID": chat, "messageID": t, "content": t, "type": "text"} for t in texts]
                   for chat, texts in chats.items()}
            plistlib.dump(log, open(sys.argv[1], "wb"), fmt=plistlib.FMT_BINARY)
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: chats), as: UTF8.self)
        let result = try Fixture.run(
            "/usr/bin/env", arguments: ["python3", "-c", script, path, json], environment: fixture.environment(),
            timeout: 60)
        guard result.status == 0 else {
            throw PseudoTerminal.Failure(description: "plistlib: \(String(decoding: result.error, as: UTF8.self))")
        }
    }

    // MARK: - The independent reader

    /// What `plistlib` reads of a run: every chat's message texts in order, the files that
    /// did not parse, `format`, and the export file's chats.
    struct State: Equatable, Sendable {
        var chats: [String: [String]] = [:]
        var errors: [String] = []
        var format: String?
        var export: [String: [String]]?
        /// Files left in `tmp/` and beside the export.
        var leftovers: [String] = []
    }

    /// A Python process that reads data directories with `plistlib`, one a request: one for
    /// each worker, for the whole sweep.
    final class Reader {
        static let script = """
            import hashlib, json, os, plistlib, re, shutil, stat, sys
            def contents(path):
                with open(path, "rb") as f:
                    return plistlib.load(f)
            def digest(root):
                h = hashlib.sha256()
                for top, dirs, files in os.walk(root):
                    dirs.sort()
                    for name in sorted(dirs + files):
                        path = os.path.join(top, name)
                        info = os.lstat(path)
                        h.update(("%s\\0%o\\0" % (os.path.relpath(path, root), info.st_mode)).encode())
                        if stat.S_ISLNK(info.st_mode):
                            h.update(os.readlink(path).encode())
                        elif stat.S_ISREG(info.st_mode):
                            with open(path, "rb") as f:
                                h.update(f.read())
                        h.update(b"\\0")
                return h.hexdigest()
            for line in sys.stdin:
                request = line.rstrip("\\n").split("\\t")
                if request[0] == "copy":
                    shutil.rmtree(request[2], ignore_errors=True)
                    shutil.copytree(request[1], request[2], symlinks=True)
                    print("-- end --", flush=True)
                    continue
                root = request[0]
                data = os.path.join(root, "data")
                state = {"chats": {}, "errors": [], "format": None, "export": None, "leftovers": []}
                for kind in ("chats", "threads"):
                    base = os.path.join(data, kind)
                    if not os.path.isdir(base): continue
                    for chat in sorted(os.listdir(base)):
                        directory = os.path.join(base, chat)
                        if os.path.islink(directory) or not os.path.isdir(directory): continue
                        texts = []
                        for name in sorted(os.listdir(directory)):
                            if not re.fullmatch(r"\\d{8}\\.plist", name): continue
                            try:
                                texts += [m.get("content", "") for m in contents(os.path.join(directory, name))]
                            except Exception as e:
                                state["errors"].append("%s/%s/%s: %s" % (kind, chat, name, e))
                        state["chats"][kind + "/" + chat] = texts
                if os.path.isfile(os.path.join(data, "format")):
                    state["format"] = open(os.path.join(data, "format")).read().strip()
                out = os.path.join(root, "out.plist")
                if os.path.exists(out):
                    try:
                        state["export"] = {k: [m.get("content", "") for m in v]
                                           for k, v in contents(out).items() if isinstance(v, list)}
                    except Exception as e:
                        state["errors"].append("out.plist: %s" % e)
                tmp = os.path.join(data, "tmp")
                state["leftovers"] = (sorted(os.listdir(tmp)) if os.path.isdir(tmp) else []) + \\
                    [n for n in os.listdir(root) if n.endswith(".tmp")]
                state["digest"] = digest(root)
                print(json.dumps(state))
                print("-- end --", flush=True)
            """

        let process: PipedProcess

        init(fixture: Fixture) throws {
            process = try PipedProcess(
                executable: "/usr/bin/env", arguments: ["python3", "-u", "-c", Self.script],
                environment: fixture.environment())
        }

        /// The state of the run directory `root` (which holds `data`).
        func read(_ root: String) throws -> State { try look(at: root).state }

        /// The state of the run directory `root`, and a digest of every name, mode, link
        /// and byte under it: two runs that left the same digest left the same directory.
        func look(at root: String) throws -> (state: State, digest: String) {
            try process.write(root + "\n")
            let json = try process.waitFor("-- end --\n", timeout: 60)
            guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                throw PseudoTerminal.Failure(description: "the reader said: \(json)")
            }
            let state = State(
                chats: object["chats"] as? [String: [String]] ?? [:], errors: object["errors"] as? [String] ?? [],
                format: object["format"] as? String, export: object["export"] as? [String: [String]],
                leftovers: object["leftovers"] as? [String] ?? [])
            return (state, object["digest"] as? String ?? "")
        }

        /// Makes `target` a copy of `source` as it is (links, modes, times: `shutil.copytree`),
        /// removing what was there: no process started for it.
        func copy(_ source: String, to target: String) throws {
            try process.write("copy\t\(source)\t\(target)\n")
            _ = try process.waitFor("-- end --\n", timeout: 60)
        }
    }

    /// What the clean runs after a faulted run found, by what the faulted run left: the
    /// digest of its directory (and what was shown as sent). A clean run is the same
    /// program on the same bytes at the same pinned time, so a directory left as another
    /// run left it is judged once (most failing calls leave the directory as the first
    /// failure of their kind did). `STORAGE_SWEEP_CLEAN=every` runs them after every run.
    final class CleanRuns: @unchecked Sendable {
        // @unchecked: `found` is guarded by `lock`.
        private let lock = NSLock()
        private var found: [String: [String]] = [:]
        private(set) var reused = 0
        static let every = ProcessInfo.processInfo.environment["STORAGE_SWEEP_CLEAN"] == "every"

        /// The problems `judge` finds for `key`: found once, then given again.
        func problems(for key: String, _ judge: () throws -> [String]) rethrows -> [String] {
            if !Self.every, let known = lock.withLock({ found[key] }) {
                lock.withLock { reused += 1 }
                return known
            }
            let problems = try judge()
            lock.withLock { found[key] = problems }
            return problems
        }
    }

    // MARK: - One run

    /// What a run of the binary gave.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String

        var errorLines: [String] { error.split(separator: "\n").map(String.init) }
    }

    /// Runs the binary on the run directory `root` as the scenario does, with `faults` as
    /// its `DRAFTLINE_FAULTS` (none when empty).
    static func run(_ scenario: Scenario, in root: String, faults: String, fixture: Fixture) throws -> Outcome {
        let data = root + "/data"
        var arguments = ["--data-dir", data]
        var input = ""
        switch scenario.kind {
        case .send(let chat): input = "/open \(chat)\n\(sent)\n/chats\n"
        case .importing: arguments = ["import", root + "/import.plist", "--data-dir", data]
        case .upgrade: input = "/chats\n"
        case .export: arguments = ["export", root + "/out.plist", "--data-dir", data]
        }
        var environment = fixture.environment(pinned)
        if !faults.isEmpty { environment["DRAFTLINE_FAULTS"] = faults }
        return try spawn(Fixture.executable, arguments: arguments, environment: environment, input: input)
    }

    /// The clock of every run of a sweep, pinned (2100-01-01, after every message of a
    /// template): a run stores the same bytes each time it does the same thing.
    static let pinned = ["SOURCE_DATE_EPOCH": "4102444800"]

    /// Runs a clean command on a run directory: a piped session, or a subcommand.
    static func clean(_ input: String, arguments: [String] = [], in root: String, fixture: Fixture) throws -> Outcome {
        try spawn(
            Fixture.executable, arguments: arguments.isEmpty ? ["--data-dir", root + "/data"] : arguments,
            environment: fixture.environment(pinned), input: input)
    }

    /// Copies a directory as it is (links, modes), with `cp -a`.
    static func copy(_ source: String, to target: String, fixture: Fixture) throws {
        let result = try spawn("/bin/cp", arguments: ["-a", source, target], environment: fixture.environment())
        guard result.status == 0 else { throw PseudoTerminal.Failure(description: "cp -a \(source) failed") }
    }

    /// Runs a program to its end with `input` on a pipe (`posix_spawn`: Foundation's
    /// `Process.run`, called this often from two threads at once, crashes in `memcpy`),
    /// both output streams read as they come, killed at a 60 s deadline. `input` must fit
    /// in a pipe's buffer.
    static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], input: String = ""
    ) throws -> Outcome {
        var ends: [Int32] = [-1, -1, -1, -1, -1, -1]
        // Made close-on-exec at once (pipe2), and the child closes every other descriptor it
        // was given (closefrom): a pipe end that reached another test's child, or the other
        // worker's, would keep a reader from its end of input, and two such children wait on
        // each other for good.
        guard Self.pipe2(&ends[0], O_CLOEXEC) == 0, Self.pipe2(&ends[2], O_CLOEXEC) == 0,
            Self.pipe2(&ends[4], O_CLOEXEC) == 0
        else {
            throw PseudoTerminal.Failure(description: "pipe2: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (end, target) in [(ends[0], Int32(0)), (ends[3], 1), (ends[5], 2)] {
            posix_spawn_file_actions_adddup2(&actions, end, target)
        }
        _ = Self.closeFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, envp)
        for end in [ends[0], ends[3], ends[5]] { close(end) }
        defer { [ends[2], ends[4]].forEach { close($0) } }
        guard spawned == 0 else {
            close(ends[1])
            throw PseudoTerminal.Failure(
                description: "posix_spawn \(executable): \(String(cString: strerror(spawned)))")
        }
        precondition(input.utf8.count < 60_000, "the input must fit in the pipe's buffer")
        _ = Array(input.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        var collected: [Int32: [UInt8]] = [ends[2]: [], ends[4]: []]
        var open = [ends[2], ends[4]]
        let deadline = Date().addingTimeInterval(60)
        while !open.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                kill(child, SIGKILL)
                var raw: Int32 = 0
                waitpid(child, &raw, 0)
                throw PseudoTerminal.Failure(description: "\(executable) \(arguments) did not end within 60 s")
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&polled, nfds_t(polled.count), Int32(remaining * 1000)) < 0 && errno != EINTR { break }
            for entry in polled where entry.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[entry.fd, default: []] += buffer[0..<count]
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
        // A signal shows as 128 plus its number, as a shell shows it.
        let status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return Outcome(
            status: status, output: String(decoding: collected[ends[2]] ?? [], as: UTF8.self),
            error: String(decoding: collected[ends[4]] ?? [], as: UTF8.self))
    }

    /// glibc's `pipe2` and `posix_spawn_file_actions_addclosefrom_np` (2.34), which the
    /// Glibc module does not declare (they are GNU extensions).
    nonisolated(unsafe) static let pipe2 = unsafeBitCast(
        dlsym(nil, "pipe2"), to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    nonisolated(unsafe) static let closeFrom = unsafeBitCast(
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"),
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// Words that must never be in what a run printed: a crash, a trap, damage said of a
    /// call that failed, advice to remove a file that is not the cause.
    static let forbidden = [
        "Fatal error", "Illegal instruction", "Trace/breakpoint", "Backtrace", "Crash", "💣", "damaged", "remove it",
    ]

    // MARK: - Judging

    /// What is wrong with a faulted run and the clean run after it, in words; empty when
    /// nothing is.
    static func judge(
        _ scenario: Scenario, code: Int32, faulted: Outcome, root: String, baseline: State, reader: Reader,
        fixture: Fixture, cleanRuns: CleanRuns
    ) throws -> [String] {
        var problems: [String] = []
        let reason = String(cString: strerror(code))
        let (state, digest) = try reader.look(at: root)
        problems += state.errors.map { "plistlib: \($0)" }
        let printed = faulted.output + faulted.error
        for word in forbidden where printed.contains(word) { problems.append("printed '\(word)'") }
        // 0, or what failed: 2 the data directory or a file cannot be used, 3 a message not stored.
        if ![0, 2, 3].contains(faulted.status) { problems.append("exit status \(faulted.status)") }
        let lines = faulted.errorLines
        if lines.count > 1 { problems.append("\(lines.count) lines on standard error") }
        for line in lines where !line.contains(reason) || !line.contains(root) {
            problems.append("a line that does not name the file and '\(reason)': \(line)")
        }
        if code == EINTR && (!lines.isEmpty || faulted.status != 0) {
            problems.append("an interrupted call that was not made again")
        }
        // Each line a chat shows once: a journal read as new shows old messages again.
        let shown = faulted.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        if Set(shown).count != shown.count { problems.append("a message shown twice (a journal replayed)") }

        switch scenario.kind {
        case .send(let chat):
            let key = "chats/" + chat
            let acknowledged = faulted.output.contains("  you: \(sent)\n")
            if !acknowledged && lines.isEmpty { problems.append("not sent, and nothing said") }
            if faulted.status != 0 && acknowledged {
                problems.append("exit status \(faulted.status) after the message was sent")
            }
            // Read failures are never an empty chat, nor a chat missing from the list.
            if faulted.output.contains("(no messages yet)") { problems.append("the chat shown empty") }
            let listed = faulted.output.split(separator: "\n").first {
                $0.hasPrefix("  \(chat) ") && $0.contains(" · ")
            }
            if listed == nil && lines.isEmpty { problems.append("/chats does not list \(chat), and nothing said") }
            if let listed,
                acknowledged && !listed.hasSuffix("· you: \(sent)")
                    && !(listed.hasSuffix("(could not be read)") && !lines.isEmpty)
            {
                problems.append("/chats shows \(listed), not the message sent")
            }
            let expected = (baseline.chats[key] ?? []) + (acknowledged ? [sent] : [])
            if state.chats[key] ?? [] != expected {
                problems.append("\(key) holds \(tail(state.chats[key] ?? [])), not \(tail(expected))")
            }
            problems += others(than: [key], in: state, baseline: baseline)
            problems += try cleanRuns.problems(for: digest + (acknowledged ? " sent" : "")) {
                let next = try clean("/open \(chat)\n\(after)\n", in: root, fixture: fixture)
                return judgeClean(
                    next, shows: expected.last, chat: key, expected: expected + [after], root: root, reader: reader)
            }
        case .importing:
            var complete = true
            for (chat, texts) in imported.sorted(by: { $0.key < $1.key }) {
                let before = baseline.chats[chat] ?? []
                let added = texts.filter { !before.contains($0) }
                let now = state.chats[chat] ?? []
                // All of a chat or none: each of its segments is written whole.
                if now != before && now != before + added {
                    problems.append("\(chat) holds \(tail(now)), neither what it held nor all of it")
                }
                if now != before + added { complete = false }
            }
            if faulted.status == 0 && !complete { problems.append("exit status 0, and not every message stored") }
            if faulted.status == 0 && !faulted.output.contains("imported ") { problems.append("no 'imported' line") }
            if faulted.status != 0 && complete && state != baseline {
                problems.append("exit status \(faulted.status), and every message stored")
            }
            if faulted.status != 0 && lines.isEmpty { problems.append("failed, and nothing said") }
            problems += others(than: Array(imported.keys), in: state, baseline: baseline)
            problems += try cleanRuns.problems(for: digest) {
                try importAgain(root: root, baseline: baseline, reader: reader, fixture: fixture)
            }
        case .upgrade:
            if faulted.status != 0 && lines.isEmpty { problems.append("failed, and nothing said") }
            if state.format == "2" {
                // Stamped: everything is where this version keeps it.
                problems += layoutProblems(state, baseline: baseline, prefix: "stamped 2, but ")
            } else {
                // Not stamped: every message once, wherever it is.
                let all = state.chats.values.flatMap { $0 }
                if all.sorted() != baseline.chats.values.flatMap({ $0 }).sorted() {
                    problems.append("messages lost or doubled before the upgrade finished: \(state.chats)")
                }
            }
            problems += try cleanRuns.problems(for: digest) {
                try startAgain(root: root, baseline: baseline, reader: reader, fixture: fixture)
            }
        case .export:
            let complete = Dictionary(
                uniqueKeysWithValues: baseline.chats.map { (String($0.key.split(separator: "/")[1]), $0.value) })
            if faulted.status == 0 && state.export != complete {
                problems.append(
                    "exit status 0, and the export holds \(state.export.map { "\($0.keys.sorted())" } ?? "nothing")")
            }
            if faulted.status != 0 && state.export != baseline.export {
                problems.append("exit status \(faulted.status), and the export file changed")
            }
            if faulted.status != 0 && !lines.contains(where: { $0.contains("nothing was written") }) {
                problems.append("failed without saying nothing was written")
            }
            if state.chats != baseline.chats { problems.append("the export changed the history") }
            problems += try cleanRuns.problems(for: digest) {
                try exportAgain(root: root, baseline: baseline, complete: complete, reader: reader, fixture: fixture)
            }
        }
        return problems
    }

    /// The clean runs after a faulted import: the import again brings the rest in, nothing
    /// twice; then carol's chat opens, shows and sends.
    static func importAgain(root: String, baseline: State, reader: Reader, fixture: Fixture) throws -> [String] {
        var problems: [String] = []
        let again = try clean(
            "", arguments: ["import", root + "/import.plist", "--data-dir", root + "/data"], in: root,
            fixture: fixture)
        if again.status != 0 || !again.error.isEmpty { problems.append("the import again: \(again.error)") }
        let final = try reader.read(root)
        for (chat, texts) in imported {
            let before = baseline.chats[chat] ?? []
            let expected = before + texts.filter { !before.contains($0) }
            if final.chats[chat] ?? [] != expected { problems.append("after the import again, \(chat) is wrong") }
        }
        let next = try clean("/open carol\n\(after)\n", in: root, fixture: fixture)
        let carol = final.chats["chats/carol"] ?? []
        problems += judgeClean(
            next, shows: carol.last, chat: "chats/carol", expected: carol + [after], root: root, reader: reader)
        return problems
    }

    /// The clean runs after a faulted upgrade: the next start lists every chat and stamps
    /// the layout; then alice's chat opens, shows and sends.
    static func startAgain(root: String, baseline: State, reader: Reader, fixture: Fixture) throws -> [String] {
        var problems: [String] = []
        let list = try clean("/chats\n", in: root, fixture: fixture)
        if list.status != 0 || !list.error.isEmpty { problems.append("the next start: \(list.error)") }
        for user in ["alice", "tweet_9"] where !list.output.contains(user) {
            problems.append("/chats does not list \(user): \(list.output)")
        }
        let upgraded = try reader.read(root)
        if upgraded.format != "2" { problems.append("the next start did not stamp format 2") }
        problems += layoutProblems(upgraded, baseline: baseline, prefix: "after the next start, ")
        let next = try clean("/open alice\n\(after)\n", in: root, fixture: fixture)
        let alice = upgraded.chats["chats/alice"] ?? []
        problems += judgeClean(
            next, shows: alice.last, chat: "chats/alice", expected: alice + [after], root: root, reader: reader)
        return problems
    }

    /// The clean runs after a faulted export: the export again is whole; then alice's chat
    /// opens, shows and sends.
    static func exportAgain(
        root: String, baseline: State, complete: [String: [String]], reader: Reader, fixture: Fixture
    ) throws -> [String] {
        var problems: [String] = []
        let again = try clean(
            "", arguments: ["export", root + "/out.plist", "--data-dir", root + "/data"], in: root,
            fixture: fixture)
        if again.status != 0 || !again.error.isEmpty { problems.append("the export again: \(again.error)") }
        if try reader.read(root).export != complete { problems.append("the export again is incomplete") }
        let next = try clean("/open alice\n\(after)\n", in: root, fixture: fixture)
        let alice = baseline.chats["chats/alice"] ?? []
        problems += judgeClean(
            next, shows: alice.last, chat: "chats/alice", expected: alice + [after], root: root, reader: reader)
        return problems
    }

    /// The chats a run was not about, as they were.
    static func others(than chats: [String], in state: State, baseline: State) -> [String] {
        var problems: [String] = []
        for (chat, texts) in baseline.chats where !chats.contains(chat) && state.chats[chat] != texts {
            problems.append("\(chat) changed: \(tail(state.chats[chat] ?? []))")
        }
        return problems
    }

    /// What is wrong with an upgraded layout.
    static func layoutProblems(_ state: State, baseline: State, prefix: String) -> [String] {
        var problems: [String] = []
        if state.chats["chats/tweet_1"] != nil { problems.append(prefix + "the thread is still in chats/") }
        if state.chats["threads/tweet_1"] != baseline.chats["chats/tweet_1"] {
            problems.append(prefix + "threads/tweet_1 holds \(state.chats["threads/tweet_1"] ?? [])")
        }
        if state.chats["chats/tweet_9"] != baseline.chats["chats/tweet_9"] {
            problems.append(prefix + "the contact's chat tweet_9 was moved")
        }
        if state.chats["chats/alice"] != baseline.chats["chats/alice"] { problems.append(prefix + "alice changed") }
        return problems
    }

    /// What is wrong with a clean run that opens a chat and sends: it must succeed, say
    /// nothing on standard error, show the chat's last message and its own.
    static func judgeClean(
        _ next: Outcome, shows last: String?, chat: String, expected: [String], root: String, reader: Reader
    ) -> [String] {
        var problems: [String] = []
        if next.status != 0 || !next.error.isEmpty {
            problems.append("the clean run after: status \(next.status), \(next.error)")
        }
        if let last, !next.output.contains("  you: \(last)\n") && !next.output.contains(": \(last)\n") {
            problems.append("the clean run does not show '\(last)'")
        }
        if !next.output.contains("  you: \(after)\n") { problems.append("the clean run did not send") }
        if let final = try? reader.read(root) {
            if final.chats[chat] != expected {
                problems.append("after the clean run, \(chat) holds \(tail(final.chats[chat] ?? []))")
            }
            if !final.leftovers.isEmpty { problems.append("files left behind: \(final.leftovers)") }
        }
        return problems
    }

    /// The last few texts of a chat, for a message.
    static func tail(_ texts: [String]) -> String {
        "\(texts.count) messages, ending \(texts.suffix(3))"
    }

    // MARK: - The sweep

    /// The calls of a clean run, as its trace recorded them: name, path.
    static func trace(
        _ scenario: Scenario, template: String, fixture: Fixture
    ) throws -> [(name: String, path: String, flags: Int32)] {
        let root = fixture.root + "/trace-run"
        try? FileManager.default.removeItem(atPath: root)
        try copy(template, to: root, fixture: fixture)
        let file = fixture.root + "/trace.txt"
        try? FileManager.default.removeItem(atPath: file)
        let outcome = try run(scenario, in: root, faults: "trace=" + file, fixture: fixture)
        guard outcome.status == 0, outcome.error.isEmpty else {
            throw PseudoTerminal.Failure(description: "the clean run of \(scenario.name) failed: \(outcome.error)")
        }
        try FileManager.default.removeItem(atPath: root)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[1]), String(fields[2]), Int32(fields[4]) ?? 0)
        }
    }

    /// Calls that can need space on the disk: where `ENOSPC` is sampled (`open` and
    /// `openat` when they make a file).
    static let spaceCalls: Set<String> = [
        "write", "mkdirat", "mkdir", "renameat", "symlinkat", "fsync", "fdatasync", "syncfs",
    ]

    /// Whether a call can need space on the disk.
    static func needsSpace(_ call: (name: String, path: String, flags: Int32)) -> Bool {
        spaceCalls.contains(call.name) || (call.name.hasPrefix("open") && call.flags & O_CREAT != 0)
    }

    /// The faults a sweep of a trace of `count` calls plays: `(index, errno)`.
    static func faults(for calls: [(name: String, path: String, flags: Int32)]) -> [(index: Int, code: Int32)] {
        if full {
            return [EIO, EINTR, ENOSPC, EAGAIN, EROFS, EDQUOT, EACCES, EMFILE].flatMap { code in
                calls.indices.map { ($0, code) }
            }
        }
        return calls.indices.map { ($0, EIO) } + stride(from: 1, to: calls.count, by: 5).map { ($0, EINTR) }
            + calls.indices.filter { needsSpace(calls[$0]) }.map { ($0, ENOSPC) }
    }

    @Test(arguments: scenarios.indices)
    func everyCallFailingOnceLosesNothingAndSaysSo(_ number: Int) throws {
        let scenario = Self.scenarios[number]
        // STORAGE_SWEEP_SCENARIO=rotates runs the scenarios whose name holds that word only.
        if let only = ProcessInfo.processInfo.environment["STORAGE_SWEEP_SCENARIO"], !scenario.name.contains(only) {
            return
        }
        let fixture = try Fixture()
        try scenario.prepare(fixture)
        let template = fixture.root + "/template"
        try FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: fixture.dataDirectory, toPath: template + "/data")
        for extra in ["import.plist", "out.plist"]
        where FileManager.default.fileExists(atPath: fixture.root + "/" + extra) {
            try FileManager.default.moveItem(atPath: fixture.root + "/" + extra, toPath: template + "/" + extra)
        }
        let calls = try Self.trace(scenario, template: template, fixture: fixture)
        // Each as `name:suffix`, or several such split by `|` (an export written without a
        // name first, where the file system allows it, else under a temporary name).
        for wanted in scenario.covers {
            let made = wanted.split(separator: "|").contains { call in
                let (name, suffix) = (String(call.prefix { $0 != ":" }), String(call.drop { $0 != ":" }.dropFirst()))
                return calls.contains { $0.name == name && $0.path.hasSuffix(suffix) }
            }
            #expect(made, "the clean run makes no \(wanted)")
        }
        let plays = Self.faults(for: calls)
        let started = Date()
        let workers = 2
        let lock = NSLock()
        nonisolated(unsafe) var problems: [String] = []
        nonisolated(unsafe) var failures: [String] = []
        let baseline = try Reader(fixture: fixture).read(template)
        nonisolated(unsafe) let shared = fixture
        let cleanRuns = CleanRuns()
        // Threads of their own with the stack a program's main thread has: Foundation's
        // Process.run overflows the half megabyte of a dispatch worker's.
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                do {
                    let reader = try Reader(fixture: shared)
                    for play in stride(from: worker, to: plays.count, by: workers) {
                        let (index, code) = plays[play]
                        let root = shared.root + "/run-\(worker)"
                        try reader.copy(template, to: root)
                        let name = FaultPlan.codes.first { $0.value == code }?.key ?? String(code)
                        let faulted = try Self.run(scenario, in: root, faults: "fail=\(index):\(name)", fixture: shared)
                        let found = try Self.judge(
                            scenario, code: code, faulted: faulted, root: root, baseline: baseline, reader: reader,
                            fixture: shared, cleanRuns: cleanRuns)
                        if !found.isEmpty {
                            let call =
                                "\(calls[index].name) \(calls[index].path.replacingOccurrences(of: root, with: ""))"
                            let words =
                                "call \(index) (\(call)) failing with \(name): " + found.joined(separator: "; ")
                                + " [stdout: \(faulted.output.suffix(300)) stderr: \(faulted.error)]"
                            lock.withLock { problems.append(words) }
                        }
                    }
                } catch {
                    lock.withLock { failures.append("worker \(worker): \(error)") }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.wait()
        let seconds = Date().timeIntervalSince(started)
        print(
            "storage sweep: \(scenario.name): \(calls.count) calls, \(plays.count) runs "
                + "(\(Self.full ? "full" : "EIO on each, EINTR on every fifth, ENOSPC on each that can need space")), "
                + "the clean runs after \(plays.count - cleanRuns.reused) of them, \(String(format: "%.1f", seconds)) s"
        )
        #expect(failures.isEmpty, "\(failures)")
        #expect(
            problems.isEmpty, "\(problems.count) runs wrong; the first: \(problems.prefix(8).joined(separator: "\n"))")
    }
}
