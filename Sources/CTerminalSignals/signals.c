#include "CTerminalSignals.h"

#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved;
static volatile sig_atomic_t have_saved = 0;

static void on_interrupt(int signal) {
    (void)signal;
}

static void on_termination(int signal) {
    if (have_saved) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    _exit(128 + signal);
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
    if (install(SIGINT, on_interrupt) != 0) return -1;
    if (install(SIGTERM, on_termination) != 0) return -1;
    if (install(SIGHUP, on_termination) != 0) return -1;
    return 0;
}
