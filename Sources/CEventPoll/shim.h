// Linux's event descriptors, which Swift's Glibc module leaves out: epoll (one descriptor
// over several), timerfd (a deadline as a descriptor) and eventfd (a flag as one). The IRC
// client gives a front end one descriptor to wait on, as the journal feed does.

#ifndef CEVENTPOLL_SHIM_H
#define CEVENTPOLL_SHIM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

#endif
