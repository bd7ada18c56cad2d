#!/bin/bash
# End-to-end tests under a real systemd + journald, booted as PID 1 of a private PID + mount namespace
# and shielded so that the boot cannot touch the host (see docs/testing.md, "The systemd end-to-end suites").
#
#   scripts/systemd-e2e.sh probe     the units, install script and Systemd module, with systemd-probe
#                                    installed as appflipd (needs: swift build -c release --product systemd-probe)
#   scripts/systemd-e2e.sh daemon    the same units with the real appflipd and appflip (issue 5 §4)
#   scripts/systemd-e2e.sh package   the Debian package on a root without Swift: apt-get install, a flip
#                                    through socket activation, remove, purge (issue 14 §2; needs:
#                                    scripts/package/build)
#
# Variables:
#   BUILD_DIR         the release build [.build/release]
#   STATIC_BUILD_DIR  a second build made with --static-swift-stdlib, to compare the first reply []
#   PACKAGE           the .deb of `package` mode [the newest .build-release/package/appflipd_*.deb]
#   TEST_BINARY       the package's test executable; its JournalIntegrationTests run inside the
#                     namespace against the real journald; empty skips them
#                     [.build/debug/appflipdPackageTests.xctest]
#   E2E_SAMPLES       cold starts per build for the first-reply figure [11]
#   BENCH_BIN         the folder of an appflip-bench, which holds the first reply to its threshold
#                     (Benchmarks/Thresholds/first-reply.json) [the first of BUILD_DIR, .build-release/release
#                     and .build/debug that has one]
#   E2E_LOAD_LINE     the request line of the load steps, %d = index (see systemd-e2e/client.py)
#   E2E_KEEP=1        leave the namespace running at the end, for inspection
#   WORK              scratch folder, outside /tmp [.build/systemd-e2e]
# Exit status: 0 when every check passed. Prints the systemd-analyze security scores and the figures.
set -uo pipefail

mode=${1:-probe}
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$root/.build/release}
WORK=${WORK:-$root/.build/systemd-e2e}
STATIC_BUILD_DIR=${STATIC_BUILD_DIR:-}
TEST_BINARY=${TEST_BINARY-$root/.build/debug/appflipdPackageTests.xctest}
SOCKET=/run/appflipd/appflipd.sock
# One request line. The probe answers any line; appflipd answers hello (protocol v1) with hello.
HELLO='{"op":"hello","id":"e2e","version":1}'
CLIENT="/usr/bin/python3 $root/scripts/systemd-e2e/client.py"
UNITS=/usr/local/lib/systemd/system
failures=0
ns_pid=""
unshare_pid=""

log() { printf '%s e2e: %s\n' "$(date -u +%H:%M:%S)" "$*"; }
pass() { log "PASS $*"; }
failed_checks=()
fail() { log "FAIL $*"; failures=$((failures + 1)); failed_checks+=("$*"); }
# check DESCRIPTION COMMAND...: one named check.
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
# in_ns COMMAND...: runs inside the test namespace (its mounts and PIDs). Redirections stay on the host.
in_ns() { nsenter -t "$ns_pid" -p -m -- "$@"; }
# wait_until SECONDS COMMAND...: polls every 100 ms; false when time runs out.
wait_until() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
unit_property() { in_ns systemctl show -p "$2" --value "$1"; }
main_pid() { unit_property appflipd.service MainPID; }
# signal_main SIGNAL: signals the daemon, never "pid 0" (which would be this script's own process group).
signal_main() {
    local pid; pid=$(main_pid)
    case $pid in ''|0|*[!0-9]*) log "no main process to send $1 to"; return 1 ;; esac
    in_ns kill "-$1" "$pid"
}

case $mode in
probe)
    daemon=$BUILD_DIR/systemd-probe
    ;;
daemon)
    daemon=$BUILD_DIR/appflipd
    [ -x "$BUILD_DIR/appflip" ] || { log "no $BUILD_DIR/appflip; build the products first"; exit 2; }
    # Issue 5 §4 against the real daemon: the steps and E2E_LOAD_LINE (one handoff per load request).
    source "$root/scripts/systemd-e2e/daemon-steps.sh"
    ;;
package)
    PACKAGE=${PACKAGE:-$(ls -t "$root"/.build-release/package/appflipd_*.deb 2>/dev/null | head -1)}
    [ -f "$PACKAGE" ] || { log "no package; build it first: scripts/package/build"; exit 2; }
    source "$root/scripts/systemd-e2e/package-steps.sh"
    daemon=$PACKAGE
    ;;
