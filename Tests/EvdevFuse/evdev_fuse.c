/*
 * gesture-evdev-fuse: emulated evdev device nodes for the real-driver tests.
 *
 * These machines have no uinput and no CUSE, so the unmodified X input drivers (wacom, evdev,
 * libinput) are given evdev nodes served by this FUSE file system instead. For every device
 * named on the command line the mount holds two files:
 *
 *   NAME         the device node: answers the evdev ioctls from the device's description,
 *                hands out `struct input_event` records by non-blocking read() (EAGAIN when
 *                there is none), and wakes poll()/epoll when events arrive. Every open file
 *                has a queue of its own, as every evdev client does; EVIOCGRAB keeps events to
 *                the grabbing file.
 *   NAME.events  written by a test: lines "TYPE CODE VALUE" (decimal), a frame ended by
 *                "0 0 0" as the kernel ends one; every open node gets them, stamped now.
 *                Read, it says how many events the node's readers have yet to read ("0\n"
 *                once the driver has taken everything).
 *
 * Usage: gesture-evdev-fuse MOUNTPOINT NAME=DESCRIPTION-FILE...
 *
 * A description file has one item a line:
 *   name TEXT | phys TEXT | uniq TEXT
 *   id BUSTYPE VENDOR PRODUCT VERSION      (numbers, 0x for hex)
 *   prop CODE | key CODE | rel CODE | msc CODE
 *   abs CODE MIN MAX FUZZ FLAT RESOLUTION
 *
 * The server ends, unmounting, on SIGTERM/SIGINT or when its standard input reaches its end
 * (the test that started it holds the other end of a pipe: if that process dies, so does this
 * one). Writes "ready" on standard output once mounted.
 */
#define FUSE_USE_VERSION 35
#define _GNU_SOURCE

#include <fuse3/fuse_lowlevel.h>

#include <errno.h>
#include <linux/input.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 8
#define QUEUE_CAPACITY 8192
#define BITS_PER_WORD (8 * sizeof(unsigned long))
#define WORDS(bits) (((bits) + BITS_PER_WORD - 1) / BITS_PER_WORD)

struct device;

struct client {
    struct device *device;
    struct input_event queue[QUEUE_CAPACITY];
    size_t head;
    size_t count;
    struct fuse_pollhandle *poll_handle;
    clockid_t clock;
    int grabbed;
    struct client *next;
};

struct writer {
    struct device *device;
    char partial[256];
    size_t partial_length;
};

struct device {
    char file_name[64];
    char name[128];
    char phys[128];
    char uniq[128];
    struct input_id id;
    unsigned long ev_bits[WORDS(EV_CNT)];
    unsigned long key_bits[WORDS(KEY_CNT)];
    unsigned long rel_bits[WORDS(REL_CNT)];
    unsigned long abs_bits[WORDS(ABS_CNT)];
    unsigned long msc_bits[WORDS(MSC_CNT)];
    unsigned long prop_bits[WORDS(INPUT_PROP_CNT)];
    unsigned long key_state[WORDS(KEY_CNT)];
    struct input_absinfo abs[ABS_CNT];
    struct client *clients;
};

static struct device devices[MAX_DEVICES];
static size_t device_count;
static struct fuse_session *session;
static pthread_t main_thread;

/* Inodes: 1 the root, 2 + 2i device i's node, 3 + 2i its events file. */
static fuse_ino_t node_inode(size_t index) { return 2 + 2 * (fuse_ino_t)index; }
static fuse_ino_t events_inode(size_t index) { return 3 + 2 * (fuse_ino_t)index; }

static void set_bit(unsigned long *bits, unsigned int bit) {
    bits[bit / BITS_PER_WORD] |= 1UL << (bit % BITS_PER_WORD);
}

static void clear_bit(unsigned long *bits, unsigned int bit) {
    bits[bit / BITS_PER_WORD] &= ~(1UL << (bit % BITS_PER_WORD));
}

