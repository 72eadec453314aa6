import DraftKit
import Foundation
import Glibc

/// Wires the pieces: parses options, opens the data directory, and runs the REPL on a
/// terminal or on a pipe.
enum Draftline {
    /// Exit statuses, as documented in `--help` and the README.
    enum ExitStatus {
        static let success: Int32 = 0
        /// A message could not be stored (pipe mode), or the data directory is unusable.
        static let failure: Int32 = 1
        /// The command line is wrong (`EX_USAGE`).
        static let usage: Int32 = 64
    }

    static func main(arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options(parsing: arguments)
        } catch {
            Console.write("draftline: \(error)\n\(Options.usage)\n", to: .error)
            return ExitStatus.usage
        }
        if options.showHelp {
            Console.write(Options.usage + "\n", to: .output)
            return ExitStatus.success
        }
        if options.showVersion {
            Console.write("draftline \(Options.version)\n", to: .output)
            return ExitStatus.success
        }
        let terminal = isatty(0) == 1 && isatty(1) == 1
        if options.tour {
            guard terminal else {
                Console.write("draftline: \(DraftlineError.tourNeedsTerminal)\n", to: .error)
                return ExitStatus.failure
            }
            Console.decideColour(environment: ProcessInfo.processInfo.environment)
            return TerminalREPL.playTour(options: options)
        }
        let session: Session
        let directory: String
        do {
            directory = try options.resolvedDataDirectory(environment: ProcessInfo.processInfo.environment)
            let history = try PropertyListHistory(directory: directory)
            session = Session(
                contacts: ContactBook.load(directory: directory), history: history, tracing: options.trace)
        } catch {
            Console.write("draftline: cannot use the data directory: \(error)\n", to: .error)
            return ExitStatus.failure
        }
        if terminal {
            Console.decideColour(environment: ProcessInfo.processInfo.environment)
            return TerminalREPL(session: session, options: options, directory: directory).run()
        }
        return PipeREPL(session: session).run()
    }
}
