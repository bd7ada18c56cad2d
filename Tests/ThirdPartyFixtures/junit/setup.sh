#!/bin/sh
# Creates the JUnit-parser venv (once) and prints its python's path on stdout.
#   Tests/ThirdPartyFixtures/junit/setup.sh [VENV_DIR]      default: <repo>/.build/junit-venv
# junitparser is pinned: the audit's JUnit test proves its XML with this exact parser (Tests/ThirdPartyFixtures/pinned-venv.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "junit setup" "${1:-$here/../../../.build/junit-venv}" junitparser==5.0.3
