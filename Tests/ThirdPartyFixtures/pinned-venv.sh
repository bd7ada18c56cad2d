#!/bin/sh
# Creates a Python venv holding exact package versions (once) and prints its python's path on stdout: the
# one implementation behind Tests/ThirdPartyFixtures/junit/setup.sh, Tests/ThirdPartyFixtures/oauth-clients/setup.sh and
# Tests/ThirdPartyFixtures/django-oauth-toolkit/setup.sh.
#   Tests/ThirdPartyFixtures/pinned-venv.sh NAME VENV_DIR PACKAGE==VERSION...
# NAME starts every message. Needs python3 with the venv module and access to PyPI the first time; later runs
# reuse the venv when it holds exactly the pinned versions, and refuse one that holds others.
set -eu
name=$1
venv=$2
shift 2
pinned="$*"
packages=""
for pin in "$@"; do packages="$packages ${pin%%==*}"; done

# Two test processes may set up at once; two `python3 -m venv` on one directory collide.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "$name: python3 is not installed (Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
check='import sys; from importlib.metadata import version; print(" ".join(f"{n}=={version(n)}" for n in sys.argv[1:]))'
installed() {
    # shellcheck disable=SC2086
    "$venv/bin/python" -c "$check" $packages 2>/dev/null || true
}
if [ ! -x "$venv/bin/python" ] || [ "$(installed)" != "$pinned" ]; then
    if ! python3 -m venv "$venv" >&2; then
        echo "$name: 'python3 -m venv' failed (Debian: apt-get install python3-venv)" >&2
        exit 2
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$@" >&2
fi
if [ "$(installed)" != "$pinned" ]; then
    echo "$name: $venv holds $(installed), not $pinned; delete it and rerun" >&2
    exit 2
fi
cd "$venv" && pwd | sed 's|$|/bin/python|'
