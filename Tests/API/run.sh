#!/usr/bin/env bash
# API fuzzing from the OpenAPI document: schemathesis generates requests for every operation in
# /mock/openapi.json (the control API and Apple's endpoints) against a live siwa-mock and checks that
# no response is a 5xx and every response matches the document; afterwards the server must still be
# healthy and exit 0 on SIGTERM.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../pysupport/flags.sh"
usage() {
    cat <<EOF
Usage: Tests/API/run.sh [--binary PATH] [--max-examples N]
Fuzzes every operation of /mock/openapi.json with schemathesis against a live siwa-mock.
  --max-examples N   examples per operation (default 25)

$SIWA_COMMON_FLAGS_HELP
EOF
}
binary=""
max_examples=25
while [[ $# -gt 0 ]]; do
  case "$1" in
    --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
    --max-examples) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; max_examples="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 64 ;;
  esac
done
binary="$(siwa_resolve_binary "$binary")"
venv="$("$here/../pysupport/venv.sh" "$here")"

work="$(mktemp -d)"
"$binary" serve --host 127.0.0.1 --port 0 > "$work/stdout" 2> "$work/stderr" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  grep -q '^siwa-mock listening on ' "$work/stdout" 2>/dev/null && break
  sleep 0.05
done
base="$(sed -n 's/^siwa-mock listening on //p' "$work/stdout" | head -n 1)"
[[ -n "$base" ]] || { echo "error: siwa-mock did not start"; cat "$work/stderr"; exit 1; }

# positive_data_acceptance is excluded on purpose: Apple's endpoints (and some control calls) answer
# schema-valid but semantically wrong values (an unknown client_id, a garbage client secret) with
# Apple's 400, exactly as Apple does; the document cannot express those rules.
# not_a_server_error is replaced by the server-log check below (any 5xx in the log fails the run): key
# rotation no longer answers 503 while no signing key is ready (it waits for one, off the event loops).
# POST /mock/ui/login (the dashboard's sign-in form) is left out: for it schemathesis sends some invalid
# bodies with Transfer-Encoding: chunked, which the HTTP layer answers 411 by design (no chunked request
# bodies; Tests/Adversarial checks it), and 411 is not in schemathesis' list of rejections (ST201). The
# form is covered by DashboardAccessTests (in-process and live) and the Chromium dashboard test.
set +e
"$venv/bin/schemathesis" run "$base/mock/openapi.json" --url "$base" \
  --checks all --exclude-checks positive_data_acceptance,not_a_server_error --exclude-path /mock/ui/login \
  --max-examples "$max_examples" --workers 1 --suppress-health-check all --warnings off
rc=$?
set -e
if ! "$binary" health --url "$base" > /dev/null; then
  echo "error: siwa-mock is not healthy after the API fuzzing run"; tail -n 40 "$work/stderr"; exit 1
fi
# Request log lines: "TIME PEER METHOD PATH STATUS …". Every 5xx fails the run.
server_errors="$(grep -E '^[^ ]+ [^ ]+ [A-Z]+ [^ ]+ 5[0-9][0-9] ' "$work/stderr" || true)"
if [[ -n "$server_errors" ]]; then
  echo "error: the server answered 5xx"; echo "$server_errors" | head; exit 1
fi
echo "server log: no 5xx"
kill -TERM "$pid"
set +e
wait "$pid"
status=$?
set -e
trap - EXIT
rm -rf "$work"
[[ $status -eq 0 ]] || { echo "error: siwa-mock exited $status after SIGTERM"; exit 1; }
exit $rc