/* ---- Description files ---- */

static int parse_number(const char *text, long *value) {
    char *end = NULL;
    errno = 0;
    *value = strtol(text, &end, 0);
    return errno == 0 && end != text ? 0 : -1;
}

static void copy_text(char *destination, size_t size, const char *text) {
    snprintf(destination, size, "%s", text);
    destination[strcspn(destination, "\n")] = '\0';
}

static int load_description(struct device *device, const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "gesture-evdev-fuse: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[512];
    int line_number = 0;
    int status = 0;
    set_bit(device->ev_bits, EV_SYN);
    while (status == 0 && fgets(line, sizeof line, file)) {
        line_number++;
        char *rest = strchr(line, ' ');
        if (rest) *rest++ = '\0';
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') continue;
        const char *text = rest ? rest : "";
        if (strcmp(line, "name") == 0) { copy_text(device->name, sizeof device->name, text); continue; }
        if (strcmp(line, "phys") == 0) { copy_text(device->phys, sizeof device->phys, text); continue; }
        if (strcmp(line, "uniq") == 0) { copy_text(device->uniq, sizeof device->uniq, text); continue; }
        long values[6] = {0};
        int wanted = strcmp(line, "id") == 0 ? 4 : strcmp(line, "abs") == 0 ? 6 : 1;
        char *cursor = rest;
        for (int i = 0; i < wanted; i++) {
            char *token = cursor ? strtok_r(cursor, " \t\n", &cursor) : NULL;
            if (!token || parse_number(token, &values[i]) != 0) {
                status = -1;
                break;
            }
        }
        if (status != 0) break;
        if (strcmp(line, "id") == 0) {
            device->id.bustype = (uint16_t)values[0];
            device->id.vendor = (uint16_t)values[1];
            device->id.product = (uint16_t)values[2];
            device->id.version = (uint16_t)values[3];
        } else if (strcmp(line, "prop") == 0 && values[0] >= 0 && values[0] < INPUT_PROP_CNT) {
            set_bit(device->prop_bits, (unsigned int)values[0]);
        } else if (strcmp(line, "key") == 0 && values[0] >= 0 && values[0] < KEY_CNT) {
            set_bit(device->key_bits, (unsigned int)values[0]);
            set_bit(device->ev_bits, EV_KEY);
        } else if (strcmp(line, "rel") == 0 && values[0] >= 0 && values[0] < REL_CNT) {
            set_bit(device->rel_bits, (unsigned int)values[0]);
            set_bit(device->ev_bits, EV_REL);
        } else if (strcmp(line, "msc") == 0 && values[0] >= 0 && values[0] < MSC_CNT) {
            set_bit(device->msc_bits, (unsigned int)values[0]);
            set_bit(device->ev_bits, EV_MSC);
        } else if (strcmp(line, "abs") == 0 && values[0] >= 0 && values[0] < ABS_CNT) {
            struct input_absinfo *info = &device->abs[values[0]];
            info->value = (int32_t)values[1];
            info->minimum = (int32_t)values[1];
            info->maximum = (int32_t)values[2];
            info->fuzz = (int32_t)values[3];
            info->flat = (int32_t)values[4];
            info->resolution = (int32_t)values[5];
            set_bit(device->abs_bits, (unsigned int)values[0]);
            set_bit(device->ev_bits, EV_ABS);
        } else {
            status = -1;
        }
    }
    fclose(file);
    if (status != 0) fprintf(stderr, "gesture-evdev-fuse: %s:%d: not understood\n", path, line_number);
    return status;
}

/* ---- Events ---- */

static void notify_readers(struct device *device) {
    for (struct client *client = device->clients; client; client = client->next) {
        if (client->count > 0 && client->poll_handle) {
            fuse_lowlevel_notify_poll(client->poll_handle);
            fuse_pollhandle_destroy(client->poll_handle);
            client->poll_handle = NULL;
        }
    }
}