*) echo "usage: $0 probe|daemon|package" >&2; exit 2 ;;
esac
[ "$mode" = package ] || [ -x "$daemon" ] || { log "no $daemon; run: swift build -c release --product $(basename "$daemon")"; exit 2; }
command -v nsenter >/dev/null && command -v unshare >/dev/null || { log "needs util-linux (unshare, nsenter)"; exit 2; }
[ "$(id -u)" = 0 ] || { log "needs root (namespaces, mounts)"; exit 2; }

# ---------------------------------------------------------------------------------------------------
# The shielded boot.
rm -rf "$WORK"
mkdir -p "$WORK/bin" "$WORK/config" "$WORK/out" "$WORK/pkg"
if [ "$mode" = package ]; then cp "$PACKAGE" "$WORK/pkg/"; else cp "$daemon" "$WORK/bin/appflipd"; fi
[ "$mode" = daemon ] && cp "$BUILD_DIR/appflip" "$WORK/bin/appflip"
if [ -n "$STATIC_BUILD_DIR" ]; then cp "$STATIC_BUILD_DIR/$(basename "$daemon")" "$WORK/bin/appflipd-static"; fi
# The C anchor of the start-up figure: a minimal socket-activated server run by the same unit.
[ "$mode" != probe ] && cc -O2 -Wall -Wextra -Werror -o "$WORK/bin/c-activated" "$root/Benchmarks/CBaseline/c-activated.c"
if [ "$mode" = probe ]; then echo "generation-1" > "$WORK/config/probe.conf"; else cp -r "$root/Config/." "$WORK/config/"; fi

cat > "$WORK/ns-init.sh" <<'INIT'
#!/bin/sh
# PID 1 of the test namespace. Covers every piece of host state the boot would change, then execs systemd.
set -eu
work=$1
root=$2
mode=$3
# 1. The work folder at a stable path, and the checkout held at /media, before /tmp is covered: a CI clone
#    may well live under /tmp, and the steps reach scripts and test binaries through its path.
mount --bind "$work" /mnt
mount --bind "$root" /media
# 1b. `package` mode: apt-get and dpkg write /usr, /var/cache and /var/log, into overlays whose writes land
#     in the work folder; /var/log before its journal is covered below. The Swift toolchain is hidden.
if [ "$mode" = package ]; then
    for dir in /usr /var/cache /var/log; do
        layer=/mnt/overlay$dir
        mkdir -p "$layer/upper" "$layer/work"
        mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layer/upper,workdir=$layer/work" "$dir"
    done
    if [ -d /opt/swift ]; then mount -t tmpfs -o mode=755 tmpfs /opt/swift; fi
    # A container image's policy-rc.d (exit 101: start nothing) would keep the postinst from starting the
    # sockets; in here the machine is a whole systemd one, so the policy goes (from the overlay only).
    rm -f /usr/sbin/policy-rc.d
fi
# 2. Host state under tmpfs: a boot empties /tmp and /var/tmp and writes /run and the journal.
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
[ -d /var/log/journal ] && mount -t tmpfs -o mode=2755 tmpfs /var/log/journal
mount -t tmpfs -o mode=755 tmpfs /run
# /etc (sysusers adds the group), /usr/local (the install), /var/lib (systemd's state) and /root (the
# user units' configuration) are overlays whose writes land in this namespace's /run and vanish with it.
for dir in /etc /usr/local /var/lib /root; do
    layer=/run/e2e-overlay$dir
    mkdir -p "$layer/upper" "$layer/work"
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layer/upper,workdir=$layer/work" "$dir"
done
# The checkout again at its own path, wherever it is: after every cover above, so none of them hides it.
mkdir -p "$root"
mount --bind /media "$root"
# 3. Units that touch host-global state never run.
mkdir -p /run/systemd/system
for unit in timers.target systemd-tmpfiles-setup.service systemd-tmpfiles-setup-dev.service \
    systemd-tmpfiles-clean.timer systemd-sysctl.service systemd-binfmt.service \
    proc-sys-fs-binfmt_misc.automount systemd-modules-load.service kmod-static-nodes.service \
    systemd-remount-fs.service systemd-sysusers.service systemd-update-utmp.service \
    systemd-timesyncd.service systemd-random-seed.service systemd-pstore.service \
    systemd-firstboot.service systemd-machine-id-commit.service systemd-repart.service \
    systemd-journal-catalog-update.service systemd-update-done.service ldconfig.service \
    systemd-hwdb-update.service; do
    ln -sf /dev/null "/run/systemd/system/$unit"
