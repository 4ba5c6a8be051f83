/*
 * libgesture-opendir-fails.so: listing one folder fails with EIO, as a network home folder's
 * server that does not answer, or a disk with a bad sector, leaves it (LD_PRELOAD into the
 * bridge); every other folder lists as ever, and files in it open as ever.
 *
 *   GESTUREBRIDGE_UNLISTABLE=PATH
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

DIR *opendir(const char *name) {
    DIR *(*real)(const char *) = (DIR *(*)(const char *))dlsym(RTLD_NEXT, "opendir");
    const char *unlistable = getenv("GESTUREBRIDGE_UNLISTABLE");
    if (unlistable != NULL && strcmp(name, unlistable) == 0) {
        errno = EIO;
        return NULL;
    }
    return real(name);
}
