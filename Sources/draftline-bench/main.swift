import Foundation

// draftline-bench: measures draftline's history against its targets and the original design.
exit(Benchmark.main(arguments: Array(CommandLine.arguments.dropFirst())))
