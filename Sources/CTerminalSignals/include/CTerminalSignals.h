// Signal handling for draftline on a terminal, in C: the handlers run in signal context,
// where Swift code (its runtime, its exclusivity checks, lazy globals) must not run.

#ifndef CTERMINALSIGNALS_H
#define CTERMINALSIGNALS_H

/// Saves the terminal settings of standard input (`tcgetattr`), makes the interrupt pipe
/// (`pipe2`, non-blocking), then installs the handlers (`sigaction`, without
/// `SA_RESTART`):
///
/// - SIGINT: writes one byte to the interrupt pipe (the self-pipe pattern), so a reader
///   polling it sees the Ctrl-C whenever it lands, even between two reads;
/// - SIGTERM and SIGHUP: put back the saved settings (`tcsetattr`) and `_exit` with
///   128 plus the signal's number. Both calls are async-signal-safe.
///
/// Returns 0, or -1 with `errno` set when a handler could not be installed.
int dl_signals_install(void);

/// The read end of the interrupt pipe: readable after a SIGINT. -1 before
/// `dl_signals_install`.
int dl_interrupt_descriptor(void);

/// Empties the interrupt pipe; returns 1 when a SIGINT had arrived, else 0.
int dl_take_interrupt(void);

#endif
