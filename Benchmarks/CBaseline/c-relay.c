/* The physical limit of appflipd's two hops, in C with one epoll loop.
     c-relay echo PATH             echoes every line back: the second hop (a live app that answers at once)
     c-relay echo -                the echo on the socket systemd passes (fd 3, LISTEN_FDS=1): the C server
                                   whose first reply through socket activation appflipd's is compared with
     c-relay relay PATH UPSTREAM   forwards each client line to UPSTREAM as "<tag> <line>" over one shared
                                   connection and each upstream line back to the client its tag names:
                                   client -> relay -> echo -> relay -> client, appflipd's live-app path
   Both write the way appflipd does: whatever one loop turn produced for a connection leaves in one write. */
#include "baseline.h"

#define MAX_FDS 65536

struct connection {
    int open;
    uint32_t generation; /* a tag names fd and generation, so a reused fd never gets another's reply */
    struct buffer in, out;
    int dirty;
};

static struct connection connections[MAX_FDS];
static int dirty[MAX_FDS], dirty_count;
static int epoll_fd, upstream_fd = -1;

static void watch(int fd, uint32_t events, int op) {
    struct epoll_event event = {.events = events, .data.fd = fd};
    if (epoll_ctl(epoll_fd, op, fd, &event) < 0) die("epoll_ctl");
}

static void mark_dirty(int fd) {
    if (!connections[fd].dirty) {
        connections[fd].dirty = 1;
        dirty[dirty_count++] = fd;
    }
}

static void open_connection(int fd) {
    if (fd >= MAX_FDS) {
        close(fd);
        return;
    }
    set_nonblocking(fd);
    struct connection *c = &connections[fd];
    c->open = 1;
    c->generation++;
    c->in.length = c->out.length = 0;
    watch(fd, EPOLLIN, EPOLL_CTL_ADD);
}

static void close_connection(int fd) {
    if (fd == upstream_fd) {
        fprintf(stderr, "the upstream closed\n");
        exit(1);
    }
    connections[fd].open = 0;
    close(fd);
}

/* One complete line (without its newline) read from `fd`. */
static void on_line(int fd, const char *line, size_t length, int relaying) {
    if (!relaying) {
        buffer_append(&connections[fd].out, line, length);
        buffer_append(&connections[fd].out, "\n", 1);
        mark_dirty(fd);
    } else if (fd != upstream_fd) {
        char tag[32];
        int tag_length = snprintf(tag, sizeof tag, "%d.%u ", fd, connections[fd].generation);
        buffer_append(&connections[upstream_fd].out, tag, (size_t)tag_length);
        buffer_append(&connections[upstream_fd].out, line, length);
        buffer_append(&connections[upstream_fd].out, "\n", 1);
        mark_dirty(upstream_fd);
    } else {
        const char *space = memchr(line, ' ', length);
        if (!space) return;
        char *dot;
        long client = strtol(line, &dot, 10);
        unsigned long generation = strtoul(dot + 1, NULL, 10);
        if (client < 0 || client >= MAX_FDS || !connections[client].open || connections[client].generation != generation) return;
        size_t rest = length - (size_t)(space + 1 - line);
        buffer_append(&connections[client].out, space + 1, rest);
        buffer_append(&connections[client].out, "\n", 1);
        mark_dirty((int)client);
    }
}

static void on_readable(int fd, int relaying) {
    struct connection *c = &connections[fd];
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
        close_connection(fd);
        return;
    }
    buffer_append(&c->in, chunk, (size_t)n);
    size_t start = 0;
    char *newline;
    while ((newline = memchr(c->in.bytes + start, '\n', c->in.length - start))) {
        size_t end = (size_t)(newline - c->in.bytes);
        on_line(fd, c->in.bytes + start, end - start, relaying);
        start = end + 1;
    }
    buffer_consume(&c->in, start);
    if (c->in.length > MAX_LINE) close_connection(fd);
}

static void flush_dirty(void) {
    for (int i = 0; i < dirty_count; i++) {
        int fd = dirty[i];
        struct connection *c = &connections[fd];
        c->dirty = 0;
        if (!c->open) continue;
        int state = buffer_flush(&c->out, fd);
        if (state < 0) close_connection(fd);
        else if (state > 0) watch(fd, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
    }
    dirty_count = 0;
}

int main(int argc, char **argv) {
    int relaying = argc == 4 && !strcmp(argv[1], "relay");
    if (!relaying && !(argc == 3 && !strcmp(argv[1], "echo"))) {
        fprintf(stderr, "usage: c-relay echo PATH | c-relay relay PATH UPSTREAM\n");
        return 2;
    }
    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (epoll_fd < 0) die("epoll_create1");
    if (relaying) {
        upstream_fd = connect_unix(argv[3]);
        open_connection(upstream_fd);
    }
    int listener = strcmp(argv[2], "-") ? listen_unix(argv[2]) : 3;
    if (listener == 3) set_nonblocking(listener);
    watch(listener, EPOLLIN, EPOLL_CTL_ADD);
    struct epoll_event events[1024];
    for (;;) {
        int count = epoll_wait(epoll_fd, events, 1024, -1);
        if (count < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < count; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) >= 0) open_connection(client);
                continue;
            }
            if (!connections[fd].open) continue;
            if (events[i].events & EPOLLOUT) {
                int state = buffer_flush(&connections[fd].out, fd);
                if (state < 0) {
                    close_connection(fd);
                    continue;
                }
                if (state == 0) watch(fd, EPOLLIN, EPOLL_CTL_MOD);
            }
            if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) on_readable(fd, relaying);
        }
        flush_dirty();
    }
}