static void deliver(struct device *device, uint16_t type, uint16_t code, int32_t value) {
    if (type == EV_KEY && code < KEY_CNT) {
        if (value) set_bit(device->key_state, code); else clear_bit(device->key_state, code);
    } else if (type == EV_ABS && code < ABS_CNT) {
        device->abs[code].value = value;
    }
    int grabbed = 0;
    for (struct client *client = device->clients; client; client = client->next) grabbed |= client->grabbed;
    for (struct client *client = device->clients; client; client = client->next) {
        if (grabbed && !client->grabbed) continue;
        struct timespec now;
        clock_gettime(client->clock, &now);
        size_t slot;
        if (client->count == QUEUE_CAPACITY) {
            /* A reader that stopped reading: the oldest event goes, as the kernel drops. */
            client->head = (client->head + 1) % QUEUE_CAPACITY;
            client->count--;
        }
        slot = (client->head + client->count) % QUEUE_CAPACITY;
        struct input_event *event = &client->queue[slot];
        event->input_event_sec = now.tv_sec;
        event->input_event_usec = now.tv_nsec / 1000;
        event->type = type;
        event->code = code;
        event->value = value;
        client->count++;
    }
}

static void take_line(struct device *device, const char *line) {
    long type, code, value;
    char *cursor = NULL;
    char copy[256];
    copy_text(copy, sizeof copy, line);
    char *first = strtok_r(copy, " \t\r", &cursor);
    char *second = first ? strtok_r(NULL, " \t\r", &cursor) : NULL;
    char *third = second ? strtok_r(NULL, " \t\r", &cursor) : NULL;
    if (!third || parse_number(first, &type) != 0 || parse_number(second, &code) != 0
        || parse_number(third, &value) != 0 || type < 0 || type >= EV_CNT || code < 0 || code > 0xffff) {
        if (first) fprintf(stderr, "gesture-evdev-fuse: %s: ignoring \"%s\"\n", device->file_name, line);
        return;
    }
    deliver(device, (uint16_t)type, (uint16_t)code, (int32_t)value);
}

/* ---- File system ---- */

static int find_inode(fuse_ino_t inode, size_t *index, int *is_events) {
    if (inode < 2) return -1;
    size_t candidate = (size_t)((inode - 2) / 2);
    if (candidate >= device_count) return -1;
    *index = candidate;
    *is_events = (inode - 2) % 2 == 1;
    return 0;
}

static void fill_stat(fuse_ino_t inode, struct stat *attributes) {
    memset(attributes, 0, sizeof *attributes);
    attributes->st_ino = inode;
    attributes->st_nlink = 1;
    if (inode == FUSE_ROOT_ID) {
        attributes->st_mode = S_IFDIR | 0755;
        attributes->st_nlink = 2;
        return;
    }
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) == 0)
        attributes->st_mode = S_IFREG | 0660;
}

static void op_lookup(fuse_req_t request, fuse_ino_t parent, const char *name) {
    if (parent != FUSE_ROOT_ID) {
        fuse_reply_err(request, ENOENT);
        return;
    }
    for (size_t index = 0; index < device_count; index++) {
        const char *file_name = devices[index].file_name;
        size_t length = strlen(file_name);
        fuse_ino_t inode = 0;
        if (strcmp(name, file_name) == 0) inode = node_inode(index);
        if (strncmp(name, file_name, length) == 0 && strcmp(name + length, ".events") == 0) inode = events_inode(index);
        if (inode) {
            struct fuse_entry_param entry;
            memset(&entry, 0, sizeof entry);
            entry.ino = inode;
            entry.attr_timeout = 3600;
            entry.entry_timeout = 3600;
            fill_stat(inode, &entry.attr);
            fuse_reply_entry(request, &entry);
            return;
        }
    }
    fuse_reply_err(request, ENOENT);
}

