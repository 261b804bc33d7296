#!/usr/bin/env bash
# rp-check against real verifiers (docs/rp-check.md): a siwa-mock, then the example backend of
# Examples/rp-check/python (PyJWT, and joserfc) in its correct form and each deliberately misconfigured form; for each,
# `siwa-mock rp-check` must flag exactly the cases expected.txt lists (none for `correct`) on the native
# and notification surfaces, and the id_token ones on the web surface (form_post to the backend, which
# redeems the code at the mock); its JUnit XML must validate against junit.xsd and be read by junitparser.
# A backend that refuses everything must be reported as "control failed" (exit 2).
# Budget: 150 s (measured 25 s warm alone; 72 s with a fresh venv beside a Swift build, 16 forms).
# Usage: Tests/RPCheck/run.sh [--binary PATH]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
binary="$root/.build/release/siwa-mock"
while [[ $# -gt 0 ]]; do
    case "$1" in
    --binary) binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 64 ;;
    esac
done
venv="$("$root/Tests/pysupport/venv.sh" "$here")"
python="$venv/bin/python"
# Jenkins' JUnit schema, as pytest's sdist ships it for pytest's own junitxml tests (an oracle we did not
# write; kept in the venv, not in the repository).
export JUNIT_XSD="$venv/junit-10.xsd"
if [[ ! -s "$JUNIT_XSD" ]]; then
    sdist="$(mktemp -d)"
    "$python" -m pip download -q --no-deps --no-binary :all: pytest==8.3.4 -d "$sdist"
    tar -xzf "$sdist"/pytest-8.3.4.tar.gz -O pytest-8.3.4/testing/example_scripts/junit-10.xsd >"$JUNIT_XSD.tmp"
    mv "$JUNIT_XSD.tmp" "$JUNIT_XSD"
    rm -rf "$sdist"
fi
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

wait_for() { # FILE: waits up to 20 s for it to exist
    for _ in $(seq 200); do [[ -s "$1" ]] && return 0; sleep 0.1; done
    echo "timed out waiting for $1" >&2; return 1
}

# The backends listen on one port, one after another: the scenario registers its redirect URI.
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ln -s "$root/scenarios/keys" "$work/keys"
sed "s#http://127.0.0.1:8000/callback#http://127.0.0.1:$port/callback#" "$root/scenarios/default.yaml" \
    >"$work/scenario.yaml"
"$binary" serve --port 0 --scenario "$work/scenario.yaml" >"$work/mock.out" 2>"$work/mock.err" &
pids+=($!)
for _ in $(seq 200); do grep -q "listening on" "$work/mock.out" 2>/dev/null && break; sleep 0.1; done
mock="$(sed -nE 's/.*listening on (http[^ ]*).*/\1/p' "$work/mock.out" | head -n 1)"
[[ -n "$mock" ]] || { echo "the mock did not start" >&2; cat "$work/mock.err" >&2; exit 1; }

backend_pid=""
start_backend() { # MODE LIBRARY: the backend in that form on $port (the previous one stopped first)
    if [[ -n "$backend_pid" ]]; then kill "$backend_pid"; wait "$backend_pid" 2>/dev/null || true; fi
    "$python" "$root/Examples/rp-check/python/backend.py" --mock "$mock" --mode "$1" --library "$2" --port "$port" \
        --team-key "$root/scenarios/keys/AuthKey_KEY1234567.p8" --ready "$work/$1-$2.port" >"$work/$1-$2.log" 2>&1 &
    backend_pid=$!
    pids+=("$backend_pid")
    wait_for "$work/$1-$2.port"
}
backend="http://127.0.0.1:$port"

failures=0
while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    form="${line%%:*}"
    mode="${form%@*}"
    library="pyjwt"
    [[ "$form" == *@* ]] && library="${form#*@}"
    expected="$(tr ' ' '\n' <<<"${line#*:}" | sed '/^$/d' | sort)"
    start_backend "$mode" "$library"
    mode="$form"
    status=0
    "$binary" rp-check --url "$mock" --native-url "$backend/apple/native" \
        --notification-url "$backend/apple/notifications" --verified-pattern '"email_verified": true' \
        --private-pattern '"is_private_email": true' --junit "$work/$mode.xml" >"$work/$mode.table" || status=$?
    # The web surface: a sign-in counts when the callback redirects and /me then names the user.
    web_status=0
    "$binary" rp-check --url "$mock" --web-start "$backend/login" --accept-status 3xx --probe "$backend/me" \
        --probe-body '"sub"' --verified-pattern '"email_verified": true' \
        --private-pattern '"is_private_email": true' --junit "$work/$mode-web.xml" >>"$work/$mode.table" \
        || web_status=$?
    flagged="$("$python" "$here/check_junit.py" "$work/$mode.xml")"
    web_flagged="$("$python" "$here/check_junit.py" "$work/$mode-web.xml")"
    web_expected="$(grep -v '^siwa-notification-' <<<"$expected" || true)"
    want_status=$([[ -z "$expected" ]] && echo 0 || echo 1)
    want_web=$([[ -z "$web_expected" ]] && echo 0 || echo 1)
    if [[ "$flagged" == "$expected" && $status -eq $want_status && "$web_flagged" == "$web_expected" \
        && $web_status -eq $want_web ]]; then
        echo "ok   $mode: flagged $(grep -c . <<<"$flagged" || true) case(s) native/notifications," \
            "$(grep -c . <<<"$web_flagged" || true) web; exit $status, $web_status"
    else
        echo "FAIL $mode: exit $status (want $want_status), web $web_status (want $want_web)"
        diff <(echo "$expected") <(echo "$flagged") | sed 's/^/     /' || true
        diff <(echo "$web_expected") <(echo "$web_flagged") | sed 's/^/     web /' || true
        cat "$work/$mode.table"
        failures=$((failures + 1))
    fi
done <"$here/expected.txt"

# A backend that refuses every token, the correct one included: "control failed", never a pass.
status=0
"$binary" rp-check --url "$mock" --native-url "$mock/auth/nowhere" --junit "$work/refusing.xml" \
    >"$work/refusing.table" || status=$?
if [[ $status -eq 2 ]] && grep -q "control failed: the backend refused a correct token" "$work/refusing.table" \
    && ! "$python" "$here/check_junit.py" "$work/refusing.xml" 2>/dev/null; then
    echo "ok   refusing backend: control failed, exit 2"
else
    echo "FAIL refusing backend: exit $status"; cat "$work/refusing.table"; failures=$((failures + 1))
fi
[[ $failures -eq 0 ]] || { echo "$failures rp-check check(s) failed" >&2; exit 1; }
echo "rp-check: every backend form judged as expected"
