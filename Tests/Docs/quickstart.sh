#!/usr/bin/env bash
# The README's quick start, pasted as a new user would: the block under the marker
# "run by Tests/Docs/quickstart.sh" runs verbatim in a clean shell (no inherited variables, no
# SIWA_MOCK_*) at the top of the checkout, and must end with siwa-mock verify's
# "valid: signature and claims check out". As root it runs in a private network and PID namespace
# (unshare), so port 8080 is free whatever else the machine runs, and the mock it leaves in the
# background ends with the namespace. Bounded by QUICKSTART_TIMEOUT seconds (default 900: the block
# builds, which is a no-op after .ci/run's release build).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
block=$(python3 Tests/Docs/run_blocks.py --extract Tests/Docs/quickstart.sh README.md)
swift_dir=$(dirname "$(command -v swift)")
clean_env=(env -i "HOME=$HOME" "PATH=$swift_dir:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" "TERM=dumb" "LANG=C.UTF-8")
wrap=()
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && unshare --net --pid --fork --mount-proc true 2>/dev/null; then
  # lo comes up inside the namespace before the pasted block starts.
  wrap=(unshare --net --pid --fork --mount-proc)
  block=$'ip link set lo up\n'"$block"
fi
out=$(mktemp)
status=0
timeout "${QUICKSTART_TIMEOUT:-900}" "${wrap[@]}" "${clean_env[@]}" bash --noprofile --norc -c "$block" > "$out" 2>&1 || status=$?
rm -f "$repo/siwa-mock.out" "$repo/siwa-mock.log" "$repo/token.json"
last=$(grep -v '^\s*$' "$out" | tail -n 1)
if [ "$status" -ne 0 ] || [ "$last" != "valid: signature and claims check out" ]; then
  grep -vE '^\[[0-9]+/[0-9]+\]' "$out" | tail -n 40
  rm -f "$out"
  echo "quickstart: FAILED (exit $status; last line: '$last')"
  exit 1
fi
grep -E '^(clock|valid):' "$out"
rm -f "$out"
echo "quickstart: README quick start pasted verbatim ends with a verified id_token"