static void op_getattr(fuse_req_t request, fuse_ino_t inode, struct fuse_file_info *info) {
    (void)info;
    size_t index;
    int is_events;
    if (inode != FUSE_ROOT_ID && find_inode(inode, &index, &is_events) != 0) {
        fuse_reply_err(request, ENOENT);
        return;
    }
    struct stat attributes;
    fill_stat(inode, &attributes);
    fuse_reply_attr(request, &attributes, 3600);
}

static void op_readdir(fuse_req_t request, fuse_ino_t inode, size_t size, off_t offset, struct fuse_file_info *info) {
    (void)info;
    if (inode != FUSE_ROOT_ID) {
        fuse_reply_err(request, ENOTDIR);
        return;
    }
    char buffer[4096];
    size_t used = 0;
    size_t limit = size < sizeof buffer ? size : sizeof buffer;
    off_t total = 2 + 2 * (off_t)device_count;
    for (off_t entry = offset; entry < total; entry++) {
        char name[80];
        fuse_ino_t entry_inode;
        if (entry == 0) { snprintf(name, sizeof name, "."); entry_inode = FUSE_ROOT_ID; }
        else if (entry == 1) { snprintf(name, sizeof name, ".."); entry_inode = FUSE_ROOT_ID; }
        else {
            size_t index = (size_t)(entry - 2) / 2;
            int is_events = (entry - 2) % 2 == 1;
            snprintf(name, sizeof name, "%s%s", devices[index].file_name, is_events ? ".events" : "");
            entry_inode = is_events ? events_inode(index) : node_inode(index);
        }
        struct stat attributes;
        fill_stat(entry_inode, &attributes);
        size_t needed = fuse_add_direntry(request, buffer + used, limit - used, name, &attributes, entry + 1);
        if (needed > limit - used) break;
        used += needed;
    }
    fuse_reply_buf(request, buffer, used);
}

static void op_open(fuse_req_t request, fuse_ino_t inode, struct fuse_file_info *info) {
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) != 0) {
        fuse_reply_err(request, inode == FUSE_ROOT_ID ? EISDIR : ENOENT);
        return;
    }
    struct device *device = &devices[index];
    info->direct_io = 1;
    info->nonseekable = 1;
    if (is_events) {
        struct writer *writer = calloc(1, sizeof *writer);
        if (!writer) { fuse_reply_err(request, ENOMEM); return; }
        writer->device = device;
        info->fh = (uint64_t)(uintptr_t)writer;
    } else {
        struct client *client = calloc(1, sizeof *client);
        if (!client) { fuse_reply_err(request, ENOMEM); return; }
        client->device = device;
        client->clock = CLOCK_REALTIME;
        client->next = device->clients;
        device->clients = client;
        info->fh = (uint64_t)(uintptr_t)client;
    }
    fuse_reply_open(request, info);
}

static void op_release(fuse_req_t request, fuse_ino_t inode, struct fuse_file_info *info) {
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) == 0) {
        if (is_events) {
            free((void *)(uintptr_t)info->fh);
        } else {
            struct client *client = (struct client *)(uintptr_t)info->fh;
            struct client **link = &devices[index].clients;
            while (*link && *link != client) link = &(*link)->next;
            if (*link) *link = client->next;
            if (client->poll_handle) fuse_pollhandle_destroy(client->poll_handle);
            free(client);
        }
    }
    fuse_reply_err(request, 0);
}

