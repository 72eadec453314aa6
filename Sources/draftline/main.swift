import DraftlineREPL
import Foundation
import Glibc

// draftline: a thin executable over DraftKit (the REPL as data), DraftlineREPL (how it is
// shown and typed) and LineEditor (libedit).
if let problem = StandardDescriptors.ensureOpen() {
    let line = Array("draftline: \(Presenter.describe(problem))\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(Draftline.ExitStatus.unusable)
}
setlocale(LC_ALL, "")
exit(Draftline.main(arguments: Array(CommandLine.arguments.dropFirst())))
