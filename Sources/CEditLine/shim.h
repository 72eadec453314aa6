// Fixed-argument wrappers for libedit's C-variadic calls.
//
// Swift cannot call `el_set`, `el_get` or `history` directly ("variadic function is
// unavailable"), and libedit has no `va_list` forms. Each wrapper below makes exactly one
// such call with a fixed argument list. Everything else in libedit imports as it is.

#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H

#include <histedit.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

/// The signature of a libedit key function: `(editor, last key) -> CC_* code`.
typedef unsigned char (*dl_key_function)(EditLine *, int);

/// The signature of a narrow prompt function.
typedef char *(*dl_prompt_function)(EditLine *);

/// `el_init(program, stdin, stdout, stderr)`: an editor on the standard streams.
static inline EditLine *dl_el_init_stdio(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}

/// `fwrite` then `fflush` on standard output (`to_error` 0) or standard error: writes
/// through the streams libedit itself writes to, so the two never interleave badly.
/// Returns 0, or -1 when the stream failed.
static inline int dl_write(int to_error, const char *bytes, size_t count) {
    FILE *stream = to_error ? stderr : stdout;
    if (count > 0 && fwrite(bytes, 1, count, stream) != count) return -1;
    return fflush(stream) == 0 ? 0 : -1;
}

/// `el_set(el, EL_REFRESH)`: redraw the prompt and the edit line from the cursor's row.
static inline int dl_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

/// POSIX `wcwidth`, declared here: glibc hides it behind `_XOPEN_SOURCE`.
extern int wcwidth(wchar_t c);

/// `wcwidth(c)`: the columns a character takes, -1 when it is not printable.
static inline int dl_wcwidth(wchar_t c) {
    return wcwidth(c);
}

/// `el_get(el, EL_GETTC, "co", &columns)`: the terminal's width; 80 when unknown.
static inline int dl_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns) != 0 || columns <= 0) return 80;
    return columns;
}

/// `el_get(el, EL_GETTC, "li", &rows)`: the terminal's height; 24 when unknown.
static inline int dl_el_rows(EditLine *el) {
    int rows = 0;
    if (el_get(el, EL_GETTC, "li", &rows) != 0 || rows <= 0) return 24;
    return rows;
}

/// `el_set(el, EL_PROMPT, f)`.
static inline int dl_el_set_prompt(EditLine *el, dl_prompt_function f) {
    return el_set(el, EL_PROMPT, f);
}

/// `el_set(el, EL_EDITOR, mode)`, where mode is "emacs" or "vi".
static inline int dl_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

/// `el_set(el, EL_SIGNAL, flag)`: let libedit restore the terminal on signals.
static inline int dl_el_set_signal(EditLine *el, int flag) {
    return el_set(el, EL_SIGNAL, flag);
}

