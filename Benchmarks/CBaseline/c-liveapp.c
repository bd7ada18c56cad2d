/* The fastest possible second hop for appflipd: a protocol v1 live app in C that registers for every path
   of one host and answers each `activity` push with `continue: true` at once.
     c-liveapp PATH HOST APPID
   Prints "ready" once registered. The answers to the pushes of one read leave in one write. */
#include "baseline.h"

static void send_line(int fd, const char *bytes, size_t length) {
    while (length) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("write");
        }
        bytes += n;
        length -= (size_t)n;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: c-liveapp PATH HOST APPID\n");
        return 2;
    }
    int fd = connect_unix(argv[1]);
    char registration[1024];
    int length = snprintf(registration, sizeof registration,
                          "{\"id\":\"hello\",\"op\":\"hello\",\"version\":1,\"client\":\"c-liveapp\"}\n"
                          "{\"id\":\"register\",\"op\":\"register\",\"appID\":\"%s\",\"domains\":[\"applinks:%s\"],"
                          "\"components\":[{\"/\":\"*\"}]}\n",
                          argv[3], argv[2]);
    send_line(fd, registration, (size_t)length);
    struct buffer in = {0}, out = {0};
    char chunk[65536];
    int replies = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            return replies >= 2 ? 0 : 1;
        }
        buffer_append(&in, chunk, (size_t)n);
        size_t start = 0;
        char *newline;
        while ((newline = memchr(in.bytes + start, '\n', in.length - start))) {
            const char *line = in.bytes + start;
            size_t line_length = (size_t)(newline - line);
            start += line_length + 1;
            if (replies < 2) {
                if (!memmem(line, line_length, "\"ok\":true", 9)) {
                    fprintf(stderr, "refused: %.*s\n", (int)line_length, line);
                    return 1;
                }
                if (++replies == 2) {
                    printf("ready\n");
                    fflush(stdout);
                }
                continue;
            }
            if (!memmem(line, line_length, "\"push\":\"activity\"", 17)) continue; /* an answer's acknowledgement */
            const char *handoff = memmem(line, line_length, "\"handoff\":", 10);
            if (!handoff) continue;
            unsigned long long number = strtoull(handoff + 10, NULL, 10);
            char answer[128];
            int answer_length = snprintf(answer, sizeof answer, "{\"id\":%llu,\"op\":\"answer\",\"handoff\":%llu,\"continue\":true}\n",
                                         number, number);
            buffer_append(&out, answer, (size_t)answer_length);
        }
        buffer_consume(&in, start);
        if (in.length > MAX_LINE) return 1;
        if (out.length) {
            send_line(fd, out.bytes, out.length);
            out.length = 0;
        }
    }
}
