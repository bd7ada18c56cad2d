# Issue 5 §4 against the real appflipd and appflip. Sourced by systemd-e2e.sh in `daemon` mode; uses its
# helpers (in_ns, check, fail, log, wait_until, unit_property, main_pid, signal_main) and defines:
#   daemon_install_fixtures   the e2e apps (scripts/systemd-e2e/apps.d) into /etc/appflipd/apps.d, and the
#                             embedded OAuth server on the e2e's free loopback port
#   daemon_steps_routing      steps 2-5: `appflip flip` through socket activation, the journal, reloads
#   daemon_steps_kill         step 7 with the real client: kill -9 mid-handoff, `appflip open` retries
#   daemon_steps_stop         step 8: `systemctl stop` drains a handoff in flight (STOPPING=1, STATUS=)
# The flip: `appflip flip` plays the Google app (a live app for Google's redirect links) against the demo
# partner (Config/apps.d/demo-partner.json, the embedded OAuth server), then exchanges the code at the
# token endpoint on the host's 127.0.0.1:$oauth_port, which appflipd-oauth.socket and its proxy carry
# into the daemon's private network.
APPFLIP="/mnt/bin/appflip"
apps_dir=/etc/appflipd/apps.d
fixtures=$root/scripts/systemd-e2e
FLIP_STATE=e2e-state-7Qx
# One handoff per load request: a hello and an open of a URL a builtin accept handler claims.
export E2E_LOAD_LINE='{"op":"hello","id":0,"version":1}
{"op":"open","id":1,"activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://load.appflip.test/item/%d"}}'

status_text() { unit_property appflipd.service StatusText; }
status_matches() { status_text | grep -q -- "$1"; }

daemon_install_fixtures() {
    in_ns sh -c "cp -r '$fixtures/apps.d/.' $apps_dir/ && chmod 0644 $apps_dir/*.json $apps_dir/*.aasa $apps_dir/*.assetlinks && chmod 0755 $apps_dir/e2e-slow-handler"
    in_ns sed -i "s/\"port\": *[0-9]*/\"port\": $oauth_port/" /etc/appflipd/oauth.json
}

