import Foundation
import Glibc

// draftline: a thin executable over DraftKit (the REPL as data), DraftlineREPL (how it is
// shown and typed) and LineEditor (libedit).
StandardDescriptors.ensureOpen()
setlocale(LC_ALL, "")
exit(Draftline.main(arguments: Array(CommandLine.arguments.dropFirst())))
