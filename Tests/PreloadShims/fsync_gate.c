/*
 * libgesture-fsync-gate.so: holds fsync and fdatasync until a test says go, for the tests of a
 * slow disk (LD_PRELOAD into the bridge).
 *
 *   GESTUREBRIDGE_FSYNC_GATE=PATH
 *
 * A call first creates PATH.waiting, the test's sign that a write is being held, then waits
 * until PATH exists, then syncs. Without the variable every call passes straight through.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void wait_for_gate(void) {
    const char *gate = getenv("GESTUREBRIDGE_FSYNC_GATE");
    if (gate == NULL || gate[0] == '\0') return;
    char waiting[4096];
    int length = snprintf(waiting, sizeof waiting, "%s.waiting", gate);
    if (length < 0 || (size_t)length >= sizeof waiting) return;
    int descriptor = open(waiting, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor >= 0) close(descriptor);
    struct timespec pause = {0, 10 * 1000 * 1000};
    while (access(gate, F_OK) != 0) nanosleep(&pause, NULL);
}

int fsync(int descriptor) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_for_gate();
    return real(descriptor);
}

int fdatasync(int descriptor) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_for_gate();
    return real(descriptor);
}
