/* The closed-loop load client for every side of the comparison: the C relay, the NIO relay and appflipd.
     c-load lat  PATH REQUESTS    [-l LINE] [-e EXPECT] [-H]   one connection, REQUESTS sequential round trips
     c-load conc PATH CONNECTIONS [-l LINE] [-e EXPECT] [-H] [-s SECONDS]
                                  CONNECTIONS connections, one request in flight on each, for SECONDS
   -l  the request line (default: an App Flip `open` for https://live.bench/handoff)
   -e  a substring every reply must hold (default "ok":true); a reply without it counts as failed
   -H  say protocol v1's hello first on each connection, as appflipd's clients do
   -w  warm-up: round trips before measuring (lat, default 2000) or seconds (conc, default 0.5)
     c-load first PATH            connect, one request (-l), its reply: prints first_us=… (connect to reply),
                                  the figure for a service started by socket activation on that connection
   Prints one line: mode=… conns=… requests=… failed=… secs=… rate=… p50_us=… p90_us=… p99_us=… max_us=…
   Exits 1 if any reply failed its check. */
#include "baseline.h"

static const char *line = "{\"id\":1,\"op\":\"open\",\"activity\":{\"activityType\":\"NSUserActivityTypeBrowsingWeb\","
                          "\"webpageURL\":\"https://live.bench/handoff\"},\"options\":{\"universalLinksOnly\":true}}";
static const char *expect = "\"ok\":true";
static int say_hello;

static int compare(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *mode, int connections, uint64_t count, uint64_t failed, double seconds, uint32_t *latencies, size_t n) {
    printf("mode=%s conns=%d requests=%llu failed=%llu secs=%.3f rate=%.0f", mode, connections, (unsigned long long)count,
           (unsigned long long)failed, seconds, count / seconds);
    if (n) {
        qsort(latencies, n, sizeof *latencies, compare);
#define PERCENTILE(q) (latencies[(size_t)((q) * (double)(n - 1))] / 1000.0)
        printf(" p50_us=%.2f p90_us=%.2f p99_us=%.2f max_us=%.2f", PERCENTILE(.5), PERCENTILE(.9), PERCENTILE(.99), latencies[n - 1] / 1000.0);
    }
    printf("\n");
    fflush(stdout);
}

/* Reads one whole line from blocking `fd` into `reply`; returns its length. */
static size_t read_line(int fd, struct buffer *reply) {
    reply->length = 0;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) die("read: the server closed the connection");
        buffer_append(reply, chunk, (size_t)n);
        if (chunk[n - 1] == '\n') return reply->length;
        if (reply->length > MAX_LINE) die("reply too long");
    }
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            die("write");
        }
        bytes += n;
        length -= (size_t)n;
    }
}

static int open_connection(const char *path) {
    int fd = connect_unix(path);
    if (say_hello) {
        static const char hello[] = "{\"id\":0,\"op\":\"hello\",\"version\":1,\"client\":\"c-load\"}\n";
        write_all(fd, hello, sizeof hello - 1);
        struct buffer reply = {0};
        read_line(fd, &reply);
        if (!memmem(reply.bytes, reply.length, "\"ok\":true", 9)) {
            fprintf(stderr, "hello refused: %.*s", (int)reply.length, reply.bytes);
            exit(1);
        }
        free(reply.bytes);
    }
    return fd;
}

