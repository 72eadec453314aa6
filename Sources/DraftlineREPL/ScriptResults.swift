import DraftKit
import Foundation

/// What a run's checks came to: one result per `/expect`, each with the line it came from
/// (the script's line on a pipe, the edit line's number on a terminal), the errors of
/// other lines (a `/wait` that ran out of time among them), the line `--strict` stopped
/// at, and whether a message could not be stored. What `--report tap|junit` writes, and
/// what the exit status says.
///
/// Every word is the presenter's: a check is named as its `ok:` line names it, a failure
/// says what its error line says.
public struct ScriptResults: Sendable {
    /// One `/expect`.
    public struct Check: Equatable, Sendable {
        public var line: Int
        /// What it states, as the `ok:` line says it.
        public var statement: String
        /// For a failure, what was found; `nil` when it held.
        public var found: String?
        /// For a failure, its error line (without `error: `).
        public var message: String?

        public var held: Bool { found == nil }
    }

    /// An error of a line that is not a check (an unknown command, a usage error, a send
    /// that failed, a `/wait` that ran out of time).
    public struct LineError: Equatable, Sendable {
        public var line: Int
        public var message: String
    }

    /// The checks, in the order they ran.
    public private(set) var checks: [Check] = []
    /// The other lines' errors, in order.
    public private(set) var errors: [LineError] = []
    /// The line `--strict` stopped the run at, with its error, when that line was not a
    /// failed check (that check says it).
    public private(set) var stoppedAt: LineError?
    /// Whether the run was stopped (`--strict`).
    public var stopped: Bool { stopLine != nil }
    /// The line `--strict` stopped the run at.
    public private(set) var stopLine: Int?
    /// The checks of the lines after the stop, which did not run: each line's number and
    /// what it states (the line itself when it is no well-formed check).
    public private(set) var notRun: [(line: Int, statement: String)] = []
    /// Whether input after the stop was left unread (more of it had not come yet): the
    /// checks there are not listed.
    public var unreadAfterStop = false
    /// Whether a message could not be stored.
    public private(set) var notStored = false

    public init() {}

    /// Whether a check failed, or `--strict` stopped the run at an error.
    public var failed: Bool { stopped || checks.contains { !$0.held } }

    /// Records what one event of `line` reported. An `/expect` line (`event`) that is no
    /// well-formed check is a check that failed: it checked nothing the script meant.
    public mutating func record(
        _ reports: [Report], line: Int, of event: InputEvent? = nil, presenter: Presenter = Presenter()
    ) {
        let malformed = event.flatMap(Self.checkLine)
        for report in reports {
            if case .expectationMet(let expectation) = report {
                // `/expect error` after a malformed check: the script meant that error.
                if case .error = expectation, let last = checks.last, last.line == line - 1,
                    last.found == Self.malformed
                {
                    checks.removeLast()
                    errors.append(LineError(line: last.line, message: last.message ?? last.statement))
                }
                checks.append(Check(line: line, statement: Presenter.statement(of: expectation)))
            }
            guard case .error(let error) = report else { continue }
            let message = Presenter.flat(presenter.describe(error))
            if case .expectationFailed(let expectation, let found) = error {
                checks.append(
                    Check(
                        line: line, statement: Presenter.statement(of: expectation),
                        found: Presenter.describe(found, against: expectation), message: message))
                continue
            }
            if let malformed {
                checks.append(Check(line: line, statement: malformed, found: Self.malformed, message: message))
                continue
            }
            if case .notSent = error { notStored = true }
            if case .notSentSetAside = error { notStored = true }
            errors.append(LineError(line: line, message: message))
        }
    }

    /// What a malformed check found.
    static let malformed = "no well-formed check"

    /// The text of an `/expect` line.
    private static func checkLine(_ event: InputEvent) -> String? {
        guard case .line(let text) = event else { return nil }
        let line = text.trimmingCharacters(in: .whitespaces)
        return line == "/expect" || line.hasPrefix("/expect ") ? line : nil
    }

    /// The run stopped at `line` (`--strict`): its last error, unless a failed check of
    /// that line says why.
    public mutating func stop(at line: Int) {
        stopLine = line
        guard !checks.contains(where: { $0.line == line && !$0.held }) else { return }
        stoppedAt = errors.last { $0.line == line } ?? LineError(line: line, message: "the run stopped here")
    }

    /// A line after the stop, read but not run: a check there is listed as not run.
    public mutating func notRun(_ text: String, line: Int) {
        guard text.hasPrefix("/expect ") || text == "/expect" else { return }
        let expectation = try? Expectation(parsing: String(text.dropFirst("/expect".count)))
        notRun.append((line, expectation.map(Presenter.statement(of:)) ?? text))
    }

    /// Why a check did not run.
    var notRunReason: String {
        "not run: --strict stopped at line \(stopLine ?? 0)"
    }

    /// One thing a report lists, in the order of the lines.
    private enum Item {
        case check(Check)
        case error(LineError)
        case stop(LineError)
        case notRun(line: Int, statement: String)

        var line: Int {
            switch self {
            case .check(let check): return check.line
            case .error(let error), .stop(let error): return error.line
            case .notRun(let line, _): return line
            }
        }
    }

