#!/bin/sh
# Creates the JUnit-parser venv (once) and prints its python's path on stdout.
#   scripts/junit/setup.sh [VENV_DIR]      default: <repo>/.build/junit-venv
# Needs python3 with the venv module and access to PyPI the first time; later runs reuse the venv.
# junitparser is pinned: the audit's JUnit test proves its XML with this exact parser.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-"$here/../../.build/junit-venv"}
pinned="junitparser==5.0.3"

# Two test processes may set up at once; two `python3 -m venv` on one directory collide.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "junit setup: python3 is not installed (Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
check='from importlib.metadata import version; print("junitparser==" + version("junitparser"))'
if [ ! -x "$venv/bin/python" ] || [ "$("$venv/bin/python" -c "$check" 2>/dev/null || true)" != "$pinned" ]; then
    if ! python3 -m venv "$venv" >&2; then
        echo "junit setup: 'python3 -m venv' failed (Debian: apt-get install python3-venv)" >&2
        exit 2
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check $pinned >&2
fi
installed=$("$venv/bin/python" -c "$check")
if [ "$installed" != "$pinned" ]; then
    echo "junit setup: $venv holds $installed, not $pinned; delete it and rerun" >&2
    exit 2
fi
cd "$venv" && pwd | sed 's|$|/bin/python|'