int main(int argc, char **argv) {
    if (argc < 3 || (argc < 4 && strcmp(argv[1], "first"))) {
        fprintf(stderr, "usage: c-load lat PATH REQUESTS | first PATH | conc PATH CONNECTIONS [-l LINE] [-e EXPECT] [-H] [-s SECONDS] [-w WARMUP]\n");
        return 2;
    }
    const char *mode = argv[1], *path = argv[2];
    long count = argc > 3 ? atol(argv[3]) : 0;
    if (!strcmp(mode, "first")) {
        int option;
        optind = 3;
        while ((option = getopt(argc, argv, "l:e:")) != -1) {
            if (option == 'l') line = optarg;
            else if (option == 'e') expect = optarg;
            else return 2;
        }
        uint64_t start = now_ns();
        int fd = connect_unix(path);
        write_all(fd, line, strlen(line));
        write_all(fd, "\n", 1);
        struct buffer reply = {0};
        size_t length = read_line(fd, &reply);
        uint64_t elapsed = now_ns() - start;
        int ok = memmem(reply.bytes, length, expect, strlen(expect)) != NULL;
        printf("first_us=%.1f ok=%d\n", elapsed / 1000.0, ok);
        return ok ? 0 : 1;
    }
    double seconds = 3, warm_up = -1;
    int option;
    optind = 4;
    while ((option = getopt(argc, argv, "l:e:Hs:w:")) != -1) {
        switch (option) {
        case 'l': line = optarg; break;
        case 'e': expect = optarg; break;
        case 'H': say_hello = 1; break;
        case 's': seconds = atof(optarg); break;
        case 'w': warm_up = atof(optarg); break;
        default: return 2;
        }
    }
    if (count <= 0) return 2;
    size_t request_length = strlen(line) + 1, expect_length = strlen(expect);
    char *request = malloc(request_length);
    memcpy(request, line, request_length - 1);
    request[request_length - 1] = '\n';
    uint64_t failed = 0;

    if (!strcmp(mode, "lat")) {
        long warm = warm_up < 0 ? 2000 : (long)warm_up;
        int fd = open_connection(path);
        uint32_t *latencies = malloc((size_t)count * sizeof *latencies);
        struct buffer reply = {0};
        uint64_t start = 0;
        for (long i = -warm; i < count; i++) {
            if (i == 0) start = now_ns();
            uint64_t sent = now_ns();
            write_all(fd, request, request_length);
            size_t length = read_line(fd, &reply);
            if (!memmem(reply.bytes, length, expect, expect_length)) failed++;
            if (i >= 0) latencies[i] = (uint32_t)(now_ns() - sent);
        }
        report("lat", 1, (uint64_t)count, failed, (now_ns() - start) / 1e9, latencies, (size_t)count);
        return failed ? 1 : 0;
    }
    if (strcmp(mode, "conc")) return 2;

    int connections = (int)count;
    double warm = warm_up < 0 ? 0.5 : warm_up;
    int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    int *fds = calloc((size_t)connections, sizeof *fds);
    uint64_t *sent = calloc((size_t)connections, sizeof *sent);
    struct buffer *replies = calloc((size_t)connections, sizeof *replies);
    size_t capacity = 20000000, n = 0;
    uint32_t *latencies = malloc(capacity * sizeof *latencies);
    for (int i = 0; i < connections; i++) {
        fds[i] = open_connection(path);
        set_nonblocking(fds[i]);
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fds[i], &event) < 0) die("epoll_ctl");
    }
    uint64_t begin = now_ns(), measure_from = begin + (uint64_t)(warm * 1e9), end = measure_from + (uint64_t)(seconds * 1e9);
    uint64_t measured = 0, measuring_since = 0;
    for (int i = 0; i < connections; i++) {
        sent[i] = now_ns();
        write_all(fds[i], request, request_length);
    }
    struct epoll_event events[1024];
    char chunk[65536];
    for (;;) {
        int ready = epoll_wait(epoll_fd, events, 1024, 100);
        uint64_t now = now_ns();
        if (!measuring_since && now >= measure_from) {
            measuring_since = now;
            measured = n = 0;
            failed = 0;
        }
        if (now >= end) break;
        for (int k = 0; k < ready; k++) {
            int i = (int)events[k].data.u32;
            ssize_t got = read(fds[i], chunk, sizeof chunk);
            if (got <= 0) {
                if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                die("read: the server closed a connection");
            }
            buffer_append(&replies[i], chunk, (size_t)got);
            if (replies[i].bytes[replies[i].length - 1] != '\n') continue;
            if (!memmem(replies[i].bytes, replies[i].length, expect, expect_length)) failed++;
            replies[i].length = 0;
            uint64_t done = now_ns();
            if (measuring_since) {
                measured++;
                if (n < capacity) latencies[n++] = (uint32_t)(done - sent[i]);
            }
            sent[i] = done;
            write_all(fds[i], request, request_length);
        }
    }
    report("conc", connections, measured, failed, (now_ns() - measuring_since) / 1e9, latencies, n);
    return failed ? 1 : 0;
}
