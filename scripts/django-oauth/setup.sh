#!/bin/sh
# Creates the django-oauth-toolkit interop venv (once) and prints its python's path on stdout.
#   scripts/django-oauth/setup.sh [VENV_DIR]      default: <repo>/.build/django-venv
# django-oauth-toolkit is pinned (scripts/pinned-venv.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "django-oauth setup" "${1:-$here/../../.build/django-venv}" django-oauth-toolkit==3.4.1