daemon_steps_routing() {
    # 2. The first connection of the flip activates the service.
    in_ns systemctl stop appflipd.service
    in_ns systemctl reset-failed appflipd.service
    check "daemon: the service is inactive before the flip" test "$(unit_property appflipd.service ActiveState)" = inactive
    in_ns systemctl start appflipd-oauth.socket
    in_ns $APPFLIP flip --trace --socket $SOCKET --link https://partner.appflip.test/link/flip \
        --client-id appflip-demo-client --scope profile --redirect-bundle com.google.Chromecast \
        --state "$FLIP_STATE" --oauth-config /etc/appflipd/oauth.json >"$WORK/out/flip.txt" 2>&1
    local status=$?
    log "daemon: appflip flip exited $status:"
    sed 's/^/    /' "$WORK/out/flip.txt"
    check "daemon: appflip flip linked the account (code through appflipd, tokens through the proxy)" test $status -eq 0
    check "daemon: the flip activated the service" test "$(unit_property appflipd.service ActiveState)" = active
    check "daemon: READY=1 came with STATUS=" status_matches '^Serving [0-9]* static apps$'

    # 3. The journal shows the handoff with its structured fields and without the code.
    in_ns journalctl -u appflipd.service -o json --no-pager >"$WORK/out/daemon-journal.json"
    check "daemon: the journal has the flip's handoff lines with every field, and no code" \
        /usr/bin/python3 - "$WORK/out/daemon-journal.json" "$FLIP_STATE" <<'PY'
import json, re, sys
entries = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
state = sys.argv[2]
problems = []
flip = [e for e in entries if e.get("APPFLIP_HOP") == "0" and "partner.appflip.test/link/flip" in e.get("APPFLIP_URL", "")
        and "state=" + state in e.get("APPFLIP_URL", "")]
if not flip:
    problems.append("no hop-0 handoff entry for the flip link")
else:
    entry = flip[-1]
    expected = {"PRIORITY": "6", "SYSLOG_IDENTIFIER": "appflipd", "APPFLIP_APP": "DEMOTEAM01.dev.appflip.demo-partner",
                "APPFLIP_OUTCOME": "handled", "APPFLIP_RULE": "/applinks/details/0/components/1", "MESSAGE": "handoff handled"}
    for key, value in expected.items():
        if entry.get(key) != value:
            problems.append(f"{key}={entry.get(key)!r}, expected {value!r}")
    for key in ("APPFLIP_HANDOFF_ID", "APPFLIP_PEER_UID", "APPFLIP_PEER_PID", "APPFLIP_LATENCY_US", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "_SYSTEMD_UNIT"):
        if not entry.get(key):
            problems.append(f"{key} missing")
    print(json.dumps({k: v for k, v in entry.items() if k.startswith(("APPFLIP_", "MESSAGE", "PRIORITY", "CODE_"))}, indent=1, sort_keys=True))
    result = [e for e in entries if e.get("APPFLIP_HANDOFF_ID") == entry.get("APPFLIP_HANDOFF_ID") and e.get("APPFLIP_HOP") == "1"]
    if not result:
        problems.append("no hop-1 entry (the result URL) under the flip's handoff id")
    else:
        print(json.dumps({k: v for k, v in result[-1].items() if k.startswith("APPFLIP_")}, indent=1, sort_keys=True))
        if result[-1].get("APPFLIP_OUTCOME") != "delivered" or result[-1].get("APPFLIP_APP") != "EQHXZ8M8AV.com.google.Chromecast":
            problems.append(f"the result URL's entry: {result[-1].get('APPFLIP_OUTCOME')} to {result[-1].get('APPFLIP_APP')}")
        if not re.search(r"[?&]code=\[redacted:\d+B\]&state=" + re.escape(state), result[-1].get("APPFLIP_URL", "")):
            problems.append(f"the result URL is not redacted as expected: {result[-1].get('APPFLIP_URL')}")
unredacted = re.compile(r"(?:code|access_token|refresh_token|client_secret)=(?!\[redacted)[^&\s\"]+")
for entry in entries:
    for key, value in entry.items():
        if unredacted.search(str(value)):
            problems.append(f"{key} carries a code: {value}")
for problem in problems:
    print("journal:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

    # The same partner on Android: `appflip flip --android` plays the Google app, an explicit intent for a
    # result to the demo partner's App Flip activity, the code exchanged through the proxy.
    in_ns $APPFLIP flip --trace --android --socket $SOCKET --android-package dev.appflip.demopartner \
        --android-action dev.appflip.demopartner.APP_FLIP --caller-fingerprint "$(printf 'DE:%.0s' $(seq 31))DE" \
        --redirect-uri https://oauth-redirect.googleusercontent.com/r/appflip-demo --client-id appflip-demo-client \
        --scope profile --oauth-config /etc/appflipd/oauth.json >"$WORK/out/flip-android.txt" 2>&1
    status=$?
    log "daemon: appflip flip --android exited $status:"
    sed 's/^/    /' "$WORK/out/flip-android.txt"
    check "daemon: appflip flip --android linked the account through the partner's App Flip activity" test $status -eq 0

    # 4. Reload with a new app file; a link for the new app is routed to it, by the same process.
    local status_before pid_before
    status_before=$(status_text)
    pid_before=$(main_pid)
    in_ns install -m 0644 "$fixtures/reload/e2e-new.json" "$apps_dir/e2e-new.json"
    in_ns systemctl reload appflipd.service
    check "daemon: reload took the new app (STATUS=: $status_before -> $(status_text))" wait_until 10 bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p StatusText --value appflipd.service)\" != '$status_before' ]"
    check "daemon: reload kept the process" test "$(main_pid)" = "$pid_before"
    check "daemon: a link of the new app is routed to it" bash -c \
        "nsenter -t $ns_pid -p -m $APPFLIP open --json --socket $SOCKET https://new.appflip.test/welcome | grep -q '\"app\":\"E2E0000002.dev.appflip.new\"'"

    # The same app on Android: its intent filter on a host its statement list verifies gets the link; on a
    # host no statement list verifies, Android opens the browser, and the reply says why.
    check "daemon: an Android App Link goes to the app whose filter matches on a verified host" bash -c \
        "nsenter -t $ns_pid -p -m $APPFLIP open --platform android --json --socket $SOCKET https://new.appflip.test/welcome | grep -q '\"rule\":\"/android/intentFilters/0\"'"
    check "daemon: an Android App Link on an unverified host opens in the browser, saying why" bash -c \
        "nsenter -t $ns_pid -p -m $APPFLIP open --platform android --allow-browser --json --socket $SOCKET https://unverified.appflip.test/welcome | grep '\"status\":\"browser\"' | grep -q 'unverified.appflip.test'"

    # 5. Reload with a broken file: the previous configuration keeps serving; STATUS= and the journal say why.
    in_ns sh -c "echo '{ not json' > $apps_dir/e2e-broken.json"
    in_ns systemctl reload appflipd.service
    check "daemon: a broken reload says why in systemctl status" wait_until 10 status_matches \
        'Reload refused, still serving the previous configuration: .*e2e-broken.json'
    log "daemon: STATUS after a broken reload: $(status_text)"
    check "daemon: the unit is active, not reloading, after the broken reload" \
        test "$(unit_property appflipd.service ActiveState)" = active
    check "daemon: a broken reload keeps the process" test "$(main_pid)" = "$pid_before"
    check "daemon: after a broken reload the new app still routes" bash -c \
        "nsenter -t $ns_pid -p -m $APPFLIP open --json --socket $SOCKET https://new.appflip.test/again | grep -q '\"app\":\"E2E0000002.dev.appflip.new\"'"
    check "daemon: the journal names the broken file at priority err" bash -c \
        "nsenter -t $ns_pid -p -m journalctl -u appflipd.service --no-pager -p err | grep -q e2e-broken.json"
    in_ns rm -f "$apps_dir/e2e-broken.json"
    in_ns systemctl reload appflipd.service
    check "daemon: fixing the file and reloading serves again" wait_until 10 status_matches '^Serving'
}

