#ifndef GESTUREBRIDGE_CLINUX_SHIM_H
#define GESTUREBRIDGE_CLINUX_SHIM_H

// Linux interfaces the Glibc module does not bring in.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

// A GNU extension, declared by pthread.h only under _GNU_SOURCE, which the Glibc module is
// built without: the bounds of a thread's stack, the main thread's included.
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);

// The C library's standard output stream, which Swift 6 will not read as a global variable.
static inline FILE *gesture_bridge_standard_output(void) { return stdout; }

// pidfd_open(2) as the kernel offers it (Linux 5.3 and later): glibc wraps it only from 2.36,
// and Ubuntu 22.04 has 2.35 on a kernel that has the call. -1 with ENOSYS on an older kernel.
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
static inline int gesture_bridge_pidfd_open(pid_t pid, unsigned int flags) {
    return (int)syscall(SYS_pidfd_open, pid, flags);
}

// Whether `number` is set to be ignored (SIG_IGN, as `nohup` sets SIGHUP): the constant is a
// cast, which Swift does not import.
static inline int gesture_bridge_signal_ignored(int number) {
    struct sigaction action;
    return sigaction(number, NULL, &action) == 0 && action.sa_handler == SIG_IGN;
}

#endif
