#!/bin/sh
# Creates the real-server matrix venv (once) and prints its python's path on stdout.
#   Tests/ThirdPartyFixtures/oauth-servers/setup.sh [VENV_DIR]      default: <repo>/.build/oauth-servers-venv
# Every version is pinned (Tests/ThirdPartyFixtures/pinned-venv.sh): the matrix's expected verdicts hold for these exact
# servers (Tests/ThirdPartyFixtures/oauth-servers/README.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "oauth-servers setup" "${1:-$here/../../../.build/oauth-servers-venv}" \
    authlib==1.9.9 flask==3.1.3 flask-sqlalchemy==3.1.1 sqlalchemy==2.1.9 werkzeug==3.1.9 \
    aioauth==2.0.1 starlette==1.10.0 uvicorn==0.54.0 python-multipart==0.0.34 itsdangerous==2.2.0 \
    oic==1.7.0
