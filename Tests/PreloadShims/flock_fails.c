/*
 * libgesture-flock-fails.so: every flock() fails with ENOLCK, as on a network home folder
 * whose server runs no lock manager (NFS without lockd). For the learned-state tests.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <sys/file.h>

int flock(int fd, int operation)
{
    (void)fd;
    (void)operation;
    errno = ENOLCK;
    return -1;
}
