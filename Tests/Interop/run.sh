#!/usr/bin/env bash
# Run the interoperability suite: real third-party client libraries against a siwa-mock binary.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../pysupport/flags.sh"
usage() {
    cat <<EOF
Usage: Tests/Interop/run.sh [--binary PATH] [pytest args...]
Runs real client libraries (Authlib, PyJWT, social-auth-core, requests) against a fresh siwa-mock
per test and regenerates Tests/Interop/CONFORMANCE.md on a full run. Arguments after the common
flags go to pytest (e.g. -k web_flow, -q).

$SIWA_COMMON_FLAGS_HELP
EOF
}
siwa_run_pytest_suite "$here" "$@"
