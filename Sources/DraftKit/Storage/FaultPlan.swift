import Foundation
import Glibc

/// Which calls through ``Syscall`` fail, and with which `errno`: the storage's anomaly
/// tests. Calls are numbered from 0 in the order they are made; a rule fails one, or every
/// one from there on, without running it. A test makes a plan active (``withActive(_:_:)``);
/// `DRAFTLINE_FAULTS` makes one active for a whole process (``init(specification:)``).
public final class FaultPlan: @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `lock`.

    /// One way calls fail: the `first`-th of the calls it matches (and every later one, `onward`).
    public struct Rule: Equatable, Sendable {
        /// The first matching call it fails.
        public var first: Int
        /// Whether every later matching call fails too.
        public var onward: Bool
        /// The `errno` the calls fail with.
        public var code: Int32
        /// Only calls that change the file system (``Syscall/Name/changes(flags:)``).
        public var changesOnly: Bool
        /// Only calls of this C function (`write`, `fdatasync`, `readdir`).
        public var call: String?
        /// Only calls on a path that ends so.
        public var pathSuffix: String?
        /// Only calls on a path that starts so (a directory's calls and its files').
        public var pathPrefix: String?

        public init(
            failing first: Int, with code: Int32, onward: Bool = false, changesOnly: Bool = false,
            call: String? = nil, pathSuffix: String? = nil, pathPrefix: String? = nil
        ) {
            self.first = first
            self.onward = onward
            self.code = code
            self.changesOnly = changesOnly
            self.call = call
            self.pathSuffix = pathSuffix
            self.pathPrefix = pathPrefix
        }

        /// Whether the rule counts this call.
        func matches(_ name: Syscall.Name, path: String, flags: Int32) -> Bool {
            if changesOnly && !name.changes(flags: flags) { return false }
            if let call, call != name.rawValue { return false }
            if let pathSuffix, !path.hasSuffix(pathSuffix) { return false }
            if let pathPrefix, !path.hasPrefix(pathPrefix) { return false }
            return true
        }
    }

    /// One call, as the trace records it.
    public struct Entry: Equatable, Sendable {
        /// Its number, from 0.
        public var index: Int
        /// The C function.
        public var name: String
        /// The file it was made on (for `renameat`, the target).
        public var path: String
        /// `open` flags; 0 for other calls.
        public var flags: Int32
        /// For `renameat`, the source; else empty.
        public var other: String
        /// The `errno` the plan failed it with; 0 when it ran.
        public var failed: Int32
        /// What the call returned (-1 when it failed).
        public var result: Int = 0
        /// The `errno` it failed with, the plan's or the kernel's; 0 when it succeeded.
        public var code: Int32 = 0
    }

    private let lock = NSLock()
    private let rules: [Rule]
    /// How many calls each rule matched so far.
    private var matched: [Int]
    private let recording: Bool
    private var calls = 0
    private var entries: [Entry] = []
    private var failures = 0
    /// Where the environment's plan writes its trace, one line a call; -1 when nowhere.
    private let traceDescriptor: Int32

    /// A plan that fails what `rules` say, and keeps a trace when `recording`.
    public init(_ rules: [Rule] = [], recording: Bool = false) {
        self.rules = rules
        self.recording = recording
        matched = Array(repeating: 0, count: rules.count)
        traceDescriptor = -1
    }

    /// The plan `DRAFTLINE_FAULTS` describes: items separated by `;`.
    ///
    /// - `fail=N:ERRNO` fails call N (from 0) with `ERRNO` (`EIO`, `ENOSPC`, ... or a number);
    ///   `fail=N+:ERRNO` fails it and every call after it; `fail=N+:ERRNO:changes` counts
    ///   only the calls that change the file system (`fail=0+:EROFS:changes` is a read-only
    ///   disk); `fail=N:ERRNO:readdir` only the calls of that C function;
    ///   `fail=0+:EROFS:changes:/some/dir` only the calls on paths under that directory.
    /// - `trace=PATH` appends `index TAB name TAB path TAB failed-errno` for each call.
    ///
    /// `nil` when the text is empty or names nothing this understands.
    public init?(specification: String) {
        var rules: [Rule] = []
        var trace: Int32 = -1
        for item in specification.split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "trace":
                trace = Glibc.open(parts[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            case "fail":
                let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 2, let code = Self.code(named: fields[1]) else { return nil }
                let onward = fields[0].hasSuffix("+")
                guard let first = Int(onward ? String(fields[0].dropLast()) : fields[0]), first >= 0 else { return nil }
                let filter = fields.count > 2 ? fields[2] : ""
                guard filter.isEmpty || filter == "changes" || Syscall.Name(rawValue: filter) != nil else { return nil }
                let prefix = fields.count > 3 ? fields[3...].joined(separator: ":") : nil
                rules.append(
                    Rule(
                        failing: first, with: code, onward: onward, changesOnly: filter == "changes",
                        call: filter.isEmpty || filter == "changes" ? nil : filter, pathPrefix: prefix))
            default:
                return nil
            }
        }
        guard !rules.isEmpty || trace >= 0 else { return nil }
        self.rules = rules
        matched = Array(repeating: 0, count: rules.count)
        recording = false
        traceDescriptor = trace
    }

    /// The `errno` values a specification may name.
    public static let codes: [String: Int32] = [
        "EIO": EIO, "EINTR": EINTR, "ENOSPC": ENOSPC, "EAGAIN": EAGAIN, "EROFS": EROFS, "EDQUOT": EDQUOT,
        "EACCES": EACCES, "EPERM": EPERM, "EMFILE": EMFILE, "ENFILE": ENFILE, "ENOMEM": ENOMEM, "EBUSY": EBUSY,
        "ENOENT": ENOENT, "EEXIST": EEXIST, "EFBIG": EFBIG, "EXDEV": EXDEV, "ESTALE": ESTALE,
    ]

    /// The `errno` a name or a decimal number stands for.
    static func code(named name: String) -> Int32? {
        if let code = codes[name] { return code }
        guard let number = Int32(name), number > 0 else { return nil }
        return number
    }

    /// How many calls were made under the plan.
    public var count: Int { lock.withLock { calls } }

    /// How many calls the plan failed.
    public var failed: Int { lock.withLock { failures } }

    /// Every call made, in order, when the plan records them.
    public var trace: [Entry] { lock.withLock { entries } }

    /// Numbers call `name` on `path`: its number, and the `errno` it fails with (`nil`: it runs).
    func intercept(_ name: Syscall.Name, path: String, flags: Int32, other: String) -> (Int, Int32?) {
        lock.lock()
        defer { lock.unlock() }
        let index = calls
        calls += 1
        var code: Int32?
        for (number, rule) in rules.enumerated() where rule.matches(name, path: path, flags: flags) {
            let position = matched[number]
            matched[number] += 1
            if code == nil && (position == rule.first || (rule.onward && position > rule.first)) { code = rule.code }
        }
        if code != nil { failures += 1 }
        if recording {
            entries.append(
                Entry(index: index, name: name.rawValue, path: path, flags: flags, other: other, failed: code ?? 0))
        }
        if traceDescriptor >= 0 {
            let line = Array("\(index)\t\(name.rawValue)\t\(path)\t\(code ?? 0)\t\(flags)\t\(other)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(traceDescriptor, $0.baseAddress, $0.count) }
        }
        return (index, code)
    }

    /// Records what call `index` returned, when the plan keeps a trace.
    func completed(_ index: Int, result: Int, code: Int32) {
        guard recording else { return }
        lock.withLock {
            guard let position = entries.lastIndex(where: { $0.index == index }) else { return }
            entries[position].result = result
            entries[position].code = code
        }
    }

    /// The plan the calls of this task go through.
    @TaskLocal static var active: FaultPlan?

    /// The plan `DRAFTLINE_FAULTS` describes for the whole process, when it is set.
    static let environment: FaultPlan? = getenv("DRAFTLINE_FAULTS").flatMap {
        FaultPlan(specification: String(cString: $0))
    }

    /// The plan in force: this task's, else the environment's.
    static var current: FaultPlan? { active ?? environment }

    /// Runs `body` with `plan` in force for every call it makes on this task.
    public static func withActive<T, E: Error>(_ plan: FaultPlan, _ body: () throws(E) -> T) throws(E) -> T {
        var result: Result<T, E>?
        $active.withValue(plan) {
            do throws(E) { result = .success(try body()) } catch { result = .failure(error) }
        }
        return try result!.get()
    }
}
