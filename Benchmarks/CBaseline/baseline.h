/* The C baseline's shared parts: clocks, Unix sockets, and a connection with bounded line buffers.
   The physical limit of appflipd's work is what these programs do with it: no JSON, no routing, no
   bookkeeping, one epoll loop per process. See docs/performance.md. */
#ifndef APPFLIP_BASELINE_H
#define APPFLIP_BASELINE_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A line longer than this closes its connection: memory stays bounded per peer, as in appflipd. */
#define MAX_LINE (256 * 1024)

static inline uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void die(const char *what) {
    fprintf(stderr, "%s: %s\n", what, strerror(errno));
    exit(1);
}

static inline void set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) die("fcntl");
}

static inline struct sockaddr_un unix_address(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        fprintf(stderr, "socket path too long: %s\n", path);
        exit(2);
    }
    strcpy(address.sun_path, path);
    return address;
}

static inline int connect_unix(const char *path) {
    struct sockaddr_un address = unix_address(path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket");
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) die(path);
    return fd;
}

static inline int listen_unix(const char *path) {
    struct sockaddr_un address = unix_address(path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) die("socket");
    unlink(path);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) die(path);
    if (listen(fd, 4096) < 0) die("listen");
    return fd;
}

/* A growable byte buffer: what a connection has read and not yet framed, or has to write. */
struct buffer {
    char *bytes;
    size_t length, capacity;
};

static inline void buffer_append(struct buffer *b, const char *bytes, size_t length) {
    if (b->length + length > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + length) capacity *= 2;
        if (!(b->bytes = realloc(b->bytes, capacity))) die("realloc");
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, length);
    b->length += length;
}

static inline void buffer_consume(struct buffer *b, size_t length) {
    memmove(b->bytes, b->bytes + length, b->length - length);
    b->length -= length;
}

/* Writes what `b` holds; returns 0 when all of it left, 1 when the socket is full, -1 on an error. */
static inline int buffer_flush(struct buffer *b, int fd) {
    size_t written = 0;
    while (written < b->length) {
        ssize_t n = write(fd, b->bytes + written, b->length - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) break;
            return -1;
        }
        written += (size_t)n;
    }
    buffer_consume(b, written);
    return b->length ? 1 : 0;
}

#endif
