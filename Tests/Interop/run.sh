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
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) break ;;
    esac
done
binary="$(siwa_resolve_binary "$binary")"
venv="$("$here/../pysupport/venv.sh" "$here")"

cd "$here"
set +e
"$venv/bin/python" -m pytest -c "$here/pytest.ini" --rootdir "$here" -p no:cacheprovider "--binary=$binary" "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit $rc
