#ifndef GESTUREBRIDGE_CLINUX_SHIM_H
#define GESTUREBRIDGE_CLINUX_SHIM_H

// Linux interfaces the Glibc module does not bring in.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <pthread.h>
#include <stdio.h>

// A GNU extension, declared by pthread.h only under _GNU_SOURCE, which the Glibc module is
// built without: the bounds of a thread's stack, the main thread's included.
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);

// The C library's standard output stream, which Swift 6 will not read as a global variable.
static inline FILE *gesture_bridge_standard_output(void) { return stdout; }

#endif
