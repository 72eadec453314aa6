// The watching history function: forwards each operation to libedit's `history()`, and
// tells the observer first when the operation moves through the list (a recall is about to
// replace the edit line, which still holds what was typed).

#include "CHistoryWatch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct dl_watched_history {
    History *history;
    dl_history_observer observer;
    void *context;
};

dl_watched_history *dl_watched_history_create(History *history, dl_history_observer observer, void *context) {
    dl_watched_history *watcher = malloc(sizeof *watcher);
    if (watcher == NULL) return NULL;
    watcher->history = history;
    watcher->observer = observer;
    watcher->context = context;
    return watcher;
}

void dl_watched_history_free(dl_watched_history *watcher) {
    free(watcher);
}

static void observe(dl_watched_history *watcher) {
    if (watcher->observer != NULL) watcher->observer(watcher->context);
}

// libedit has no `va_list` form of `history()`, so each operation's arguments are taken
// one by one, as `history(3)` documents them.
static int watching(void *ref, HistEvent *ev, int op, ...) {
    dl_watched_history *watcher = ref;
    History *h = watcher->history;
    va_list args;
    va_start(args, op);
    int result = -1;
    switch (op) {
    case H_FIRST: case H_LAST: case H_PREV: case H_NEXT: case H_CURR:
        observe(watcher);
        result = history(h, ev, op);
        break;
    case H_SET: case H_PREV_EVENT: case H_NEXT_EVENT:
        observe(watcher);
        result = history(h, ev, op, va_arg(args, int));
        break;
    case H_PREV_STR: case H_NEXT_STR:
        observe(watcher);
        result = history(h, ev, op, va_arg(args, const char *));
        break;
    case H_GETSIZE: case H_CLEAR: case H_GETUNIQUE: case H_END:
        result = history(h, ev, op);
        break;
    case H_SETSIZE: case H_SETUNIQUE: case H_DEL:
        result = history(h, ev, op, va_arg(args, int));
        break;
    case H_ENTER: case H_ADD: case H_APPEND: case H_LOAD: case H_SAVE:
        result = history(h, ev, op, va_arg(args, const char *));
        break;
    case H_SAVE_FP:
        result = history(h, ev, op, va_arg(args, FILE *));
        break;
    case H_NSAVE_FP: {
        size_t count = va_arg(args, size_t);
        result = history(h, ev, op, count, va_arg(args, FILE *));
        break;
    }
    case H_NEXT_EVDATA: case H_DELDATA: {
        int number = va_arg(args, int);
        result = history(h, ev, op, number, va_arg(args, void **));
        break;
    }
    case H_REPLACE: {
        const char *line = va_arg(args, const char *);
        result = history(h, ev, op, line, va_arg(args, void *));
        break;
    }
    default:
        break;
    }
    va_end(args);
    return result;
}

int dl_el_set_watched_history(EditLine *el, dl_watched_history *watcher) {
    return el_set(el, EL_HIST, watching, watcher);
}
