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
/// - SIGWINCH: writes another byte to the same pipe, so the reader can redraw the line
///   at the new width;
/// - SIGTERM and SIGHUP: put back the saved settings (`tcsetattr`) and `_exit` with
///   128 plus the signal's number. Both calls are async-signal-safe.
/// - SIGTSTP (from outside: the suspend key is a key while draftline runs): put back the
///   saved settings, then stop as the default action does (`raise` with `SIG_DFL`); when
///   continued, the settings the terminal had when stopped (the line editor's mode) again,
///   unless something set the terminal up meanwhile (libedit does, while it reads a line).
///   Every call is async-signal-safe.
///
/// Returns 0, or -1 with `errno` set when a handler could not be installed.
int dl_signals_install(void);

/// The read end of the interrupt pipe: readable after a SIGINT. -1 before
/// `dl_signals_install`.
int dl_interrupt_descriptor(void);

/// What `dl_take_signals` found in the pipe.
enum { DL_SIGNAL_INTERRUPT = 1, DL_SIGNAL_RESIZE = 2 };

/// Empties the interrupt pipe; returns the signals that arrived since the last call, as
/// `DL_SIGNAL_INTERRUPT | DL_SIGNAL_RESIZE` bits (0 for none).
int dl_take_signals(void);

#endif
