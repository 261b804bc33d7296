#!/usr/bin/env bash
# The README's quick start, pasted as a new user would: the block under the marker
# "run by Tests/Docs/quickstart.sh" runs verbatim in a clean shell (no inherited variables, no
# SIWA_MOCK_*) at the top of the checkout, and must end with the JSON `siwa-mock signin` prints for a
# verified sign-in (alice's email in the claims: the scopes went through form_post). Then, with port 8080
# already taken by another web server, the same block must show the mock's own message (address already
# in use) and "not a siwa-mock", never a 404, an HTML page or a JWS error (issue #24). As root it runs in a private network and PID namespace
# (unshare), so port 8080 is free whatever else the machine runs, and the mock it leaves in the
# background ends with the namespace. Bounded by QUICKSTART_TIMEOUT seconds (default 900: the block
# builds, which is a no-op after .ci/run's release build).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
block=$(python3 Tests/Docs/run_blocks.py --extract Tests/Docs/quickstart.sh README.md)
swift_dir=$(dirname "$(command -v swift)")
clean_env=(env -i "HOME=$HOME" "PATH=$swift_dir:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" "TERM=dumb" "LANG=C.UTF-8")
# The commit .ci/run builds with (Package.swift): without it the block's `swift build` would relink the
# release binary every later step uses, as `(unknown commit)`.
[ -n "${SIWA_MOCK_COMMIT:-}" ] && clean_env+=("SIWA_MOCK_COMMIT=$SIWA_MOCK_COMMIT")
wrap=()
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && unshare --net --pid --kill-child --mount-proc true 2>/dev/null; then
  # lo comes up inside the namespace before the pasted block starts. unshare ignores SIGTERM while its
  # child runs, so `timeout -k` follows up with SIGKILL, and --kill-child then kills the namespace's first
  # process and with it everything inside; before, a stuck block outlived its timeout and the step hung.
  wrap=(unshare --net --pid --kill-child --mount-proc)
  block=$'ip link set lo up\n'"$block"
fi
out=$(mktemp)
status=0
timeout -k 10 "${QUICKSTART_TIMEOUT:-900}" "${wrap[@]}" "${clean_env[@]}" bash --noprofile --norc -c "$block" > "$out" 2>&1 || status=$?
rm -f "$repo/siwa-mock.out" "$repo/siwa-mock.log" "$repo/token.json"
last=$(grep -v '^\s*$' "$out" | tail -n 1)
verified=$(python3 -c '
import json, sys
try:
    signin = json.loads(sys.argv[1])
except ValueError:
    sys.exit("not JSON")
claims = signin.get("claims", {})
ok = claims.get("email") == "alice@example.com" and claims.get("nonce") == "n-1" and "id_token" in signin.get("token_response", {})
print("verified: sub %s, email %s" % (claims.get("sub"), claims.get("email")) if ok else "")
' "$last" 2>/dev/null || true)
if [ "$status" -ne 0 ] || [ -z "$verified" ]; then
  grep -vE '^\[[0-9]+/[0-9]+\]' "$out" | tail -n 40
  rm -f "$out"
  echo "quickstart: FAILED (exit $status; last line: '$last')"
  exit 1
fi
echo "$verified"
# `health --wait` polls while the mock starts; those 503 "starting" answers are not a newcomer's first
# output at --log-level warn (issue #37).
if grep -E '/mock/health 503' "$out"; then
  rm -f "$out"
  echo "quickstart: FAILED: a start-up health poll was logged at --log-level warn"
  exit 1
fi
rm -f "$out"
echo "quickstart: README quick start pasted verbatim ends with a verified id_token"

# Port 8080 taken (needs the private network namespace, so that 8080 is ours to take).
if [ ${#wrap[@]} -eq 0 ]; then
  echo "quickstart: busy-port check not run (needs root and unshare)"
  exit 0
fi
# Single quotes: the script text keeps its \" inside the double-quoted python code (in $'…' they became
# bare quotes that ended the string, so the wait for 8080 never ended).
busy='python3 -m http.server 8080 --bind 127.0.0.1 >/dev/null 2>&1 &
until python3 -c "import socket; socket.create_connection((\"127.0.0.1\", 8080), 1)" 2>/dev/null; do sleep 0.1; done
'
out=$(mktemp)
# Concatenated, not `${block/…/…$busy}`: bash 5.2 replaces `&` in a substitution's replacement with the
# match (patsub_replacement), which turned `2>&1 &` into `2>ip link set lo up…` and left nothing on 8080.
busy_block=$'ip link set lo up\n'"$busy${block#$'ip link set lo up\n'}"
timeout -k 10 120 "${wrap[@]}" "${clean_env[@]}" bash --noprofile --norc -c "$busy_block" > "$out" 2>&1 || true
if ! grep -q 'address already in use; choose another port with --port' "$out" || ! grep -q 'not a siwa-mock' "$out" \
    || grep -Eq 'answered 404|not a JWS|<html|<!DOCTYPE' "$out"; then
  grep -vE '^\[[0-9]+/[0-9]+\]' "$out" | tail -n 20
  rm -f "$out"
  echo "quickstart: FAILED with port 8080 taken: the mock's own message and 'not a siwa-mock' expected, nothing else"
  exit 1
fi
grep -E 'address already in use|not a siwa-mock' "$out" | sed 's/^/  /'
rm -f "$out"
echo "quickstart: with port 8080 taken, the quick start shows the mock's own message"