static void op_read(fuse_req_t request, fuse_ino_t inode, size_t size, off_t offset, struct fuse_file_info *info) {
    (void)offset;
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) != 0) {
        fuse_reply_err(request, EBADF);
        return;
    }
    if (is_events) {
        /* How many events the device's readers have not read yet: a test waits for 0. */
        size_t pending = 0;
        for (struct client *c = devices[index].clients; c; c = c->next) pending += c->count;
        char text[32];
        int length = snprintf(text, sizeof text, "%zu\n", pending);
        fuse_reply_buf(request, text, (size_t)length < size ? (size_t)length : size);
        return;
    }
    struct client *client = (struct client *)(uintptr_t)info->fh;
    size_t wanted = size / sizeof(struct input_event);
    if (wanted == 0) {
        fuse_reply_err(request, EINVAL);
        return;
    }
    if (client->count == 0) {
        fuse_reply_err(request, EAGAIN);
        return;
    }
    size_t taken = wanted < client->count ? wanted : client->count;
    struct input_event out[64];
    if (taken > 64) taken = 64;
    for (size_t i = 0; i < taken; i++) out[i] = client->queue[(client->head + i) % QUEUE_CAPACITY];
    client->head = (client->head + taken) % QUEUE_CAPACITY;
    client->count -= taken;
    fuse_reply_buf(request, (const char *)out, taken * sizeof(struct input_event));
}

static void op_write(fuse_req_t request, fuse_ino_t inode, const char *data, size_t size, off_t offset,
                     struct fuse_file_info *info) {
    (void)offset;
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) != 0 || !is_events) {
        fuse_reply_err(request, EBADF);
        return;
    }
    struct writer *writer = (struct writer *)(uintptr_t)info->fh;
    for (size_t i = 0; i < size; i++) {
        char character = data[i];
        if (character == '\n') {
            writer->partial[writer->partial_length] = '\0';
            take_line(writer->device, writer->partial);
            writer->partial_length = 0;
        } else if (writer->partial_length < sizeof writer->partial - 1) {
            writer->partial[writer->partial_length++] = character;
        }
    }
    notify_readers(writer->device);
    fuse_reply_write(request, size);
}

static void op_poll(fuse_req_t request, fuse_ino_t inode, struct fuse_file_info *info, struct fuse_pollhandle *handle) {
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) != 0) {
        if (handle) fuse_pollhandle_destroy(handle);
        fuse_reply_err(request, EBADF);
        return;
    }
    if (is_events) {
        if (handle) fuse_pollhandle_destroy(handle);
        fuse_reply_poll(request, POLLOUT | POLLWRNORM);
        return;
    }
    struct client *client = (struct client *)(uintptr_t)info->fh;
    if (handle) {
        if (client->poll_handle) fuse_pollhandle_destroy(client->poll_handle);
        client->poll_handle = handle;
    }
    fuse_reply_poll(request, client->count > 0 ? (POLLIN | POLLRDNORM) : 0);
}

/* Answers a read ioctl with `length` bytes of `data`, the rest of the caller's buffer zeroed;
 * the result is what the kernel returns for it (`result`). */
static void reply_bytes(fuse_req_t request, const void *data, size_t length, size_t out_size, int result) {
    char buffer[1024];
    size_t size = out_size < sizeof buffer ? out_size : sizeof buffer;
    memset(buffer, 0, size);
    memcpy(buffer, data, length < size ? length : size);
    fuse_reply_ioctl(request, result, buffer, size);
}

static void reply_bits(fuse_req_t request, const unsigned long *bits, size_t bytes, size_t out_size) {
    size_t copied = bytes < out_size ? bytes : out_size;
    reply_bytes(request, bits, bytes, out_size, (int)copied);
}

static void reply_text(fuse_req_t request, const char *text, size_t out_size) {
    if (text[0] == '\0') {
        fuse_reply_err(request, ENOENT);
        return;
    }
    size_t length = strlen(text) + 1;
    size_t copied = length < out_size ? length : out_size;
    reply_bytes(request, text, copied, out_size, (int)copied);
}