    private var items: [Item] {
        let all =
            checks.map(Item.check) + errors.filter { $0 != stoppedAt }.map(Item.error)
            + (stoppedAt.map { [Item.stop($0)] } ?? []) + notRun.map(Item.notRun)
        // Stable: within a line, checks, then errors, then the stop.
        return all.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    // MARK: - TAP

    /// The results as TAP (the Test Anything Protocol, version 13, which version 14
    /// readers take too): one test point per check (and one for the line `--strict`
    /// stopped at), named `line N: ...`, a failure's message and what was found in a YAML
    /// block; the checks after a stop as skipped (`# SKIP not run: ...`); the other lines'
    /// errors as comments; the plan last.
    public func tap() -> String {
        var lines = ["TAP version 13"]
        var number = 0
        for item in items {
            switch item {
            case .check(let check):
                number += 1
                lines.append(
                    (check.held ? "ok" : "not ok") + " \(number) - "
                        + Self.tapDescription("line \(check.line): " + check.statement))
                if let found = check.found {
                    lines += Self.yaml([("message", check.message ?? ""), ("found", found)], line: check.line)
                }
            case .error(let error):
                lines.append("# line \(error.line): error: " + Presenter.flat(error.message))
            case .stop(let error):
                number += 1
                lines.append(
                    "not ok \(number) - " + Self.tapDescription("line \(error.line): stopped the run (--strict)"))
                lines += Self.yaml([("message", error.message)], line: error.line)
            case .notRun(let line, let statement):
                number += 1
                lines.append(
                    "ok \(number) - " + Self.tapDescription("line \(line): " + statement) + " # SKIP \(notRunReason)")
            }
        }
        if unreadAfterStop {
            lines.append("# the input after the stop was not all there to read: its checks are not listed")
        }
        lines.append("1..\(number)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A test point's description: on one line, `#` and `\` escaped (TAP 14), so no part of
    /// it reads as a directive.
    static func tapDescription(_ text: String) -> String {
        Presenter.flat(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    }

    /// A YAML diagnostic block, indented two spaces under its test point: each text a
    /// double-quoted scalar (so a found `1` stays the text `1`), then the script line, a
    /// number.
    static func yaml(_ pairs: [(String, String)], line: Int) -> [String] {
        let quoted = { (text: String) in
            Presenter.flat(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
        }
        return ["  ---"] + pairs.map { "  \($0): \"\(quoted($1))\"" } + ["  line: \(line)", "  ..."]
    }

    // MARK: - JUnit

    /// The results as JUnit XML, as CI servers read it: one `testsuite` named `suite`, one
    /// `testcase` per `/expect` named `line N: ...` (a failure's `failure` element carries its
    /// message and what was found), one with an `error` for the line `--strict` stopped at,
    /// one `skipped` for each check after it, and the other lines' errors in the suite's
    /// `system-err`.
    public func junit(suite: String, timestamp: Date) -> String {
        let failures = checks.count { !$0.held }
        let errorCount = stoppedAt == nil ? 0 : 1
        let tests = checks.count + errorCount + notRun.count
        let stamp = ISO8601DateFormatter.string(
            from: timestamp, timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withInternetDateTime])
        let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errorCount)\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"draftline\" \(counts)>",
            "  <testsuite name=\(Self.attribute(suite)) \(counts) skipped=\"\(notRun.count)\" timestamp=\"\(stamp)\">",
        ]
        let classname = Self.attribute("draftline." + suite)
        var otherErrors: [String] = []
        for item in items {
            switch item {
            case .check(let check):
                let name = Self.attribute("line \(check.line): " + check.statement)
                guard let found = check.found else {
                    lines.append("    <testcase classname=\(classname) name=\(name)/>")
                    continue
                }
                lines.append("    <testcase classname=\(classname) name=\(name)>")
                lines.append(
                    "      <failure message=\(Self.attribute(check.message ?? "")) type=\"expectation failed\">"
                        + Self.text("line \(check.line): \(check.message ?? "")\nfound: \(found)") + "</failure>")
                lines.append("    </testcase>")
            case .error(let error):
                otherErrors.append("line \(error.line): error: " + Presenter.flat(error.message))
            case .stop(let error):
                let name = Self.attribute("line \(error.line): stopped the run (--strict)")
                lines.append("    <testcase classname=\(classname) name=\(name)>")
                lines.append(
                    "      <error message=\(Self.attribute(error.message)) type=\"error\">"
                        + Self.text("line \(error.line): error: \(error.message)") + "</error>")
                lines.append("    </testcase>")
            case .notRun(let line, let statement):
                let name = Self.attribute("line \(line): " + statement)
                lines.append("    <testcase classname=\(classname) name=\(name)>")
                lines.append("      <skipped message=\(Self.attribute(notRunReason))/>")
                lines.append("    </testcase>")
            }
        }
        if !otherErrors.isEmpty {
            lines.append("    <system-err>" + Self.text(otherErrors.joined(separator: "\n")) + "</system-err>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML: shown as the terminal shows it (control characters in caret
    /// notation, so none that XML forbids is left; line breaks kept), `&`, `<`, `>` escaped;
    /// the two noncharacters XML forbids replaced.
    static func text(_ text: String) -> String {
        var safe = ""
        for scalar in TerminalText.visible(text).unicodeScalars {
            switch scalar {
            case "&": safe += "&amp;"
            case "<": safe += "&lt;"
            case ">": safe += "&gt;"
            case "\u{FFFE}", "\u{FFFF}": safe += "\u{FFFD}"
            default: safe.unicodeScalars.append(scalar)
            }
        }
        return safe
    }

    /// An attribute's value, quoted: on one line, and `"` escaped too.
    static func attribute(_ value: String) -> String {
        "\"" + text(Presenter.flat(value)).replacingOccurrences(of: "\"", with: "&quot;") + "\""
    }
}
