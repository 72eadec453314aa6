import DraftKit
import DraftlineREPL
import Foundation
import Glibc
import IRCClient
import LineEditor

/// Wires the pieces: parses options, opens the data directory, and runs the REPL on a
/// terminal or on a pipe.
enum Draftline {
    /// Exit statuses, as documented in `--help`, the man page and the pipe-mode guide.
    enum ExitStatus {
        /// Every expectation held, or there were none.
        static let success: Int32 = 0
        /// An expectation failed (an `/expect`, a `/wait` that ran out of time), or
        /// `--strict` stopped the run at an error.
        static let expectationFailed: Int32 = 1
        /// The command line, the data directory or a file it names cannot be used.
        static let unusable: Int32 = 2
        /// A message could not be stored.
        static let notStored: Int32 = 3

        /// What a run's results and sends come to.
        static func of(_ results: ScriptResults, sendFailed: Bool) -> Int32 {
            sendFailed || results.notStored ? notStored : results.failed ? expectationFailed : success
        }
    }

    static func main(arguments: [String]) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let options: Options
        do { options = try Options(parsing: arguments) } catch {
            return refuse(Presenter.describe(.badCommandLine(error.message)), keepNewlines: true)
        }
        if options.showHelp {
            Console.write(Options.usage + "\n", to: .output)
            return ExitStatus.success
        }
        if options.showVersion {
            Console.write("draftline \(Options.version)\n", to: .output)
            return ExitStatus.success
        }
        let pinned: Double?
        do {
            pinned = try Options.pinnedTime(environment: environment)
        } catch {
            return refuse(error.description, keepNewlines: true)
        }
        let clock: @Sendable () -> Date = { pinned.map(Date.init(timeIntervalSince1970:)) ?? Date() }
        let terminal = isatty(0) == 1 && isatty(1) == 1
        let console = Console(environment: environment, terminal: terminal)
        if options.tour {
            guard terminal else {
                return refuse(Presenter().describe(.tourNeedsTerminal))
            }
            return TerminalREPL.playTour(options: options, console: console)
        }
        let path: String
        do {
            path = try options.resolvedDataDirectory(environment: environment)
        } catch {
            return refuse(Presenter.describe(.dataDirectoryUnusable(error.message)), keepNewlines: true)
        }
        // Who the user is, then the trace file: an identity nobody can open a chat with, or a
        // path the trace cannot use, is a usage error that changes nothing, not even by
        // making the data directory.
        if options.transfer == nil, options.server == nil,
            let problem = IdentityCheck.problemBeforeOpening(with: options.identity, dataDirectory: path)
        {
            return refuse(Presenter.describe(problem))
        }
        let reports: ReportFiles
        var trace: TraceFile?
        do throws(UsageError) {
            if let tracePath = options.traceFile, options.transfer == nil {
                trace = try TraceFile(path: tracePath, format: options.traceFormat, dataDirectory: path)
            }
            if options.recordFile != nil, options.transfer == nil, !terminal {
                throw UsageError(Presenter.describe(.recordOnPipe))
            }
            reports = try ReportFiles(
                options.transfer == nil ? options.reportFiles : [],
                record: options.transfer == nil ? options.recordFile : nil, dataDirectory: path)
        } catch {
            return refuse(error.description, keepNewlines: true)
        }
        let frontend: Frontend
        let data: DataDirectory
        let presence: Presence
        do throws(StoreError) {
            // No wait for the data directory's lock goes a second without a word.
            let transferring = options.transfer != nil
            let notice: (LockWait) -> Void = { wait in
                let words = Presenter().lockWaitNotice(wait, transferring: transferring)
                Console.write("draftline: \(TerminalText.visible(words, keepNewlines: false))\n", to: .error)
            }
            if let transfer = options.transfer {
                return TransferCommand.run(transfer, dataDirectory: path) { () throws(StoreError) in
                    let data = try DataDirectory(path: path, clock: clock, onLockWait: notice)
                    // An import waits for another one as long as it takes, saying so.
                    data.history.lockLimit = nil
                    return data
                }
            }
            data = try DataDirectory(path: path, clock: clock, onLockWait: notice)
            // A session waits a second at most, then the send fails and keeps its text.
            data.history.lockLimit = 1
            presence = Presence(data)
            // On a chat server the identity is a nick there, not a contact here.
            if options.server == nil, IdentityCheck.needsContacts(options.identity),
                let problem = IdentityCheck.problem(
                    with: options.identity, contacts: data.loadContacts(), dataDirectory: path)
            {
                return refuse(Presenter.describe(problem))
            }
            // A pinned clock: IDs numbered by a run claimed from the data directory.
            let idSuffix: Outbox.IDSuffix =
                pinned == nil
                ? .random : .numbered(MessageNumbering { [history = data.history] in try? history.claimRun() })
            // Who this process is, for the demo peers of every draftline on the directory.
            do throws(StoreError) { try presence.announce(options.identity) } catch {
                console.show([Presenter.presenceNotAnnounced(options.identity, error)])
            }
            let peers =
                options.demo
                ? DemoPeers(
                    people: Set(ContactBook.demo.map(\.key)), delay: options.demoDelay, history: data.history,
                    clock: clock, idSuffix: idSuffix, presence: { [presence] in presence.state(of: $0) }) : nil
            // DRAFTLINE_WATCH=poll: look at the journal four times a second instead of being
            // woken by inotify (a file system that inotify does not see other writers on).
            let transport: any Transport
            if let server = options.server {
                switch NetworkStart.connect(to: server, options, history: data.history) {
                case .success(let (network, welcome)):
                    transport = network
                    let line = Presenter().line(for: welcome, server: network.client.options.server.description)
                    console.show(line.map { [$0] } ?? [])
                case .failure(let problem): return refuse(problem.message)
                }
            } else {
                let feed = data.history.follow(notifications: environment["DRAFTLINE_WATCH"] != "poll")
                transport = DirectoryTransport(data.history, feed: feed)
            }
            let session = Session(
                contacts: data.loadContacts(), history: data.history, tracing: options.trace,
                workingDirectory: FileManager.default.currentDirectoryPath, home: environment["HOME"], clock: clock,
                idSuffix: idSuffix, identity: options.identity,
                capabilities: terminal ? Capabilities(editLine: true, tourChapters: Tour.chapters.map(\.name)) : .pipe,
                peers: peers, transport: transport)
            frontend = Frontend(session)
        } catch {
            return refuse(Presenter.describe(.dataDirectoryUnusable(Presenter.describe(error))), keepNewlines: true)
        }
        // What opening the directory noticed (a directory of an older layout left where it was).
        console.show(frontend.lines(for: data.history.openingWarnings.map { .warning(.store($0)) }))
        let feed = frontend.session.live.transport
        // What the session reports of each chat's draft is its typing state on a chat server;
        // a thread on screen is its channel, joined.
        let network = feed as? IRCTransport
        if trace != nil || network != nil {
            // The closure keeps the file open for as long as the front end lives.
            frontend.onReports = { [unowned session = frontend.session] reports in
                trace?.record(reports, session: session)
                network?.follow(reports, on: session.screen)
            }
        }
        // The presence lock is held until the REPL ends; a chat server is told goodbye.
        defer {
            withExtendedLifetime(presence) {}
            (feed as? IRCTransport)?.client.quit()
        }
        if terminal {
            return TerminalREPL(
                frontend: frontend, options: options, lineHistory: data.lineHistory(for: options.identity),
                console: console, feed: feed, reports: reports
            ).run()
        }
        let live = Live(frontend: frontend, feed: feed, console: console, waiter: InputWaiter())
        return PipeREPL(frontend: frontend, strict: options.strict, live: live, console: console, reports: reports)
            .run()
    }

    /// A command line that cannot run: one line, and the status that says so.
    private static func refuse(_ problem: String, keepNewlines: Bool = false) -> Int32 {
        Console.write("draftline: \(TerminalText.visible(problem, keepNewlines: keepNewlines))\n", to: .error)
        return ExitStatus.unusable
    }
}