static void op_ioctl(fuse_req_t request, fuse_ino_t inode, unsigned int command, void *argument,
                     struct fuse_file_info *info, unsigned flags, const void *in_buffer, size_t in_size,
                     size_t out_size) {
    (void)argument;
    (void)flags;
    size_t index;
    int is_events;
    if (find_inode(inode, &index, &is_events) != 0 || is_events || _IOC_TYPE(command) != 'E') {
        fuse_reply_err(request, ENOTTY);
        return;
    }
    struct device *device = &devices[index];
    struct client *client = (struct client *)(uintptr_t)info->fh;
    unsigned int number = _IOC_NR(command);
    unsigned int direction = _IOC_DIR(command);

    if (direction == _IOC_READ) {
        if (number == 0x01) { int version = EV_VERSION; reply_bytes(request, &version, sizeof version, out_size, 0); return; }
        if (number == 0x02) { reply_bytes(request, &device->id, sizeof device->id, out_size, 0); return; }
        if (number == 0x06) { reply_text(request, device->name, out_size); return; }
        if (number == 0x07) { reply_text(request, device->phys, out_size); return; }
        if (number == 0x08) { reply_text(request, device->uniq, out_size); return; }
        if (number == 0x09) { reply_bits(request, device->prop_bits, sizeof device->prop_bits, out_size); return; }
        if (number == 0x0a) {
            /* The axis asked for is written into the buffer, which a restricted FUSE ioctl does not
             * pass in: every slot reads -1, which is right for ABS_MT_TRACKING_ID (no touch is down
             * when a driver opens a device) and is overwritten for the others at a touch's start. */
            int32_t slots[256];
            size_t count = out_size / sizeof(int32_t);
            if (count > 256) count = 256;
            for (size_t i = 0; i < count; i++) slots[i] = -1;
            if (count > 0) slots[0] = ABS_MT_TRACKING_ID;
            reply_bytes(request, slots, count * sizeof(int32_t), out_size, 0);
            return;
        }
        if (number == 0x18) { reply_bits(request, device->key_state, sizeof device->key_state, out_size); return; }
        if (number == 0x19 || number == 0x1a || number == 0x1b) {
            unsigned long none[WORDS(KEY_CNT)] = {0};
            reply_bits(request, none, out_size < sizeof none ? out_size : sizeof none, out_size);
            return;
        }
        if (number >= 0x20 && number < 0x20 + EV_CNT) {
            unsigned int type = number - 0x20;
            unsigned long none[WORDS(KEY_CNT)] = {0};
            switch (type) {
            case 0: reply_bits(request, device->ev_bits, sizeof device->ev_bits, out_size); return;
            case EV_KEY: reply_bits(request, device->key_bits, sizeof device->key_bits, out_size); return;
            case EV_REL: reply_bits(request, device->rel_bits, sizeof device->rel_bits, out_size); return;
            case EV_ABS: reply_bits(request, device->abs_bits, sizeof device->abs_bits, out_size); return;
            case EV_MSC: reply_bits(request, device->msc_bits, sizeof device->msc_bits, out_size); return;
            default: reply_bits(request, none, out_size < sizeof none ? out_size : sizeof none, out_size); return;
            }
        }
        if (number >= 0x40 && number < 0x40 + ABS_CNT) {
            unsigned int axis = number - 0x40;
            if (!(device->abs_bits[axis / BITS_PER_WORD] & (1UL << (axis % BITS_PER_WORD)))) {
                fuse_reply_err(request, EINVAL);
                return;
            }
            reply_bytes(request, &device->abs[axis], sizeof device->abs[axis], out_size, 0);
            return;
        }
        /* EVIOCGREP (no key repeat here), EVIOCGKEYCODE, EVIOCGEFFECTS, EVIOCGMASK... */
        fuse_reply_err(request, EINVAL);
        return;
    }
    if (direction == _IOC_WRITE) {
        int value = 0;
        if (in_size >= sizeof value) memcpy(&value, in_buffer, sizeof value);
        if (number == 0x90) { /* EVIOCGRAB */
            int other = 0;
            for (struct client *c = device->clients; c; c = c->next) other |= (c != client && c->grabbed);
            if (value && other) { fuse_reply_err(request, EBUSY); return; }
            client->grabbed = value != 0;
            fuse_reply_ioctl(request, 0, NULL, 0);
            return;
        }
        if (number == 0x91) { fuse_reply_ioctl(request, 0, NULL, 0); return; } /* EVIOCREVOKE */
        if (number == 0xa0) { /* EVIOCSCLOCKID */
            if (value != CLOCK_REALTIME && value != CLOCK_MONOTONIC && value != CLOCK_BOOTTIME) {
                fuse_reply_err(request, EINVAL);
                return;
            }
            client->clock = value;
            fuse_reply_ioctl(request, 0, NULL, 0);
            return;
        }
        if (number >= 0xc0 && number < 0xc0 + ABS_CNT && in_size >= sizeof(struct input_absinfo)) { /* EVIOCSABS */
            unsigned int axis = number - 0xc0;
            int32_t current = device->abs[axis].value;
            memcpy(&device->abs[axis], in_buffer, sizeof(struct input_absinfo));
            device->abs[axis].value = current;
            fuse_reply_ioctl(request, 0, NULL, 0);
            return;
        }
    }
    fuse_reply_err(request, EINVAL);
}