/// `el_set(el, EL_HIST, history, h)`: attach a history list to the editor.
static inline int dl_el_set_history(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

/// `el_set(el, EL_ADDFN, name, help, f)`: register a key function by name.
static inline int dl_el_add_function(EditLine *el, const char *name, const char *help, dl_key_function f) {
    return el_set(el, EL_ADDFN, name, help, f);
}

/// `el_set(el, EL_BIND, keys, function, NULL)`: bind a key sequence to a function by name.
static inline int dl_el_bind(EditLine *el, const char *keys, const char *function) {
    return el_set(el, EL_BIND, keys, function, NULL);
}

/// `el_get(el, EL_EDITOR, &name)`: 1 when the editor is in vi mode, else 0.
static inline int dl_el_is_vi(EditLine *el) {
    const char *name = NULL;
    if (el_get(el, EL_EDITOR, &name) != 0 || name == NULL) return 0;
    return name[0] == 'v' && name[1] == 'i' && name[2] == '\0';
}

/// `el_set(el, EL_BIND, "-a", keys, function, NULL)`: the same in the alternate key map
/// (vi's command mode).
static inline int dl_el_bind_alternate(EditLine *el, const char *keys, const char *function) {
    return el_set(el, EL_BIND, "-a", keys, function, NULL);
}

/// `el_set(el, EL_BIND, NULL)` (or with `"-a"`, the alternate map) with libedit's output
/// sent to `out` meanwhile (`EL_SETFP`): the bindings in force, one a line, as
/// `"keys"   ->  function`. Returns 0, or -1 when the listing failed.
static inline int dl_el_list_bindings(EditLine *el, int alternate, FILE *out) {
    FILE *previous = NULL;
    if (el_get(el, EL_GETFP, 1, &previous) != 0) return -1;
    if (el_set(el, EL_SETFP, 1, out) != 0) return -1;
    int result = alternate ? el_set(el, EL_BIND, "-a", NULL) : el_set(el, EL_BIND, NULL);
    fflush(out);
    el_set(el, EL_SETFP, 1, previous);
    return result;
}

/// The signature of a character-reading function: `(editor, out) -> 1, 0 at EOF, -1`.
typedef int (*dl_read_function)(EditLine *, wchar_t *);

/// `el_set(el, EL_GETCFN, f)`; `NULL` puts back libedit's own reader (`EL_BUILTIN_GETCFN`).
static inline int dl_el_set_read_function(EditLine *el, dl_read_function f) {
    return el_set(el, EL_GETCFN, f == NULL ? EL_BUILTIN_GETCFN : f);
}

/// `el_set(el, EL_CLIENTDATA, data)`.
static inline int dl_el_set_client_data(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

/// `el_get(el, EL_CLIENTDATA, &data)`.
static inline void *dl_el_get_client_data(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

/// `history(h, &ev, H_SETSIZE, size)`.
static inline int dl_history_set_size(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

/// `history(h, &ev, H_SETUNIQUE, flag)`: drop consecutive duplicates.
static inline int dl_history_set_unique(History *h, int flag) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, flag);
}

/// `history(h, &ev, H_ENTER, line)`.
static inline int dl_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

/// `history(h, &ev, H_CLEAR)`.
static inline int dl_history_clear(History *h) {
    HistEvent ev;
    return history(h, &ev, H_CLEAR);
}

/// `el_set(el, EL_SETTY, "-d", isig ? "+isig" : "-isig", NULL)`: in the edit mode's
/// terminal settings, whether the terminal turns Ctrl-C, Ctrl-Z and Ctrl-\ into signals.
/// Off, they arrive as keys, in order with the keys typed before them, and the terminal
/// flushes nothing.
static inline int dl_el_set_edit_signals(EditLine *el, int isig) {
    return el_set(el, EL_SETTY, "-d", isig ? "+isig" : "-isig", NULL);
}

/// `el_set(el, EL_SETTY, "-x", "-icanon", "-echo", "-echonl", "-iexten", "-isig", "+inlcr",
/// "min=^A", "time=^@", NULL)`: libedit's mode between two reads (its "execute" mode,
/// which `el_wgets` puts the terminal in when it returns) takes keys as the edit mode does:
/// one at a time, not echoed, Ctrl-C, Ctrl-Z and Ctrl-\ as keys, the same line-end mapping
/// (`inlcr`, `icrnl` as libedit's edit mode has them), `VMIN` 1 and `VTIME` 0. Keys typed
/// while no line is read then wait in the terminal's queue for the next read, exactly as
/// typed; the line discipline never edits them (a Ctrl-U, a Backspace) or takes a Ctrl-D
/// as its end of file. Output keeps the user's processing (libedit sets `opost` and `onlcr`
/// in both modes), so `\n` still returns the carriage. The user's own settings come back
/// only with `el_end` (and wherever draftline puts them back itself: suspend, signals).
static inline int dl_el_keep_edit_mode_between_reads(EditLine *el) {
    return el_set(el, EL_SETTY, "-x", "-icanon", "-echo", "-echonl", "-iexten", "-isig", "+inlcr", "min=^A",
                  "time=^@", NULL);
}

/// `el_set(el, EL_PREP_TERM, flag)`: put the terminal in libedit's edit mode (1) or its
/// execute mode (0), as libedit does around each read; libedit's own record of which mode
/// the terminal is in follows.
static inline int dl_el_prepare_terminal(EditLine *el, int flag) {
    return el_set(el, EL_PREP_TERM, flag);
}

/// Whether the terminal can move the cursor up and erase a line (`el_get(EL_GETTC)` of
/// the `up` and `ce` capabilities): 0 for `TERM=dumb` or a terminal libedit does not know.
static inline int dl_el_has_cursor_motion(EditLine *el) {
    char *up = NULL, *erase = NULL;
    if (el_get(el, EL_GETTC, "up", &up) != 0 || el_get(el, EL_GETTC, "ce", &erase) != 0) return 0;
    return up != NULL && up[0] != '\0' && erase != NULL && erase[0] != '\0';
}

#endif