done
exec /lib/systemd/systemd --system --unit=basic.target
INIT
chmod +x "$WORK/ns-init.sh"

shutdown_namespace() {
    [ -n "$unshare_pid" ] || return 0
    if [ -n "${E2E_KEEP:-}" ]; then log "E2E_KEEP: left running; stop it with: nsenter -t $ns_pid -p -m systemctl poweroff"; return 0; fi
    if [ -n "$ns_pid" ] && kill -0 "$ns_pid" 2>/dev/null; then
        in_ns systemctl poweroff >/dev/null 2>&1 || true
    fi
    local waited=0
    while kill -0 "$unshare_pid" 2>/dev/null && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$unshare_pid" 2>/dev/null; then
        log "namespace did not power off; killing its PID 1 ($ns_pid)"
        kill -9 "$ns_pid" 2>/dev/null || true
        wait "$unshare_pid" 2>/dev/null || true
    fi
    unshare_pid=""
}
trap shutdown_namespace EXIT
# A timeout or ^C still powers the namespace off (through the EXIT trap).
trap 'log "interrupted"; exit 130' INT TERM

log "booting systemd in a shielded namespace (work: $WORK)"
unshare --pid --fork --mount --mount-proc --propagation private "$WORK/ns-init.sh" "$WORK" "$root" "$mode" \
    >"$WORK/out/boot.log" 2>&1 &
