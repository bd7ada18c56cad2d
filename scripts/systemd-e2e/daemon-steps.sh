# Issue 5 §4, steps 2–5 and 8, against the real appflipd and appflip. Sourced by systemd-e2e.sh in
# `daemon` mode, after the units are installed, the socket is started and the watchdog and kill -9
# steps (6, 7) have run; uses its helpers (in_ns, check, wait_until, unit_property, main_pid).
#
# NOT YET RUN: written before the daemon was merged, from issue 3's protocol and CLI. Each step needs
# what its comment names; set these for the repository's Config/ and fixtures:
#   E2E_FLIP_LINK, E2E_FLIP_CLIENT_ID  a flip link and client id the default Config/ accepts
#   E2E_NEW_APP_FILE, E2E_NEW_APP_URL  an apps.d file absent from Config/, and a URL only it claims
#   E2E_SLOW_APP_FILE, E2E_SLOW_APP_URL an apps.d file whose exec handler takes ~3 s, and its URL
APPFLIP="/mnt/bin/appflip"
apps_dir=/etc/appflipd/apps.d

# 2. The first connection of `appflip flip` activates the service.
in_ns systemctl stop appflipd.service
in_ns systemctl reset-failed appflipd.service
check "daemon: the service is inactive before the flip" test "$(unit_property appflipd.service ActiveState)" = inactive
in_ns $APPFLIP flip --json --link "${E2E_FLIP_LINK:?}" --client-id "${E2E_FLIP_CLIENT_ID:?}" >"$WORK/out/flip.json"
check "daemon: appflip flip succeeded through socket activation" test $? -eq 0
check "daemon: the flip activated the service" test "$(unit_property appflipd.service ActiveState)" = active

# 3. The journal shows the handoff with its structured fields and without the code.
in_ns journalctl -u appflipd.service -o json --no-pager >"$WORK/out/daemon-journal.json"
check "daemon: journal has the handoff's fields and no code" /usr/bin/python3 - "$WORK/out/daemon-journal.json" <<'PY'
import json, re, sys
entries = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
handoffs = [e for e in entries if "APPFLIP_HANDOFF_ID" in e]
problems = [] if handoffs else ["no entry with APPFLIP_HANDOFF_ID"]
if handoffs and not any("APPFLIP_APP" in e and "APPFLIP_OUTCOME" in e for e in handoffs):
    problems.append("no handoff entry with both APPFLIP_APP and APPFLIP_OUTCOME")
unredacted = re.compile(r"[?&;#\s]code=(?!\[redacted\])[^&\s]+")
for entry in entries:
    for key, value in entry.items():
        if unredacted.search(str(value)):
            problems.append(f"{key} carries a code: {value}")
for problem in problems:
    print("journal:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

# 4. Reload with a new app file; a link for the new app is routed to it.
status_generation() { unit_property appflipd.service StatusText; }
in_ns install -m 0644 "${E2E_NEW_APP_FILE:?}" "$apps_dir/e2e-new.json"
status_before=$(status_generation)
pid_before=$(main_pid)
in_ns systemctl reload appflipd.service
check "daemon: reload finished (STATUS= changed)" wait_until 10 bash -c \
    "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p StatusText --value appflipd.service)\" != '$status_before' ]"
check "daemon: reload kept the process" test "$(main_pid)" = "$pid_before"
check "daemon: the new app's link is routed to it" bash -c \
    "nsenter -t $ns_pid -p -m $APPFLIP explain --json '${E2E_NEW_APP_URL:?}' | grep -q '\"e2e'"

# 5. Reload with a broken file: the previous configuration keeps serving, and STATUS= says why.
in_ns sh -c "echo '{ not json' > $apps_dir/e2e-broken.json"
in_ns systemctl reload appflipd.service
sleep 1
log "daemon: STATUS after a broken reload: $(status_generation)"
check "daemon: a broken reload keeps the process" test "$(main_pid)" = "$pid_before"
check "daemon: after a broken reload the new app still routes" bash -c \
    "nsenter -t $ns_pid -p -m $APPFLIP explain --json '$E2E_NEW_APP_URL' | grep -q '\"e2e'"
check "daemon: the journal names the broken file" bash -c \
    "nsenter -t $ns_pid -p -m journalctl -u appflipd.service --no-pager -p err | grep -q e2e-broken.json"
in_ns rm -f "$apps_dir/e2e-broken.json"

# 8. `systemctl stop` drains a handoff in flight.
in_ns install -m 0644 "${E2E_SLOW_APP_FILE:?}" "$apps_dir/e2e-slow.json"
in_ns systemctl reload appflipd.service
sleep 1
in_ns $APPFLIP open --json "${E2E_SLOW_APP_URL:?}" >"$WORK/out/drained.json" &
open_pid=$!
sleep 1
in_ns systemctl stop appflipd.service
wait $open_pid
check "daemon: the handoff in flight at stop got its reply" test $? -eq 0
check "daemon: the drained stop exited cleanly" test "$(unit_property appflipd.service Result)" = success
