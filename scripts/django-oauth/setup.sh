#!/bin/sh
# Creates the django-oauth-toolkit interop venv (once) and prints its python's path on stdout.
#   scripts/django-oauth/setup.sh [VENV_DIR]      default: <repo>/.build/django-venv
# Needs python3 with the venv module and access to PyPI the first time; later runs reuse the venv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:-"$here/../../.build/django-venv"}
pinned="django-oauth-toolkit==3.4.1"

# Two test processes may set up at once; two `python3 -m venv` on one directory collide.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "django-oauth setup: python3 is not installed (Debian: apt-get install python3 python3-venv)" >&2
    exit 2
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import oauth2_provider' >/dev/null 2>&1; then
    if ! python3 -m venv "$venv" >&2; then
        echo "django-oauth setup: 'python3 -m venv' failed (Debian: apt-get install python3-venv)" >&2
        exit 2
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$pinned" >&2
fi
installed=$("$venv/bin/python" -c 'from importlib.metadata import version; print(version("django-oauth-toolkit"))')
if [ "$installed" != "3.4.1" ]; then
    echo "django-oauth setup: $venv holds django-oauth-toolkit $installed, not 3.4.1; delete it and rerun" >&2
    exit 2
fi
cd "$venv" && pwd | sed 's|$|/bin/python|'