unshare_pid=$!
find_ns_pid() { ns_pid=$(cat /proc/"$unshare_pid"/task/*/children 2>/dev/null | awk '{print $1}'); [ -n "$ns_pid" ]; }
wait_until 10 find_ns_pid || { log "no namespace PID 1"; exit 1; }
booted() { case $(in_ns systemctl is-system-running 2>/dev/null) in running|degraded) return 0 ;; *) return 1 ;; esac; }
if ! wait_until 60 booted; then log "systemd did not boot"; in_ns systemctl --failed || true; exit 1; fi
log "systemd is up as PID $ns_pid: $(in_ns systemctl is-system-running 2>/dev/null || true)"

# ---------------------------------------------------------------------------------------------------
# Install and static checks.
# The OAuth2 loopback port: the namespace shares the host's network, so take a free one.
oauth_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Figures: the first reply through socket activation (the client's connect→reply), as a summary.
summary() { sort -n | awk '{a[NR]=$1} END {printf "median %.1f ms (min %.1f, max %.1f, n=%d)", a[int((NR+1)/2)]*1000, a[1]*1000, a[NR]*1000, NR}'; }
finish() {
    shutdown_namespace
    if [ $failures -eq 0 ]; then
        log "all checks passed"
    else
        log "$failures check(s) failed (the logs are in $WORK/out):"
        for name in "${failed_checks[@]}"; do log "  FAILED: $name"; done
    fi
    exit $((failures > 0))
}
if [ "$mode" = package ]; then
    package_steps
    finish
fi
in_ns env APPFLIPD=/mnt/bin/appflipd BUILD_DIR=/mnt/bin CONFIG_SOURCE=/mnt/config OAUTH_PORT="$oauth_port" \
    "$root/scripts/install.sh" >"$WORK/out/install.log" 2>&1
if [ "$mode" = probe ]; then
    # The probe stands in for the embedded OAuth2 server on the same port.
    in_ns mkdir -p /run/systemd/system/appflipd.service.d
    printf '[Service]\nEnvironment=PROBE_HTTP_PORT=%s\n' "$oauth_port" \
        >"$WORK/probe-dropin.conf"
    in_ns cp /mnt/probe-dropin.conf /run/systemd/system/appflipd.service.d/e2e-probe.conf
    in_ns systemctl daemon-reload
fi
[ "$mode" = daemon ] && daemon_install_fixtures
check "install.sh installs units, sysusers entry and config" in_ns test -f $UNITS/appflipd.service
check "sysusers created the appflip group inside the namespace" in_ns getent group appflip
check "the host's /etc/group is untouched" bash -c '! getent group appflip'
check "the host's /usr/local is untouched" test ! -e $UNITS/appflipd.service

in_ns systemd-analyze verify $UNITS/appflipd.socket $UNITS/appflipd.service $UNITS/appflipd-oauth.socket \
    $UNITS/appflipd-oauth-proxy.service >"$WORK/out/verify.log" 2>&1
check "systemd-analyze verify is clean" test ! -s "$WORK/out/verify.log"
[ -s "$WORK/out/verify.log" ] && cat "$WORK/out/verify.log"
in_ns sh -c 'mkdir -p -m 0700 /run/user/0 && XDG_RUNTIME_DIR=/run/user/0 systemd-analyze --user verify \
    /usr/local/lib/systemd/user/appflipd.socket /usr/local/lib/systemd/user/appflipd.service' >"$WORK/out/verify-user.log" 2>&1
check "systemd-analyze --user verify is clean for the user units" test ! -s "$WORK/out/verify-user.log"
for service in appflipd.service appflipd-oauth-proxy.service; do
    in_ns systemd-analyze security $service >"$WORK/out/security-$service.log" 2>&1
    score=$(sed -n "s/.*Overall exposure level for $service: \([0-9.]*\).*/\1/p" "$WORK/out/security-$service.log")
    log "systemd-analyze security $service: $(grep 'Overall exposure level' "$WORK/out/security-$service.log" | sed 's/.*: //')"
    check "$service exposure $score <= 1.0" awk -v s="$score" 'BEGIN { exit !(s != "" && s <= 1.0) }'
done

# The Systemd module's journal test, against this journald.
if [ -z "$TEST_BINARY" ]; then
    log "TEST_BINARY is empty: JournalIntegrationTests not run"
elif [ -x "$TEST_BINARY" ]; then
    in_ns "$TEST_BINARY" --testing-library swift-testing --filter JournalIntegrationTests >"$WORK/out/journal-test.log" 2>&1
    check "JournalIntegrationTests pass against the real journald (not skipped)" bash -c \
        "grep -Eq 'Test run with [0-9]+ tests? in .* passed' '$WORK/out/journal-test.log' && ! grep -q skipped '$WORK/out/journal-test.log'"
else
    fail "no test binary at $TEST_BINARY (swift build --build-tests)"
fi

# ---------------------------------------------------------------------------------------------------
# Socket activation, notify, journal.
in_ns systemctl start appflipd.socket
check "the socket is 0660 root:appflip" test "$(in_ns stat -c '%a %U:%G' $SOCKET)" = "660 root:appflip"
check "the service is not running before the first connection" \
    test "$(unit_property appflipd.service ActiveState)" = inactive
check "a user outside the group is refused" in_ns setpriv --reuid=65534 --regid=65534 --clear-groups \
    $CLIENT denied $SOCKET
group_id=$(in_ns getent group appflip | cut -d: -f3)
check "a member of the group is served" in_ns setpriv --reuid=65534 --regid=65534 --groups="$group_id" \
    $CLIENT request $SOCKET "$HELLO"
if [ "$mode" = daemon ]; then
    # NIO calls listen() again on the adopted socket: with the configuration's listenBacklog, which must
    # equal the unit's Backlog= (ss shows a listening socket's backlog as its Send-Q).
    log "ss -xl of the adopted socket: $(in_ns ss -xlH src $SOCKET)"
    check "the adopted socket keeps Backlog=1024 (listenBacklog)" \
        test "$(in_ns ss -xlH src $SOCKET | awk '{print $4}')" = 1024
fi

# first_reply BINARY: stops the service, installs BINARY, and times connect→reply of the first request.
first_reply() {
    in_ns systemctl stop appflipd.service
    in_ns systemctl reset-failed appflipd.service  # these restarts are deliberate: no start limit
    in_ns install -m 0755 "$1" /usr/local/bin/appflipd
    in_ns $CLIENT request $SOCKET "$HELLO" | tail -1
}

if [ "$mode" = probe ]; then
    in_ns systemctl stop appflipd.service
    reply=$(in_ns $CLIENT request $SOCKET "$HELLO")
    check "the first connection activated the service and got a reply" \
        grep -q '"op":"probe"' <<<"$reply"
    check "the service reached active (READY=1)" test "$(unit_property appflipd.service ActiveState)" = active
    check "STATUS= reached systemctl status" \
        test "$(unit_property appflipd.service StatusText)" = "Serving configuration generation 1"

    in_ns journalctl -u appflipd.service -o json --no-pager >"$WORK/out/journal.json"
    check "journalctl -o json shows the structured fields and never the code" \
        $CLIENT journal "$WORK/out/journal.json" PROBE-SECRET-CODE

    # Reload: a good configuration is taken, a broken one is refused and the old one keeps serving.
    echo "generation-2" > "$WORK/config/probe.conf"
    in_ns cp /mnt/config/probe.conf /etc/appflipd/probe.conf
    in_ns systemctl reload appflipd.service
    check "reload took the new configuration (STATUS=)" wait_until 10 bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p StatusText --value appflipd.service)\" = 'Serving configuration generation 2' ]"
    check "requests are served by the new configuration" \
        grep -q '"generation":2' <<<"$(in_ns $CLIENT request $SOCKET "$HELLO")"
    in_ns sh -c 'echo broken > /etc/appflipd/probe.conf'
    pid_before=$(main_pid)
    in_ns systemctl reload appflipd.service
    check "a broken reload says why in systemctl status" wait_until 10 bash -c \
        "nsenter -t $ns_pid -p -m systemctl show -p StatusText --value appflipd.service | grep -q 'Reload failed, still serving generation 2'"
    check "after a broken reload the old configuration serves, same process" bash -c \
        "grep -q '\"generation\":2' <<<\"\$(nsenter -t $ns_pid -p -m $CLIENT request $SOCKET '$HELLO')\" && [ $pid_before = \$(nsenter -t $ns_pid -p -m systemctl show -p MainPID --value appflipd.service) ]"
    check "the journal has the reload error at priority 3" bash -c \
        "nsenter -t $ns_pid -p -m journalctl -u appflipd.service -o json PRIORITY=3 --no-pager | grep -q 'not a configuration'"
    in_ns cp /mnt/config/probe.conf /etc/appflipd/probe.conf

    # The embedded OAuth2 server's stand-in, reached from the host through the proxy.
    in_ns systemctl start appflipd-oauth.socket
    check "127.0.0.1:$oauth_port on the host reaches the server inside the private network" bash -c \
        "/usr/bin/python3 -c 'import socket; s = socket.create_connection((\"127.0.0.1\", $oauth_port), 5); s.sendall(b\"GET / HTTP/1.0\\r\\n\\r\\n\"); print(s.recv(4096).decode())' | grep -q systemd-probe"
    check "the daemon's network namespace has only a loopback interface" bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m awk -F: 'NR > 2 {print \$1}' /proc/\$(nsenter -t $ns_pid -p -m systemctl show -p MainPID --value appflipd.service)/net/dev | tr -d ' ')\" = lo ]"

    # The user units, under root's user manager.
    user_ctl() { in_ns env XDG_RUNTIME_DIR=/run/user/0 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/0/bus systemctl --user "$@"; }
    in_ns systemctl start user@0.service
    in_ns sh -c 'mkdir -p /root/.config/appflipd && echo generation-1 > /root/.config/appflipd/probe.conf'
    user_ctl daemon-reload
    user_ctl start appflipd.socket
    check "the user socket is 0600 in \$XDG_RUNTIME_DIR" \
        test "$(in_ns stat -c '%a' /run/user/0/appflipd/appflipd.sock)" = 600
    check "the user units: the first connection activates the user service" \
        in_ns $CLIENT request /run/user/0/appflipd/appflipd.sock "$HELLO"
    check "the user service is ready, reading ~/.config/appflipd" \
        test "$(user_ctl show -p StatusText --value appflipd.service)" = "Serving configuration generation 1"
    user_ctl stop appflipd.socket appflipd.service
    in_ns systemctl stop user@0.service
    check "the host's /root is untouched" test ! -e /root/.config/appflipd
