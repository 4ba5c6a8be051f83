/*
 * libgesture-stat-shim.so: makes chosen files look like character devices, for the
 * real-driver tests (LD_PRELOAD into the Xorg that runs xf86-input-libinput).
 *
 * libinput finds a device in udev by the device number of its node and checks the opened
 * descriptor against it (stat64/fstat64); the X server checks the path with stat/fstat. The
 * emulated evdev nodes are regular files of a FUSE mount, so every call of the stat family
 * here reports, for a file listed in GESTUREBRIDGE_STAT_SHIM, S_IFCHR and its chosen st_rdev:
 *
 *   GESTUREBRIDGE_STAT_SHIM="DEV:INO:MAJOR:MINOR[,DEV:INO:MAJOR:MINOR...]"
 *
 * DEV and INO are the file's real st_dev and st_ino (decimal); everything else passes through.
 */
#define _GNU_SOURCE
#define _LARGEFILE64_SOURCE

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#define MAX_ENTRIES 16

struct entry {
    unsigned long long device;
    unsigned long long inode;
    unsigned int major;
    unsigned int minor;
};

static struct entry entries[MAX_ENTRIES];
static int entry_count = -1;

static void load_entries(void) {
    if (entry_count >= 0) return;
    int count = 0;
    const char *text = getenv("GESTUREBRIDGE_STAT_SHIM");
    while (text && *text && count < MAX_ENTRIES) {
        char *end = NULL;
        unsigned long long values[4];
        int parsed = 0;
        for (; parsed < 4; parsed++) {
            values[parsed] = strtoull(text, &end, 10);
            if (end == text) break;
            text = end;
            if (parsed < 3) {
                if (*text != ':') break;
                text++;
            }
        }
        if (parsed == 4) {
            entries[count].device = values[0];
            entries[count].inode = values[1];
            entries[count].major = (unsigned int)values[2];
            entries[count].minor = (unsigned int)values[3];
            count++;
        }
        text = strchr(text, ',');
        if (text) text++;
    }
    entry_count = count;
}

static const struct entry *find(unsigned long long device, unsigned long long inode) {
    load_entries();
    for (int i = 0; i < entry_count; i++)
        if (entries[i].device == device && entries[i].inode == inode) return &entries[i];
    return NULL;
}

#define PATCH(buffer)                                                                   \
    do {                                                                                \
        const struct entry *found = find((buffer)->st_dev, (buffer)->st_ino);           \
        if (found) {                                                                    \
            (buffer)->st_mode = ((buffer)->st_mode & ~S_IFMT) | S_IFCHR;                \
            (buffer)->st_rdev = makedev(found->major, found->minor);                    \
        }                                                                               \
    } while (0)

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* One call of the stat family: the next definition of `name` (libc's), then the patch of
 * the buffer it filled, which each wrapper names `buffer`. */
#define WRAP(name, parameters, arguments)                                               \
    int name parameters {                                                               \
        int result = NEXT(name) arguments;                                              \
        if (result == 0) PATCH(buffer);                                                 \
        return result;                                                                  \
    }

WRAP(stat, (const char *path, struct stat *buffer), (path, buffer))
WRAP(lstat, (const char *path, struct stat *buffer), (path, buffer))
WRAP(fstat, (int descriptor, struct stat *buffer), (descriptor, buffer))
WRAP(fstatat, (int directory, const char *path, struct stat *buffer, int flags), (directory, path, buffer, flags))
WRAP(stat64, (const char *path, struct stat64 *buffer), (path, buffer))
WRAP(lstat64, (const char *path, struct stat64 *buffer), (path, buffer))
WRAP(fstat64, (int descriptor, struct stat64 *buffer), (descriptor, buffer))
WRAP(fstatat64, (int directory, const char *path, struct stat64 *buffer, int flags), (directory, path, buffer, flags))

int statx(int directory, const char *path, int flags, unsigned int mask, struct statx *buffer) {
    int result = NEXT(statx)(directory, path, flags, mask, buffer);
    if (result == 0) {
        const struct entry *found =
            find(makedev(buffer->stx_dev_major, buffer->stx_dev_minor), buffer->stx_ino);
        if (found) {
            buffer->stx_mode = (uint16_t)((buffer->stx_mode & ~S_IFMT) | S_IFCHR);
            buffer->stx_rdev_major = found->major;
            buffer->stx_rdev_minor = found->minor;
        }
    }
    return result;
}

/* The legacy entry points older binaries link against (glibc before 2.33). */
int __xstat(int version, const char *path, struct stat *buffer);
int __lxstat(int version, const char *path, struct stat *buffer);
int __fxstat(int version, int descriptor, struct stat *buffer);
int __fxstatat(int version, int directory, const char *path, struct stat *buffer, int flags);
int __xstat64(int version, const char *path, struct stat64 *buffer);
int __lxstat64(int version, const char *path, struct stat64 *buffer);
int __fxstat64(int version, int descriptor, struct stat64 *buffer);
int __fxstatat64(int version, int directory, const char *path, struct stat64 *buffer, int flags);

WRAP(__xstat, (int version, const char *path, struct stat *buffer), (version, path, buffer))
WRAP(__lxstat, (int version, const char *path, struct stat *buffer), (version, path, buffer))
WRAP(__fxstat, (int version, int descriptor, struct stat *buffer), (version, descriptor, buffer))
WRAP(__fxstatat, (int version, int directory, const char *path, struct stat *buffer, int flags), (version, directory, path, buffer, flags))
WRAP(__xstat64, (int version, const char *path, struct stat64 *buffer), (version, path, buffer))
WRAP(__lxstat64, (int version, const char *path, struct stat64 *buffer), (version, path, buffer))
WRAP(__fxstat64, (int version, int descriptor, struct stat64 *buffer), (version, descriptor, buffer))
WRAP(__fxstatat64, (int version, int directory, const char *path, struct stat64 *buffer, int flags), (version, directory, path, buffer, flags))
