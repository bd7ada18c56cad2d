/* The C anchor of the first reply through socket activation: it stands in for appflipd under
   appflipd.service (same unit, same sandbox), so it ignores its arguments, says READY=1 as a Type=notify
   service must, and answers each line on the socket systemd passes (fd 3) with the line itself.
   scripts/systemd-e2e.sh times connect -> first reply for it and for appflipd in alternation. */
#include "baseline.h"

#include <stddef.h>

/* sd_notify(3)'s READY=1 without libsystemd: one datagram to $NOTIFY_SOCKET. */
static void notify_ready(void) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (!path || (path[0] != '/' && path[0] != '@')) return;
    struct sockaddr_un address = unix_address(path);
    if (path[0] == '@') address.sun_path[0] = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    socklen_t length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
    (void)!sendto(fd, "READY=1", 7, 0, (struct sockaddr *)&address, length);
    close(fd);
}

int main(void) {
    const char *fds = getenv("LISTEN_FDS");
    if (!fds || atoi(fds) < 1) {
        fprintf(stderr, "c-activated: no socket passed (LISTEN_FDS)\n");
        return 1;
    }
    notify_ready();
    char buffer[65536];
    for (;;) {
        int client = accept4(3, NULL, NULL, SOCK_CLOEXEC);
        if (client < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            die("accept4");
        }
        /* Blocking: one client at a time is all a first reply needs. */
        ssize_t n;
        while ((n = read(client, buffer, sizeof buffer)) > 0) {
            if (write(client, buffer, (size_t)n) != n) break;
        }
        close(client);
    }
}