fi

[ "$mode" = daemon ] && daemon_steps_routing

# ---------------------------------------------------------------------------------------------------
# Watchdog: a stopped process stops answering its liveness probe; systemd must restart it.
restarts_before=$(unit_property appflipd.service NRestarts)
pid_before=$(main_pid)
signal_main STOP
log "SIGSTOP sent to $pid_before; waiting for the watchdog (WatchdogSec=$(unit_property appflipd.service WatchdogUSec))"
restarted() { local pid; pid=$(main_pid); [ "$pid" != 0 ] && [ "$pid" != "$pid_before" ] && [ "$(unit_property appflipd.service ActiveState)" = active ]; }
check "the watchdog restarted the stopped daemon" wait_until 40 restarted
check "NRestarts went up" test "$(unit_property appflipd.service NRestarts)" -gt "$restarts_before"
check "systemd logged the watchdog timeout" bash -c \
    "nsenter -t $ns_pid -p -m journalctl -u appflipd.service --no-pager | grep -q 'Watchdog timeout'"

# kill -9 and restart under load: connections queued on the socket are served by the next process; a
# connection dropped before any reply is retried by the client.
# under_load NAME COMMAND...: runs COMMAND once 1,000 of 4,000 requests (8 at a time) are done.
under_load() {
    local name=$1; shift
    rm -f "$WORK/out/load.progress"
    in_ns $CLIENT load $SOCKET 4000 8 /mnt/out/load.progress >"$WORK/out/load-$name.json" &
    local load_pid=$!
    wait_until 30 bash -c "[ \"\$(cat '$WORK/out/load.progress' 2>/dev/null || echo 0)\" -ge 1000 ]"
    log "$name of $(main_pid) after $(cat "$WORK/out/load.progress" 2>/dev/null) of 4000 requests"
    "$@"
    wait $load_pid
    log "$name under load: $(cat "$WORK/out/load-$name.json")"
    check "$name under load lost no request (every one answered ok)" /usr/bin/python3 -c \
        "import json,sys; r=json.load(open('$WORK/out/load-$name.json')); sys.exit(0 if r['lost']==0 and r['ok']==4000 else 1)"
}
under_load "kill -9" signal_main KILL
log "RSS of the process that served the rest of the load: $(in_ns grep -E 'VmRSS|VmHWM' /proc/"$(main_pid)"/status | awk '{printf "%s %s %s  ", $1, $2, $3}')"
[ "$mode" = daemon ] && daemon_steps_kill
under_load "systemctl restart" in_ns systemctl restart appflipd.service
[ "$mode" = daemon ] && daemon_steps_stop

