#!/usr/bin/env bash
# Builds the libFuzzer targets with -sanitize=fuzzer,address and runs each for N seconds.
#
#   Tests/Fuzz/run.sh [--seconds N] [--jobs J] [--build-only|--skip-build] [target...]
#     (default: 60 seconds, every target, one at a time; --jobs 2 runs two targets side by side)
#
# Exits non-zero if any target crashes, leaks, times out or runs out of memory. Crash inputs are
# saved as <repo>/fuzz-out/<target>/crash-* (and leak-*, timeout-*, oom-*); inputs that found new
# coverage go to <repo>/fuzz-out/<target>/corpus, the checked-in seeds stay in corpus/<target>.
# Reproduce one input: <bin>/<target> <file>. Extra libFuzzer flags: FUZZ_FLAGS="-jobs=2" run.sh ...
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
seconds=60
jobs=1
phase=all
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seconds=*) seconds="${1#*=}"; shift ;;
        --jobs) jobs="$2"; shift 2 ;;
        --build-only) phase=build; shift ;;
        --skip-build) phase=run; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 64 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    for dir in "$here"/Sources/fuzz-*; do targets+=("$(basename "$dir")"); done
fi

# The targets live in the root package, declared only when SIWA_FUZZ=1 (see Package.swift), and build in
# their own scratch path so the sanitizer flags never touch the normal .build.
cd "$repo"
export SIWA_FUZZ=1
build_flags=(-c debug --scratch-path "$repo/.build-fuzz" -Xswiftc -sanitize=fuzzer,address)
for target in "${targets[@]}"; do
    [ -d "$here/Sources/$target" ] || { echo "run.sh: no such target: $target" >&2; exit 64; }
done
if [ "$phase" != run ]; then
    for target in "${targets[@]}"; do swift build "${build_flags[@]}" --product "$target"; done
fi
[ "$phase" = build ] && exit 0
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

# fuzz_one TARGET: runs one target for $seconds; its output goes to $log_dir/TARGET.log.
log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT
fuzz_one() {
    local target="$1" out="$repo/fuzz-out/$1" dict=()
    mkdir -p "$out/corpus" "$here/corpus/$target"
    [ -f "$here/dict/$target.dict" ] && dict=("-dict=$here/dict/$target.dict")
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" "$bin/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$out/" -print_final_stats=1 "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$out/corpus" "$here/corpus/$target" >"$log_dir/$target.log" 2>&1
}

# Up to $jobs targets at a time; each target's log is printed whole when it ends, so logs never interleave.
failed=()
pids=()
names=()
reap() {  # waits for the oldest running target
    local rc=0
    wait "${pids[0]}" || rc=$?
    echo "== ${names[0]}: ${seconds}s"
    cat "$log_dir/${names[0]}.log"
    if [ "$rc" -ne 0 ]; then
        failed+=("${names[0]}")
        echo "== ${names[0]} FAILED; inputs in $repo/fuzz-out/${names[0]}/" >&2
    fi
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
}
for target in "${targets[@]}"; do
    [ "${#pids[@]}" -ge "$jobs" ] && reap
    fuzz_one "$target" &
    pids+=("$!")
    names+=("$target")
done
while [ "${#pids[@]}" -gt 0 ]; do reap; done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found problems in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing: no problems in ${targets[*]} (${seconds}s each)"
