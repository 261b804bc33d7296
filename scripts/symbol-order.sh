#!/usr/bin/env bash
# scripts/symbol-order.txt: the functions the release binary runs from exec through its first requests
# (start-up, then bench/first_requests.sh: GET /auth/keys, discovery, a headless authorize and a code
# redemption). Package.swift hands the file to lld (`--symbol-ordering-file`) for the fully static release
# build, which puts that code together at the start of the text. Why: the kernel maps a binary's text
# 64 KB around each page fault ("fault-around"), so code spread over 11 MB of text had every start map
# 9 MB of it; grouped, idle RSS fell from 12.0 to 8.4 MiB (bench/RESULTS.md, "issue #26's fifth pass").
# A stale file costs only memory: names that no longer exist are skipped (lld's warning is off).
#
# Usage: scripts/symbol-order.sh [--binary PATH]           regenerate the file (needs valgrind; ~1 min)
#        scripts/symbol-order.sh --check [--binary PATH]   fail when under 90 % of its names are in the
#                                                          binary (CI, after the release build)
# PATH defaults to .build/release/siwa-mock (built with `swift build -c release --product siwa-mock`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
order="$root/scripts/symbol-order.txt"
binary="$root/.build/release/siwa-mock"
check=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --check) check=true; shift ;;
        --binary) binary="$(realpath "$2")"; shift 2 ;;
        *) echo "usage: $0 [--check] [--binary PATH]" >&2; exit 64 ;;
    esac
done
[[ -x "$binary" ]] || { echo "error: no binary at $binary; build it: swift build -c release --product siwa-mock" >&2; exit 1; }

if $check; then
    [[ -f "$order" ]] || { echo "error: $order is missing; regenerate it: scripts/symbol-order.sh" >&2; exit 1; }
    total=$(wc -l < "$order")
    found=$(nm "$binary" 2>/dev/null | awk '{ print $NF }' | sort -u | comm -12 - <(sort -u "$order") | wc -l)
    echo "scripts/symbol-order.txt: $found of $total names are in $binary"
    if (( total == 0 || found * 100 < total * 90 )); then
        echo "error: the start-up ordering is stale (under 90 % of its names exist); regenerate it:" >&2
        echo "  scripts/symbol-order.sh   (needs valgrind), and commit scripts/symbol-order.txt" >&2
        exit 1
    fi
    exit 0
fi

command -v valgrind >/dev/null || { echo "error: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work="$(mktemp -d /tmp/siwa-symbol-order-XXXXXX)"
pid=""
trap '[[ -n "$pid" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"' EXIT
# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$binary" "$work/siwa-mock"
strip --strip-debug "$work/siwa-mock"
secret="$("$work/siwa-mock" client-secret --team-id ABCDE12345 --client-id com.example.web --key-id KEY1234567 \
    --key "$root/scenarios/keys/AuthKey_KEY1234567.p8")"
valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/callgrind.out" "$work/siwa-mock" --host 127.0.0.1 --port 0 \
    >"$work/ready" 2>"$work/valgrind.log" &
pid=$!
for _ in $(seq 6000); do grep -q listening "$work/ready" 2>/dev/null && break; sleep 0.01; done
base="$(sed -nE 's/^siwa-mock listening on //p' "$work/ready")"
[[ -n "$base" ]] || { cat "$work/valgrind.log" >&2; echo "error: no ready line under valgrind" >&2; exit 1; }
# The same requests as bench/run.sh's idle-RSS figure.
source "$root/bench/first_requests.sh"
first_requests "$base" "$secret"
sleep 1
kill -TERM "$pid"
wait "$pid" || true
pid=""
# Function names, sorted: what matters is that they are together, and callgrind lists them in an order
# that changes from run to run (a sorted file changes only where the code does). Callgrind marks recursion
# levels with 'N and names code it has no symbol for by address.
sed -nE "s/^fn=//p" "$work/callgrind.out" | sed -E "s/'[0-9]+$//" | grep -v '^0x' | LC_ALL=C sort -u > "$order"
echo "scripts/symbol-order.txt: $(wc -l < "$order") functions"
echo "relink to use it (a changed file alone does not): rm -f .build/release/siwa-mock && swift build -c release --product siwa-mock"
