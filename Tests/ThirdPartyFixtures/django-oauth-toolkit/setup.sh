#!/bin/sh
# Creates the django-oauth-toolkit interop venv (once) and prints its python's path on stdout.
#   Tests/ThirdPartyFixtures/django-oauth-toolkit/setup.sh [VENV_DIR]      default: <repo>/.build/django-venv
# django-oauth-toolkit is pinned (Tests/ThirdPartyFixtures/pinned-venv.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "django-oauth-toolkit setup" "${1:-$here/../../../.build/django-venv}" django-oauth-toolkit==3.4.1
