#!/usr/bin/env bash
# The Swift test suite under ThreadSanitizer, with Synchronization.Mutex's contended hand-off made
# visible to TSan (see mutex-handoff.c). Usage: Tests/TSan/run.sh [--build-only|--skip-build] [swift test args...]
# Builds into .build-tsan (SCRATCH overrides) so the normal .build stays valid. .ci/run builds with
# --build-only early (in the background) and runs the tests later with --skip-build.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
scratch="${SCRATCH:-$root/.build-tsan}"
phase=all
case "${1:-}" in
    --build-only) phase=build; shift ;;
    --skip-build) phase=test; shift ;;
esac
mkdir -p "$scratch/tsan-shim"
shim="$scratch/tsan-shim/mutex-handoff.so"
clang -shared -fPIC -O1 -Wall -o "$shim" "$here/mutex-handoff.c" -ldl

# Canary: the shim must keep the lock correct and silence the contended-Mutex false positive.
swiftc -sanitize=thread -Onone -g "$here/mutex-contention.swift" -o "$scratch/tsan-shim/mutex-contention"
canary="$(LD_PRELOAD="$shim" "$scratch/tsan-shim/mutex-contention" 2>&1)"
if [[ "$canary" != "mutex-contention: ok" ]]; then
    echo "$canary"
    echo "error: the Mutex hand-off shim does not work with this toolchain" >&2
    exit 1
fi

cd "$root"
[ "$phase" = test ] || swift build --build-tests --sanitize=thread --scratch-path "$scratch"
[ "$phase" = build ] && exit 0
LD_PRELOAD="$shim" swift test --skip-build --sanitize=thread --scratch-path "$scratch" "$@"
