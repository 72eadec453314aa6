#define _GNU_SOURCE
#include "CTerminalSignals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static volatile sig_atomic_t have_saved = 0;
static int interrupt_pipe[2] = {-1, -1};

static void on_interrupt(int signal) {
    int saved_errno = errno;
    if (interrupt_pipe[1] >= 0) (void)!write(interrupt_pipe[1], signal == SIGWINCH ? "w" : "i", 1);
    errno = saved_errno;
}

static void on_termination(int signal) {
    if (have_saved) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    _exit(128 + signal);
}

/// Whether two sets of terminal settings are the same: flags and control characters.
static int same_settings(const struct termios *a, const struct termios *b) {
    if (a->c_iflag != b->c_iflag || a->c_oflag != b->c_oflag || a->c_cflag != b->c_cflag
        || a->c_lflag != b->c_lflag)
        return 0;
    for (int i = 0; i < NCCS; i++)
        if (a->c_cc[i] != b->c_cc[i]) return 0;
    return 1;
}

static int install(int signal, void (*handler)(int));

static void on_stop(int signal) {
    int saved_errno = errno;
    struct termios was;
    int have_was = tcgetattr(STDIN_FILENO, &was) == 0;
    if (have_saved) tcsetattr(STDIN_FILENO, TCSADRAIN, &saved);
    // Stop as the default action would; this returns when the process is continued.
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(signal, &stop, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal);
    install(signal, on_stop);
    // Continued. If nothing has set the terminal up since (libedit's own SIGCONT handler
    // does while it reads a line), it gets back the settings it had when stopped.
    struct termios now;
    if (have_was && have_saved && tcgetattr(STDIN_FILENO, &now) == 0 && same_settings(&now, &saved))
        tcsetattr(STDIN_FILENO, TCSADRAIN, &was);
    errno = saved_errno;
}

static int install(int signal, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(signal, &action, NULL);
}

int dl_signals_install(void) {
    have_saved = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (interrupt_pipe[0] < 0 && pipe2(interrupt_pipe, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    if (install(SIGINT, on_interrupt) != 0) return -1;
    if (install(SIGWINCH, on_interrupt) != 0) return -1;
    if (install(SIGTERM, on_termination) != 0) return -1;
    if (install(SIGHUP, on_termination) != 0) return -1;
    if (install(SIGTSTP, on_stop) != 0) return -1;
    return 0;
}

int dl_interrupt_descriptor(void) {
    return interrupt_pipe[0];
}

int dl_take_signals(void) {
    char buffer[64];
    int taken = 0;
    ssize_t count;
    while (interrupt_pipe[0] >= 0 && (count = read(interrupt_pipe[0], buffer, sizeof buffer)) > 0) {
        for (ssize_t i = 0; i < count; i++) taken |= buffer[i] == 'w' ? DL_SIGNAL_RESIZE : DL_SIGNAL_INTERRUPT;
    }
    return taken;
}
