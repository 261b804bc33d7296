#!/usr/bin/env bash
# docs/sidecar.md "Impersonation without containers", run as written: the block under the marker
# "run by Tests/Docs/impersonation.sh" runs from the checkout with the release siwa-mock on PATH and must
# print "signed in over TLS as …" (Tests/Docs/recipes/signin_over_tls.py reaching
# https://appleid.apple.com inside the namespace). Needs root for unshare: exits 2 (not run) otherwise.
# Usage: impersonation.sh [--binary PATH]   (default .build/release/siwa-mock)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=.build/release/siwa-mock
[ "${1:-}" = "--binary" ] && binary=$2
if [ "$(id -u)" -ne 0 ] || ! unshare --net --mount true 2>/dev/null; then
  echo "impersonation: NOT RUN (needs root and unshare)"
  exit 2
fi
block=$(python3 Tests/Docs/run_blocks.py --extract Tests/Docs/impersonation.sh docs/sidecar.md)
export PATH="$(cd "$(dirname "$binary")" && pwd):$PATH"
out=$(timeout 60 bash -euo pipefail -c "$block" 2>&1) || { echo "$out" | tail -n 30; echo "impersonation: FAILED"; exit 1; }
echo "$out" | tail -n 3
echo "$out" | grep -q '^signed in over TLS as ' || { echo "impersonation: FAILED (no sign-in line)"; exit 1; }
echo "impersonation: sign-in against https://appleid.apple.com inside unshare --net --mount passed"