static const struct fuse_lowlevel_ops operations = {
    .lookup = op_lookup,
    .getattr = op_getattr,
    .readdir = op_readdir,
    .open = op_open,
    .release = op_release,
    .read = op_read,
    .write = op_write,
    .poll = op_poll,
    .ioctl = op_ioctl,
};

/* ---- Lifetime ---- */

static void *watch_lifeline(void *unused) {
    (void)unused;
    char buffer[64];
    while (read(STDIN_FILENO, buffer, sizeof buffer) > 0) {
    }
    /* Interrupts the loop's read of /dev/fuse; the handler libfuse installed ends the loop. */
    pthread_kill(main_thread, SIGTERM);
    return NULL;
}

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s MOUNTPOINT NAME=DESCRIPTION-FILE...\n", argv[0]);
        return 2;
    }
    const char *mountpoint = argv[1];
    for (int i = 2; i < argc; i++) {
        if (device_count == MAX_DEVICES) {
            fprintf(stderr, "gesture-evdev-fuse: at most %d devices\n", MAX_DEVICES);
            return 2;
        }
        char *separator = strchr(argv[i], '=');
        if (!separator || separator == argv[i] || (size_t)(separator - argv[i]) >= sizeof devices[0].file_name) {
            fprintf(stderr, "gesture-evdev-fuse: not NAME=FILE: %s\n", argv[i]);
            return 2;
        }
        struct device *device = &devices[device_count];
        memcpy(device->file_name, argv[i], (size_t)(separator - argv[i]));
        if (load_description(device, separator + 1) != 0) return 2;
        device_count++;
    }

    char *fuse_argv[] = {argv[0], "-o", "fsname=gesture-evdev,subtype=gesture-evdev", NULL};
    struct fuse_args arguments = FUSE_ARGS_INIT(3, fuse_argv);
    session = fuse_session_new(&arguments, &operations, sizeof operations, NULL);
    if (!session) return 1;
    if (fuse_set_signal_handlers(session) != 0) return 1;
    if (fuse_session_mount(session, mountpoint) != 0) {
        fuse_remove_signal_handlers(session);
        fuse_session_destroy(session);
        return 1;
    }
    main_thread = pthread_self();
    pthread_t lifeline;
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGHUP);
    /* The watcher thread must never take the signal meant for the loop. */
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    int watching = pthread_create(&lifeline, NULL, watch_lifeline, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (!watching) fprintf(stderr, "gesture-evdev-fuse: no lifeline watcher\n");
    printf("ready\n");
    fflush(stdout);

    int status = fuse_session_loop(session);
    fuse_session_unmount(session);
    fuse_remove_signal_handlers(session);
    fuse_session_destroy(session);
    return status < 0 ? 1 : 0;
}
