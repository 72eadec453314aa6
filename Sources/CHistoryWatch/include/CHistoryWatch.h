// A history for libedit that says when the editor consults it, in C: libedit calls its
// history function with C-variadic arguments, which Swift cannot receive.

#ifndef CHISTORYWATCH_H
#define CHISTORYWATCH_H

#include <histedit.h>

/// Called when libedit consults the history while reading a line (a recall: the up
/// arrow, `^R`, vi's `k` or `/`), with the context given to `dl_watched_history_create`.
typedef void (*dl_history_observer)(void *context);

/// A libedit history with an observer: owned by its creator, freed with
/// `dl_watched_history_free` after the editor it is attached to has ended.
typedef struct dl_watched_history dl_watched_history;

/// Allocates a watcher over `history` that calls `observer(context)` before every
/// operation that moves through the list; NULL when out of memory. The caller keeps
/// `context` alive for as long as the watcher lives.
dl_watched_history *dl_watched_history_create(History *history, dl_history_observer observer, void *context);

/// Frees a watcher (NULL is allowed). The history itself is the caller's.
void dl_watched_history_free(dl_watched_history *watcher);

/// `el_set(el, EL_HIST, ..., watcher)`: the editor's history goes through the watcher,
/// which forwards every operation to libedit's `history()` with its arguments.
int dl_el_set_watched_history(EditLine *el, dl_watched_history *watcher);

#endif
