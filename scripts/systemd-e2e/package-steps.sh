# Issue 14 §2: the Debian package stands alone. Sourced by systemd-e2e.sh in `package` mode, after the
# shielded boot, whose ns-init.sh has hidden /opt/swift under an empty tmpfs and put /usr, /var/cache and
# /var/log under overlays too, so that apt-get and dpkg write only into this namespace. Uses its helpers
# (in_ns, check, fail, log, wait_until, unit_property, main_pid, first_reply, summary) and defines:
#   package_steps   apt-get install ./appflipd_*.deb, the socket enabled and listening, `appflip flip`
#                   through socket activation of the packaged daemon, the first-reply figure, then
#                   apt-get remove and apt-get purge, with what is left checked after each
APT="env DEBIAN_FRONTEND=noninteractive apt-get -y -q --no-install-recommends"
# The GitHub Action and the GitLab component run against this package (ci_steps, issue 39).
source "$root/scripts/systemd-e2e/ci-steps.sh"
PACKAGED_FILES="/usr/bin/appflipd /usr/bin/appflip /usr/lib/systemd/system/appflipd.socket
    /usr/lib/systemd/system/appflipd.service /usr/lib/systemd/system/appflipd-oauth.socket
    /usr/lib/systemd/system/appflipd-oauth-proxy.service /usr/lib/systemd/user/appflipd.socket
    /usr/lib/systemd/user/appflipd.service /usr/lib/sysusers.d/appflipd.conf
    /usr/share/doc/appflipd/copyright /usr/share/doc/appflipd/changelog.Debian.gz
    /usr/share/doc/appflipd/operations.md /usr/share/man/man1/appflip.1.gz /usr/share/man/man1/appflipd.1.gz
    /usr/share/bash-completion/completions/appflip /usr/share/zsh/vendor-completions/_appflipd
    /usr/share/fish/vendor_completions.d/appflip.fish"
CONFFILES="/etc/appflipd/appflipd.json /etc/appflipd/oauth.json /etc/appflipd/apps.d/demo-partner.json
    /etc/appflipd/demo-partner.apple-app-site-association /etc/appflipd/demo-partner.assetlinks.json"
ENABLED_LINK=/etc/systemd/system/sockets.target.wants/appflipd.socket

# The file names under the trees a package touches, for the before/after comparison.
snapshot() { in_ns find /etc /usr /var/lib /opt -xdev -path /var/lib/apt -prune -o -path /var/lib/dpkg -prune -o -print | sort; }
all_exist() { local path; for path in "$@"; do in_ns test -e "$path" || { log "missing: $path"; return 1; }; done; }
none_exist() { local path; for path in "$@"; do ! in_ns test -e "$path" || { log "still there: $path"; return 1; }; done; }
package_state() { in_ns dpkg-query -W -f '${db:Status-Abbrev}' appflipd 2>/dev/null | tr -d ' '; }

