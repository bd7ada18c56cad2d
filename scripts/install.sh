#!/bin/sh
# Installs appflipd: binaries, systemd units (system and user), the sysusers.d entry, the default
# configuration and the operations guide, in the standard places under PREFIX.
#
#   swift build -c release --product appflipd --product appflip
#   sudo scripts/install.sh            # then: systemctl enable --now appflipd.socket
#
# or, for the package's smaller layout of the same code (docs/operations.md, "Installing";
# docs/performance.md, "Footprint"):
#   scripts/package/build && sudo BUILD_DIR=.build-release/release scripts/install.sh
#
# Variables (defaults in brackets):
#   DESTDIR        staging root, prepended to every path; nothing is activated when it is set []
#   PREFIX         [/usr/local]
#   BINDIR         [$PREFIX/bin]
#   SYSCONFDIR     [/etc]; the configuration goes to $SYSCONFDIR/appflipd
#   UNITDIR        [$PREFIX/lib/systemd/system]
#   USERUNITDIR    [$PREFIX/lib/systemd/user]
#   SYSUSERSDIR    [$PREFIX/lib/sysusers.d]
#   DOCDIR         [$PREFIX/share/doc/appflipd]
#   BUILD_DIR      where the built binaries are [.build/release]
#   APPFLIPD       the daemon binary to install as appflipd [$BUILD_DIR/appflipd]
#   CONFIG_SOURCE  the configuration folder to install [Config]
#   OAUTH_PORT     the embedded OAuth2 server's loopback port; must match the daemon's config [8471]
#
# An existing configuration file is never overwritten: it belongs to the administrator.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
SYSCONFDIR=${SYSCONFDIR:-/etc}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
USERUNITDIR=${USERUNITDIR:-$PREFIX/lib/systemd/user}
SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/appflipd}
BUILD_DIR=${BUILD_DIR:-$root/.build/release}
APPFLIPD=${APPFLIPD:-$BUILD_DIR/appflipd}
CONFIG_SOURCE=${CONFIG_SOURCE:-$root/Config}
OAUTH_PORT=${OAUTH_PORT:-8471}

say() { printf 'install: %s\n' "$*"; }

[ -x "$APPFLIPD" ] || { say "no daemon binary at $APPFLIPD; build it first (swift build -c release)" >&2; exit 1; }

install -d -m 0755 "$DESTDIR$BINDIR"
install -m 0755 "$APPFLIPD" "$DESTDIR$BINDIR/appflipd"
say "$BINDIR/appflipd"
if [ -x "$BUILD_DIR/appflip" ]; then
    install -m 0755 "$BUILD_DIR/appflip" "$DESTDIR$BINDIR/appflip"
    say "$BINDIR/appflip"
fi

# Units carry @BINDIR@, @SYSCONFDIR@, @DOCDIR@ and @OAUTH_PORT@, resolved here.
install_unit() { # source target-dir
    install -d -m 0755 "$DESTDIR$2"
    sed -e "s|@BINDIR@|$BINDIR|g" -e "s|@SYSCONFDIR@|$SYSCONFDIR|g" -e "s|@DOCDIR@|$DOCDIR|g" \
        -e "s|@OAUTH_PORT@|$OAUTH_PORT|g" \
        "$1" > "$DESTDIR$2/$(basename "$1")"
    chmod 0644 "$DESTDIR$2/$(basename "$1")"
    say "$2/$(basename "$1")"
}
install_unit "$root/systemd/appflipd.socket" "$UNITDIR"
install_unit "$root/systemd/appflipd.service" "$UNITDIR"
install_unit "$root/systemd/appflipd-oauth.socket" "$UNITDIR"
install_unit "$root/systemd/appflipd-oauth-proxy.service" "$UNITDIR"
install_unit "$root/systemd/user/appflipd.socket" "$USERUNITDIR"
install_unit "$root/systemd/user/appflipd.service" "$USERUNITDIR"

install -d -m 0755 "$DESTDIR$SYSUSERSDIR"
install -m 0644 "$root/systemd/appflipd.sysusers" "$DESTDIR$SYSUSERSDIR/appflipd.conf"
say "$SYSUSERSDIR/appflipd.conf"

# The configuration: readable by the daemon's transient user, writable by root only.
install -d -m 0755 "$DESTDIR$SYSCONFDIR/appflipd"
if [ -d "$CONFIG_SOURCE" ]; then
    (cd "$CONFIG_SOURCE" && find . -type d) | while read -r dir; do
        install -d -m 0755 "$DESTDIR$SYSCONFDIR/appflipd/$dir"
    done
    (cd "$CONFIG_SOURCE" && find . -type f) | while read -r file; do
        target="$DESTDIR$SYSCONFDIR/appflipd/$file"
        if [ -e "$target" ]; then
            say "kept $SYSCONFDIR/appflipd/${file#./} (exists)"
        else
            install -m 0644 "$CONFIG_SOURCE/$file" "$target"
            say "$SYSCONFDIR/appflipd/${file#./}"
        fi
    done
else
    say "no configuration folder at $CONFIG_SOURCE; $SYSCONFDIR/appflipd left empty"
fi

install -d -m 0755 "$DESTDIR$DOCDIR"
install -m 0644 "$root/docs/operations.md" "$DESTDIR$DOCDIR/operations.md"
say "$DOCDIR/operations.md"

# On a live system: create the group now (the socket unit needs it) and make systemd see the units.
if [ -z "$DESTDIR" ] && [ "$(id -u)" = 0 ] && [ -d /run/systemd/system ]; then
    systemd-sysusers "$SYSUSERSDIR/appflipd.conf"
    systemctl daemon-reload
    say "done; start with: systemctl enable --now appflipd.socket appflipd-oauth.socket"
else
    say "done; on the target run: systemd-sysusers && systemctl daemon-reload && systemctl enable --now appflipd.socket appflipd-oauth.socket"
fi