# Graceful stop.
pid_before=$(main_pid)
in_ns systemctl stop appflipd.service
check "systemctl stop ended the daemon cleanly (Result=success)" \
    test "$(unit_property appflipd.service Result)" = success
check "the socket outlives the service" test "$(unit_property appflipd.socket ActiveState)" = active

# hold_first_reply APPFLIPD_MEDIAN C_MEDIAN: appflipd's first reply over the C server's, held to its threshold
# by appflip-bench --check-thresholds, which prints the verdict.
hold_first_reply() {
    local bench
    for bench in "${BENCH_BIN:-$BUILD_DIR}" "$root/.build-release/release" "$root/.build/debug"; do
        [ -x "$bench/appflip-bench" ] && break
    done
    [ -x "$bench/appflip-bench" ] || { log "no appflip-bench to hold the first reply to its threshold"; return 1; }
    python3 -c "import json, sys; print(json.dumps({'first reply through socket activation / c-activated': float(sys.argv[1]) / float(sys.argv[2])}))" \
        "$1" "$2" | "$bench/appflip-bench" --check-thresholds "$root/Benchmarks/Thresholds/first-reply.json"
}

# Figures: the first reply through socket activation, against a C server run by the same unit (its sandbox
# and systemd's spawn cost the same for both), and with the static Swift stdlib when STATIC_BUILD_DIR is set;
# measured alternately (E2E_SAMPLES cold starts each) so that the machine's drift hits them all alike.
labels=("C server" "dynamic stdlib")
binaries=(/mnt/bin/c-activated /mnt/bin/appflipd)
if [ -n "$STATIC_BUILD_DIR" ]; then labels+=("--static-swift-stdlib"); binaries+=(/mnt/bin/appflipd-static); fi
declare -A samples medians
for _ in $(seq "${E2E_SAMPLES:-11}"); do
    for index in "${!binaries[@]}"; do
        samples[$index]+="$(first_reply "${binaries[$index]}")"$'\n'
    done
done
for index in "${!binaries[@]}"; do
    medians[$index]=$(printf '%s' "${samples[$index]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    log "first reply through socket activation (${labels[$index]}): $(printf '%s' "${samples[$index]}" | grep . | summary)" \
        "$([ "$index" -gt 0 ] && python3 -c "print(f'= {${medians[$index]}/${medians[0]}:.1f}x the C server')")"
    [ "$index" -eq 0 ] && continue
    [ "$index" -eq 1 ] && [ "$mode" != probe ] &&
        check "the first reply keeps its threshold (Benchmarks/Thresholds/first-reply.json)" \
            hold_first_reply "${medians[1]}" "${medians[0]}"
    first_reply "${binaries[$index]}" >/dev/null
    sleep 1
    log "idle RSS after one request (${labels[$index]}): $(in_ns grep VmRSS /proc/"$(main_pid)"/status | awk '{print $2, $3}')"
done
log "binary sizes: $(stat -c '%n %s' "$WORK"/bin/appflipd* | sed "s|$WORK/bin/||" | tr '\n' ' ')"

finish