package_steps() {
    local deb version
    deb=/mnt/pkg/$(basename "$PACKAGE")
    version=$(dpkg-deb -f "$PACKAGE" Version)

    # 0. No Swift: the toolchain is hidden, and nothing called swift is on the PATH.
    check "package: /opt/swift is empty in the namespace" bash -c "[ -z \"\$(nsenter -t $ns_pid -p -m ls -A /opt/swift)\" ]"
    check "package: no swift on the PATH in the namespace" in_ns sh -c '! command -v swift && ! command -v swiftc'
    snapshot >"$WORK/out/files-before.txt"

    # 1. Install, as a CI runner would.
    in_ns $APT install "$deb" >"$WORK/out/apt-install.log" 2>&1
    local status=$?
    log "package: apt-get install $(basename "$PACKAGE") exited $status"
    check "package: apt-get install ./$(basename "$PACKAGE") succeeded" test $status -eq 0
    [ $status -eq 0 ] || { sed 's/^/    /' "$WORK/out/apt-install.log"; return; }
    check "package: dpkg says installed (ii)" test "$(package_state)" = ii
    check "package: every packaged file is in place" all_exist $PACKAGED_FILES $CONFFILES
    check "package: the conffiles are registered" bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m dpkg-query -W -f '\${Conffiles}' appflipd | awk '{print \$1}' | sort | tr '\n' ' ')\" = '$(tr -s ' \n' '\n' <<<"$CONFFILES" | grep . | sort | tr '\n' ' ')' ]"
    check "package: appflipd --version and appflip --version are the package's upstream version" bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m /usr/bin/appflipd --version)\" = '${version%-*}' ] && [ \"\$(nsenter -t $ns_pid -p -m /usr/bin/appflip --version)\" = '${version%-*}' ]"
    in_ns ldd /usr/bin/appflipd /usr/bin/appflip >"$WORK/out/ldd.txt" 2>&1
    check "package: the binaries need no Swift library (ldd)" bash -c \
        "! grep -q -i -E 'swift|foundation|dispatch|not found' '$WORK/out/ldd.txt'"
    check "package: the manual pages are appflip(1) and appflipd(1) in mdoc" in_ns sh -c \
        'zcat /usr/share/man/man1/appflip.1.gz | grep -q "^\.Dt APPFLIP 1" && zcat /usr/share/man/man1/appflipd.1.gz | grep -q "^\.Dt APPFLIPD 1"'
    check "package: postinst created the appflip group (sysusers)" in_ns getent group appflip
    check "package: postinst enabled appflipd.socket" test "$(in_ns systemctl is-enabled appflipd.socket)" = enabled
    check "package: postinst started appflipd.socket" test "$(unit_property appflipd.socket ActiveState)" = active
    check "package: the service waits for its first connection" test "$(unit_property appflipd.service ActiveState)" = inactive
    check "package: the socket is 0660 root:appflip" test "$(in_ns stat -c '%a %U:%G' $SOCKET)" = "660 root:appflip"

    # The embedded OAuth2 server's loopback port: the namespace shares the host's network, so the package's
    # 8471 may be taken there; an administrator's drop-ins move it, as docs/operations.md describes.
    in_ns sed -i "s/\"port\": *[0-9]*/\"port\": $oauth_port/" /etc/appflipd/oauth.json
    in_ns sh -c "mkdir -p /etc/systemd/system/appflipd-oauth.socket.d /etc/systemd/system/appflipd-oauth-proxy.service.d &&
        printf '[Socket]\nListenStream=\nListenStream=127.0.0.1:$oauth_port\n' >/etc/systemd/system/appflipd-oauth.socket.d/port.conf &&
        printf '[Service]\nExecStart=\nExecStart=/lib/systemd/systemd-socket-proxyd 127.0.0.1:$oauth_port\n' >/etc/systemd/system/appflipd-oauth-proxy.service.d/port.conf"
    in_ns systemctl daemon-reload
    in_ns systemctl restart appflipd-oauth.socket
    # The issue's step, a no-op after postinst: the socket is already listening.
    in_ns systemctl start appflipd.socket

    # 2. A flip through socket activation of the packaged daemon.
    in_ns /usr/bin/appflip flip --trace --socket $SOCKET --link https://partner.appflip.test/link/flip \
        --client-id appflip-demo-client --scope profile --redirect-bundle com.google.Chromecast \
        --state e2e-package-state --oauth-config /etc/appflipd/oauth.json >"$WORK/out/package-flip.txt" 2>&1
    status=$?
    log "package: appflip flip exited $status:"
    sed 's/^/    /' "$WORK/out/package-flip.txt"
    check "package: appflip flip linked the account through the packaged daemon" test $status -eq 0
    check "package: the flip activated appflipd.service" test "$(unit_property appflipd.service ActiveState)" = active
    check "package: the service runs /usr/bin/appflipd" bash -c \
        "nsenter -t $ns_pid -p -m systemctl show -p ExecStart --value appflipd.service | grep -q 'path=/usr/bin/appflipd '"
    local first_line
    # The daemon's own entries come through sd_journal_sendv (_TRANSPORT=journal); libdispatch may write a
    # line to stderr before it (a thread priority the unit's SystemCallFilter= refuses).
    first_line=$(in_ns journalctl -u appflipd.service SYSLOG_IDENTIFIER=appflipd _TRANSPORT=journal -o cat --no-pager | head -1)
    log "package: the daemon's first journal entry: $first_line"
    check "package: the daemon's first journal entry names the release" test "$first_line" = "appflipd ${version%-*} starting"
    check "package: hello's serverVersion is the release" bash -c \
        "nsenter -t $ns_pid -p -m $CLIENT request $SOCKET '$HELLO' | head -1 | grep -q '\"serverVersion\":\"${version%-*}\"'"
    ci_steps

    # The first reply through socket activation of the packaged binary: the daemon suite's measure (there,
    # of the debug build), E2E_SAMPLES cold starts, in alternation with the C anchor run by the same unit
    # (a drop-in swaps its ExecStart=), so that the sandbox and systemd's spawn cost the same for both.
    local samples="" anchor_samples="" _ dropin=/run/systemd/system/appflipd.service.d
    in_ns install -m 0755 /mnt/bin/c-activated /usr/local/bin/c-activated
    first_reply_now() {
        in_ns systemctl stop appflipd.service
        in_ns systemctl reset-failed appflipd.service
        in_ns $CLIENT request $SOCKET "$HELLO" | tail -1
    }
    for _ in $(seq "${E2E_SAMPLES:-11}"); do
        samples+="$(first_reply_now)"$'\n'
        in_ns mkdir -p $dropin
        in_ns sh -c "printf '[Service]\nExecStart=\nExecStart=/usr/local/bin/c-activated\n' > $dropin/c-anchor.conf"
        in_ns systemctl daemon-reload
        anchor_samples+="$(first_reply_now)"$'\n'
        in_ns rm -rf $dropin
        in_ns systemctl daemon-reload
    done
    in_ns systemctl stop appflipd.service
    in_ns rm -f /usr/local/bin/c-activated
    local median anchor_median
    median=$(printf '%s' "$samples" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    anchor_median=$(printf '%s' "$anchor_samples" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    log "first reply through socket activation (C server, same unit): $(printf '%s' "$anchor_samples" | grep . | summary)"
    log "first reply through socket activation (packaged release binary): $(printf '%s' "$samples" | grep . | summary)" \
        "$(python3 -c "print(f'= {$median/$anchor_median:.1f}x the C server (goal <= 4)')")"
    log "package: sizes: $(in_ns stat -c '%n %s' /usr/bin/appflipd /usr/bin/appflip | tr '\n' ' ')"

    # 3. Remove: the programs, units and the running daemon go; the configuration and the group stay.
    in_ns $APT remove appflipd >"$WORK/out/apt-remove.log" 2>&1
    check "package: apt-get remove succeeded" test $? -eq 0
    check "package: dpkg says removed, configuration kept (rc)" test "$(package_state)" = rc
    check "package: remove stopped the service and the socket" bash -c \
        "[ \"\$(nsenter -t $ns_pid -p -m systemctl show -p ActiveState --value appflipd.service)\" = inactive ] && ! nsenter -t $ns_pid -p -m test -e $SOCKET"
    check "package: remove took every packaged file" none_exist $PACKAGED_FILES
    check "package: remove kept the conffiles" all_exist $CONFFILES
    check "package: remove kept the appflip group" in_ns getent group appflip
    snapshot >"$WORK/out/files-removed.txt"
    log "package: left after remove: $(comm -13 "$WORK/out/files-before.txt" "$WORK/out/files-removed.txt" | tr '\n' ' ')"

    # 4. Purge: the configuration and the enablement state go; the group stays (docs/operations.md).
    in_ns $APT purge appflipd >"$WORK/out/apt-purge.log" 2>&1
    check "package: apt-get purge succeeded" test $? -eq 0
    check "package: dpkg no longer knows appflipd" test -z "$(package_state)"
    check "package: purge removed /etc/appflipd and the socket's enablement" none_exist /etc/appflipd $ENABLED_LINK \
        /var/lib/systemd/deb-systemd-helper-enabled/appflipd.socket.dsh-also
    snapshot >"$WORK/out/files-purged.txt"
    local left
    left=$(comm -13 "$WORK/out/files-before.txt" "$WORK/out/files-purged.txt" | grep -i appflip || true)
    log "package: left after purge: ${left:-nothing named appflip}; the group: $(in_ns getent group appflip || echo gone)"
    check "package: nothing named appflip is left after purge but the admin's drop-ins" bash -c \
        "[ -z \"\$(grep -v -E '^/etc/systemd/system/appflipd-oauth(\.socket|-proxy\.service)\.d(/port\.conf)?$' <<<'$left')\" ]"
}
