#!/bin/sh
# Creates the independent-OAuth-clients venv (once) and prints its python's path on stdout.
#   Tests/ThirdPartyFixtures/oauth-clients/setup.sh [VENV_DIR]      default: <repo>/.build/oauth-clients-venv
# Every version is pinned: the interop tests prove these exact clients against the embedded server
# (Tests/ThirdPartyFixtures/pinned-venv.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "oauth-clients setup" "${1:-$here/../../../.build/oauth-clients-venv}" \
    authlib==1.9.9 requests-oauthlib==2.0.0 oauthlib==3.3.1 requests==2.34.2
