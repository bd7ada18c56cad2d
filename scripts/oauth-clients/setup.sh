#!/bin/sh
# Creates the independent-OAuth-clients venv (once) and prints its python's path on stdout.
#   scripts/oauth-clients/setup.sh [VENV_DIR]      default: <repo>/.build/oauth-clients-venv
# Needs python3 with the venv module and access to PyPI the first time; later runs reuse the venv.
# Every version is pinned: the interop tests prove these exact clients against the embedded server.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-"$here/../../.build/oauth-clients-venv"}
pinned="authlib==1.9.9 requests-oauthlib==2.0.0 oauthlib==3.3.1 requests==2.34.2"

# Two test processes may set up at once; two `python3 -m venv` on one directory collide.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "oauth-clients setup: python3 is not installed (Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
check='from importlib.metadata import version as v; print(" ".join(f"{n}=={v(n)}" for n in ("authlib","requests-oauthlib","oauthlib","requests")))'
if [ ! -x "$venv/bin/python" ] || [ "$("$venv/bin/python" -c "$check" 2>/dev/null || true)" != "$pinned" ]; then
    if ! python3 -m venv "$venv" >&2; then
        echo "oauth-clients setup: 'python3 -m venv' failed (Debian: apt-get install python3-venv)" >&2
        exit 2
    fi
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check $pinned >&2
fi
installed=$("$venv/bin/python" -c "$check")
if [ "$installed" != "$pinned" ]; then
    echo "oauth-clients setup: $venv holds $installed, not $pinned; delete it and rerun" >&2
    exit 2
fi
cd "$venv" && pwd | sed 's|$|/bin/python|'
