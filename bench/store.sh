#!/usr/bin/env bash
# Redis store next to the in-memory one, in one run (issue #16; docs/scale-out.md): POST /auth/token
# redemptions/s (fresh codes minted first) and GET /auth/keys req/s, each with wrk -t2 -c64 for SECONDS.
# Usage: bench/store.sh [--binary PATH] [--seconds N] [--rounds R]   (needs wrk and redis-server; about 1 minute
# a round). With R rounds the two stores alternate R times (memory, redis, memory, redis, ...), /auth/keys is
# measured in the first round only, and the last line gives each round's Redis / memory ratio and their median:
# on a shared VM the host's share of the cores changes within seconds, and one pair can land 0.3 off.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
binary="$root/.build/release/siwa-mock"
seconds=5
rounds=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="$(realpath "$2")"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        *) echo "usage: $0 [--binary PATH] [--seconds N] [--rounds R]" >&2; exit 64 ;;
    esac
done
work="$(mktemp -d /tmp/siwa-bench-store-XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save "" --appendonly no --daemonize no \
    --logfile "$work/redis.log" </dev/null >/dev/null 2>&1 &
pids+=($!)
sleep 0.3
secret="$("$binary" client-secret --team-id ABCDE12345 --client-id com.example.web --key-id KEY1234567 \
    --key "$root/scenarios/keys/AuthKey_KEY1234567.p8")"
rps() { awk '/^Requests\/sec:/ { print $2 }'; }
# The host's share of the cores (/proc/stat "steal": time this VM's CPUs were ready but the hypervisor ran
# something else) between two `cpu_ticks` readings, in %. On a shared VM it moves the ratio more than
# any change to the mock: 28 % during an in-memory run and 50 % during the Redis run after it were seen.
cpu_ticks() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat; }
steal_pct() {
    local s0 t0 s1 t1
    read -r s0 t0 <<< "$1"
    read -r s1 t1 <<< "$(cpu_ticks)"
    awk -v s=$(( s1 - s0 )) -v t=$(( t1 - t0 )) 'BEGIN { if (t > 0) printf "%.0f", 100 * s / t; else print "?" }'
}

ratios=()
for round in $(seq "$rounds"); do
for store in memory redis; do
    extra=()
    [[ $store == redis ]] && extra=(--store "redis://127.0.0.1:$port")
    "$binary" --host 127.0.0.1 --port 0 --log-level warn "${extra[@]}" >"$work/ready-$store-$round" 2>>"$work/mock.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 500); do grep -q listening "$work/ready-$store-$round" 2>/dev/null && break; sleep 0.01; done
    base="$(sed -E 's/.* on //' "$work/ready-$store-$round")"
    rm -f "$work"/codes-*.txt "$work"/used-*.txt
    # Enough codes that the redemption run cannot run out (wrk reports EXHAUSTED_THREADS if it does):
    # at least 2,000 per second of it, minted in 2-second rounds (a Redis authorize is slower than memory's).
    minted=0
    for _ in $(seq 12); do
        OUT_DIR="$work" PER_THREAD=$(( seconds * 4000 )) timeout 20 wrk -t2 -c64 -d2s -s "$here/mint_codes.lua" "$base" \
            >/dev/null
        minted=$(cat "$work"/codes-*.txt | wc -l)
        (( minted >= seconds * 2000 )) && break
    done
    ticks="$(cpu_ticks)"
    token=$(OUT_DIR="$work" CLIENT_SECRET="$secret" timeout 60 wrk -t2 -c64 -d"${seconds}s" -s "$here/redeem_codes.lua" \
        "$base" 2>/dev/null | tee "$work/token-$store.log" | rps)
    steal="$(steal_pct "$ticks")"
    keys=n/a
    (( round == 1 )) && keys=$(timeout 60 wrk -t2 -c64 -d"${seconds}s" "$base/auth/keys" | rps)
    echo "$store: token redemptions/s $token ($(grep -o 'STATUS200.*' "$work/token-$store.log" || true); $minted codes minted; host steal ${steal} % of the cores' time), /auth/keys req/s $keys"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    [[ $store == memory ]] && memory_token="$token"
    [[ $store == redis ]] && ratios+=("$(awk -v r="$token" -v m="$memory_token" 'BEGIN { if (m > 0) printf "%.2f", r / m; else print "0" }')")
done
done
median="$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : sprintf("%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
echo "ratio: Redis / memory token redemptions, round by round ${ratios[*]}; median $median"