daemon_steps_kill() {
    # 7, with the real client: kill -9 while a handoff is in flight; the connection drops before any
    # reply, and `appflip open` reconnects (the socket queues it while systemd restarts the daemon).
    local pid_before
    pid_before=$(main_pid)
    in_ns $APPFLIP open --json --socket $SOCKET https://slow.appflip.test/killed >"$WORK/out/killed.json" 2>"$WORK/out/killed.err" &
    local open_pid=$!
    wait_until 5 bash -c "nsenter -t $ns_pid -p -m pgrep -f e2e-slow-handler"
    signal_main KILL
    wait $open_pid
    local status=$?
    log "daemon: appflip open across kill -9 of $pid_before exited $status; stderr: $(tr '\n' ' ' <"$WORK/out/killed.err")"
    check "daemon: the handoff cut by kill -9 was retried and handled by the next process" bash -c \
        "[ $status -eq 0 ] && grep -q '\"status\":\"handled\"' '$WORK/out/killed.json' && grep -q retrying '$WORK/out/killed.err'"
    check "daemon: a new process serves after kill -9" bash -c "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p MainPID --value appflipd.service)\" != $pid_before ]"
}

daemon_steps_stop() {
    # 8. `systemctl stop` drains a handoff in flight: STOPPING=1 at once, the reply still comes, exit 0.
    in_ns $APPFLIP open --json --socket $SOCKET https://slow.appflip.test/drained >"$WORK/out/drained.json" 2>"$WORK/out/drained.err" &
    local open_pid=$!
    wait_until 5 bash -c "nsenter -t $ns_pid -p -m pgrep -f e2e-slow-handler"
    in_ns systemctl stop --no-block appflipd.service
    check "daemon: STOPPING=1 and STATUS= while draining" wait_until 5 bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p ActiveState --value appflipd.service)\" = deactivating ] && nsenter -t $ns_pid -p -m systemctl show -p StatusText --value appflipd.service | grep -q 'Stopping: draining 1 handoff in flight'"
    wait $open_pid
    local status=$?
    check "daemon: the handoff in flight at stop got its reply (handled)" bash -c \
        "[ $status -eq 0 ] && grep -q '\"status\":\"handled\"' '$WORK/out/drained.json'"
    check "daemon: the drained stop ended inactive" wait_until 10 bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p ActiveState --value appflipd.service)\" = inactive ]"
    check "daemon: the drained stop exited cleanly (Result=success)" test "$(unit_property appflipd.service Result)" = success
}
