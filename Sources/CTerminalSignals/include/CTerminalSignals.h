// Signal handling for draftline on a terminal, in C: the handlers run in signal context,
// where Swift code (its runtime, its exclusivity checks, lazy globals) must not run.

#ifndef CTERMINALSIGNALS_H
#define CTERMINALSIGNALS_H

/// Saves the terminal settings of standard input (`tcgetattr`), then installs the
/// handlers (`sigaction`, without `SA_RESTART`):
///
/// - SIGINT: does nothing, so that a blocked read returns `EINTR` and the line editor
///   abandons the line;
/// - SIGTERM and SIGHUP: put back the saved settings (`tcsetattr`) and `_exit` with
///   128 plus the signal's number. Both calls are async-signal-safe.
///
/// Returns 0, or -1 with `errno` set when a handler could not be installed.
int dl_signals_install(void);

#endif
