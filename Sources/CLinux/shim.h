#ifndef GESTUREBRIDGE_CLINUX_SHIM_H
#define GESTUREBRIDGE_CLINUX_SHIM_H

// Linux interfaces the Glibc module does not bring in.
#include <sys/epoll.h>
#include <sys/signalfd.h>

#endif
