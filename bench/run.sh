#!/usr/bin/env bash
# siwa-mock benchmarks, measured side by side in one run on loopback (see bench/README.md).
# Usage: bench/run.sh [--binary PATH] [--codes N] [--rounds R] [--seconds S] [--growth "0 50000 200000"]
#                     [--only SECTION,...]
# Prints one line per figure, then the ratios last, one a line (RATIO ...), each measured against its
# reference in this run (issue #40's list, with its targets); also writes bench/out/latest.txt. Takes about
# 8 minutes. SECTION: keys (nginx), reference (the C reference server, bench/reference), token (openssl speed
# and the signature's profile), startup, rss, redis, growth (CPU and p99 as live grants grow); all by default.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# first_requests: the requests of the idle-RSS figure (shared with scripts/symbol-order.sh).
source "$here/first_requests.sh"
root="$(cd "$here/.." && pwd)"
binary=""
codes=90000
rounds=3
seconds=3
growth="0 50000 200000"
only=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) binary="$(realpath "$2")"; shift 2 ;;
        --codes) codes="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --seconds) seconds="$2"; shift 2 ;;
        --growth) growth="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        *) echo "usage: $0 [--binary PATH] [--codes N] [--rounds R] [--seconds S] [--growth COUNTS] [--only SECTIONS]" >&2
           exit 64 ;;
    esac
done
# want SECTION: whether --only (a comma-separated list) includes it; every section without --only.
want() { [[ -z "$only" || ",$only," == *",$1,"* ]]; }

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx)
command -v cc >/dev/null || need+=(gcc libc6-dev)
[[ -f /usr/include/openssl/evp.h ]] || need+=(libssl-dev)
command -v curl >/dev/null || need+=(curl)
# The fifth ratio (Redis / in-memory redemptions, bench/store.sh) needs a redis-server: a fresh machine
# has none, and without it that ratio printed n/a.
command -v redis-server >/dev/null || need+=(redis-server)
if [[ ${#need[@]} -gt 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

if [[ -z "$binary" ]]; then
    # The binary the README tells users to build (Package.swift links the Swift runtime statically in
    # release); the container's binary is the same build, stripped (scripts/container-binary.sh).
    (cd "$root" && swift build -c release --product siwa-mock)
    binary="$root/.build/release/siwa-mock"
fi
[[ -x "$binary" ]] || { echo "error: not executable: $binary" >&2; exit 1; }

cores="$(nproc)"
work="$(mktemp -d /tmp/siwa-bench.XXXXXX)"
chmod 755 "$work"
out_dir="$root/bench/out"
mkdir -p "$out_dir"
report="$out_dir/latest.txt"
: > "$report"
: > "$work/wrk.log"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

say() { echo "$*" | tee -a "$report"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a / b; else print "n/a" }'; }
verdict() { awk -v r="$1" -v t="$2" -v dir="$3" 'BEGIN { if (r == "n/a") print "n/a"; else if ((dir == "ge" && r + 0 >= t) || (dir == "le" && r + 0 <= t)) print "MET"; else print "MISSED" }'; }
rps() { awk '/^Requests\/sec:/ { print $2 }'; }
total_requests() { awk '/requests in/ { print $1 }'; }
# cpu_ticks PID...: user+system clock ticks used so far by these processes (all their threads).
cpu_ticks() { local t=0 pid; for pid in "$@"; do t=$(( t + $(awk '{ print $14 + $15 }' "/proc/$pid/stat") )); done; echo "$t"; }
hz="$(getconf CLK_TCK)"
# us_per_request TICKS REQUESTS: server CPU microseconds per request.
us_per_request() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "n/a" }'; }

# start_mock VAR [LOG_LEVEL]: starts siwa-mock on a free port, sets VAR to its base URL and MOCK_PID.
# The default level is warn: nginx runs with access_log off, the mock likewise skips its per-request
# lines. With `info` (the mock's default) it writes one line per request to a file, as nginx's
# access_log does in the logging round.
start_mock() {
    local ready="$work/ready.$RANDOM" line="" level="${2:-warn}"
    "$binary" --host 127.0.0.1 --port 0 --log-level "$level" "${@:3}" >"$ready" 2>>"$work/mock.stderr" &
    MOCK_PID=$!
    pids+=("$MOCK_PID")
    for _ in $(seq 1500); do
        # The ready file appears when the child's redirection runs: head may look first (set -e).
        line="$(head -n1 "$ready" 2>/dev/null || true)"
        [[ -n "$line" ]] && break
        sleep 0.01
    done
    [[ "$line" == "siwa-mock listening on http://"* ]] || { echo "error: no ready line from siwa-mock: '$line'" >&2; exit 1; }
    printf -v "$1" '%s' "${line#siwa-mock listening on }"
}
stop_mock() { kill -TERM "$MOCK_PID"; wait "$MOCK_PID" || true; }
# median_range VALUE...: prints "MEDIAN MIN MAX" (n/a n/a n/a without values).
median_range() {
    [[ $# -gt 0 ]] || { echo "n/a n/a n/a"; return; }
    printf '%s\n' "$@" | sort -g |
        awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f", m, v[1], v[NR] }'
}
# cpu_ns PID: CPU nanoseconds used so far by all the process's threads (schedstat, not 10 ms ticks).
cpu_ns() { local t=0 f; for f in /proc/"$1"/task/*/schedstat; do t=$(( t + $(cut -d' ' -f1 "$f") )); done; echo "$t"; }
# cpu_steal: "STEAL TOTAL" ticks of all cores so far (/proc/stat); steal_since "STEAL TOTAL": the host's
# share of the cores' time since then, in % (on a shared VM the largest source of spread between runs).
cpu_steal() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat; }
steal_since() { read -r s0 t0 <<< "$1"; awk -v s0="$s0" -v t0="$t0" \
    '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; if (t > t0) printf "%.0f", 100 * ($9 - s0) / (t - t0); else print "?" }' /proc/stat; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# libcrypto's own symbols, for a binary that links it statically (the README's build on Debian and
# Ubuntu: perf then names the binary as the object of every sample, OpenSSL's included).
crypto_symbols() {
    [[ -s "$work/libcrypto.symbols" ]] && return
    local crypto_archive
    crypto_archive="$(pkg-config --variable=libdir libcrypto 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)/libcrypto.a"
    : > "$work/libcrypto.symbols"
    [[ -f "$crypto_archive" ]] && nm --defined-only "$crypto_archive" 2>/dev/null |
        awk 'NF == 3 && $2 ~ /^[tTwW]$/ { print $3 }' | sort -u > "$work/libcrypto.symbols" || true
}
# libcrypto_share PERF_DATA: the share of the samples in libcrypto: its object, or one of its symbols.
libcrypto_share() { perf report -i "$1" --stdio --no-children --sort dso,sym -g none 2>/dev/null |
    awk -v symbols="$work/libcrypto.symbols" '
        BEGIN { while ((getline name < symbols) > 0) crypto[name] = 1 }
        /^ *[0-9.]+%/ {
            share = $1; sub(/%/, "", share); symbol = $0; sub(/^.*\] /, "", symbol)
            if ($2 ~ /^libcrypto/ || symbol in crypto) c += share; t += share
        }
        END { if (t > 0) printf "%.4f", c / t }'; }
# perf_start PID FILE: samples PID's threads (cpu-clock, 2,999 Hz) for --seconds into FILE when perf may;
# perf_share FILE: then waits for it and sets SHARE to libcrypto's share of those samples (empty without perf).
# Not in $(...): a subshell cannot wait for the shell's child, and a report read early is empty.
perf_usable="$(command -v perf >/dev/null && perf record -o /dev/null -e cpu-clock -- true >/dev/null 2>&1 && echo 1 || true)"
perf_start() {
    PERF_PID=""
    [[ -n "$perf_usable" ]] || return 0
    perf record -q -F 2999 -e cpu-clock -p "$1" -o "$2" -- sleep "$seconds" >/dev/null 2>&1 &
    PERF_PID=$!
}
perf_share() {
    SHARE=""
    [[ -n "$PERF_PID" ]] || return 0
    wait "$PERF_PID" || true
    crypto_symbols
    SHARE="$(libcrypto_share "$1")"
}
# mint DIR BASE COUNT: fresh codes into DIR/codes-<n>.txt through the headless authorize flow (mint_codes.lua,
# 2-second wrk rounds, at most 30); not measured. Prints how many it minted.
mint() {
    local dir="$1" base="$2" want="$3" minted=0
    mkdir -p "$dir"
    rm -f "$dir"/codes-*.txt "$dir"/used-*.txt "$dir"/refresh-*.txt
    for _ in $(seq 30); do
        local per_thread=$(( (want - minted + 1) / 2 ))
        [[ $per_thread -gt 0 ]] || break
        OUT_DIR="$dir" PER_THREAD="$per_thread" timeout 20 wrk -t2 -c64 -d2s -s "$here/mint_codes.lua" "$base" \
            >> "$work/mint.log"
        minted="$(cat "$dir"/codes-*.txt | wc -l)"
    done
    echo "$minted"
}

say "# siwa-mock bench $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $cores cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
say "# binary: $binary"
say "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
# The hypervisor's share of the cores over the whole run ("steal" in /proc/stat), printed with the ratios:
# on a shared VM it is the largest source of spread between runs (bench/RESULTS.md, "issue #26's fourth pass").
run_ticks="$(cpu_steal)"
# One ES256 client secret for every token request, as a real backend reuses its secret (so both servers' caches apply).
secret="$("$binary" client-secret --team-id ABCDE12345 --client-id com.example.web --key-id KEY1234567 \
    --key "$root/scenarios/keys/AuthKey_KEY1234567.p8")"
# Every ratio starts as n/a: a section left out (--only) prints its ratio as n/a.
keys_ratio_no_logs=n/a keys_ratio_with_logs=n/a profile_ratio=n/a beyond_median=n/a startup_ms=n/a nginx_startup_ms=n/a
growth_us=() rss_mb=n/a redis_median=n/a token_profile_ratio=n/a token_cpu_ratio=n/a refresh_cpu_ratio=n/a keys_cpu_ratio=n/a

# --- 1. GET /auth/keys vs nginx serving the same bytes ------------------------------------------
start_mock base
curl -fsS "$base/auth/keys" -o "$work/keys.json"
chmod 644 "$work/keys.json"
stop_mock
nginx_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$work/nginx/logs"
cat > "$work/nginx/nginx.conf.in" <<CONF
daemon off;
worker_processes $cores;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log ACCESS_LOG;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    server {
        listen 127.0.0.1:$nginx_port reuseport;
        location = /auth/keys { default_type application/json; alias $work/keys.json; }
    }
}
CONF
# start_nginx ACCESS_LOG: nginx on $nginx_port with access_log set to ACCESS_LOG (`off` or a file).
start_nginx() {
    sed "s|ACCESS_LOG|$1|" "$work/nginx/nginx.conf.in" > "$work/nginx/nginx.conf"
    "$nginx_bin" -c "$work/nginx/nginx.conf" -p "$work/nginx" &
    nginx_pid=$!
    pids+=("$nginx_pid")
    for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/auth/keys" 2>/dev/null && break; sleep 0.05; done
    cmp -s "$work/keys.json" <(curl -fsS "http://127.0.0.1:$nginx_port/auth/keys") || { echo "error: nginx does not serve the JWKS" >&2; exit 1; }
    nginx_pids=("$nginx_pid" $(pgrep -P "$nginx_pid"))
}
# wrk_keys URL PID...: runs wrk and prints "REQ_PER_SEC SERVER_CPU_US_PER_REQUEST P99_MS".
wrk_keys() {
    local url="$1"; shift
    local before after
    before="$(cpu_ticks "$@")"
    timeout 30 wrk -t2 -c64 -d10s --latency "$url/auth/keys" > "$work/keys.out"
    after="$(cpu_ticks "$@")"
    cat "$work/keys.out" >> "$work/wrk.log"
    echo "$(rps < "$work/keys.out") $(us_per_request $(( after - before )) "$(total_requests < "$work/keys.out")") $(p99_ms < "$work/keys.out")"
}
# p99_ms: wrk --latency's 99% line in milliseconds.
p99_ms() { awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%.3f", v }'; }
# keys_round NAME NGINX_ACCESS_LOG MOCK_LOG_LEVEL: two alternating rounds, the better of each counts.
keys_round() {
    local name="$1" access="$2" level="$3"
    start_mock base "$level"
    start_nginx "$access"
    local best_mock=0 best_nginx=0 sum_m_us=0 sum_n_us=0 m m_us m_p99 n n_us n_p99
    for round in 1 2; do
        read -r m m_us m_p99 <<<"$(wrk_keys "$base" "$MOCK_PID")"
        read -r n n_us n_p99 <<<"$(wrk_keys "http://127.0.0.1:$nginx_port" "${nginx_pids[@]}")"
        say "keys ($name) round $round: siwa-mock $m req/s (${m_us} us CPU/req, p99 ${m_p99} ms), nginx $n req/s (${n_us} us CPU/req, p99 ${n_p99} ms)"
        best_mock="$(awk -v a="$best_mock" -v b="$m" 'BEGIN { print (b > a ? b : a) }')"
        best_nginx="$(awk -v a="$best_nginx" -v b="$n" 'BEGIN { print (b > a ? b : a) }')"
        sum_m_us="$(awk -v a="$sum_m_us" -v b="$m_us" 'BEGIN { print a + b }')"
        sum_n_us="$(awk -v a="$sum_n_us" -v b="$n_us" 'BEGIN { print a + b }')"
    done
    kill -TERM "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
    stop_mock
    local r; r="$(ratio "$best_mock" "$best_nginx")"
    printf -v "keys_ratio_$name" '%s' "$r"
    say "keys ($name) CPU per request (mean of rounds): siwa-mock $(awk -v x="$sum_m_us" 'BEGIN { printf "%.1f", x / 2 }') us, nginx $(awk -v x="$sum_n_us" 'BEGIN { printf "%.1f", x / 2 }') us -> CPU-normalised ratio $(ratio "$sum_n_us" "$sum_m_us")x"
    say "FIGURE keys_throughput_$name siwa-mock=${best_mock} req/s nginx(${cores} workers)=${best_nginx} req/s ratio=${r}x target>=1.50x $(verdict "$r" 1.5 ge)"
    # p99 of the last round of each (the better-warmed one), lower is better.
    local p99r; p99r="$(ratio "$m_p99" "$n_p99")"
    say "FIGURE keys_p99_$name siwa-mock=${m_p99} ms nginx=${n_p99} ms ratio=${p99r}x target<=1.00x $(verdict "$p99r" 1.0 le)"
}
if want keys; then
    keys_round no_logs off warn
    keys_round with_logs "$work/nginx/logs/access.log" info
    say "log volume: nginx access.log $(wc -l < "$work/nginx/logs/access.log") lines, siwa-mock $(grep -c ' GET /auth/keys ' "$work/mock.stderr") request lines"
fi

# --- 1b. siwa-mock against the C reference server (bench/reference, issue #40), alternating rounds -------
# Both hold the same kind of state and get the same requests: each round mints fresh codes on each server
# (not measured), then measures, one server after the other, --seconds of code redemptions (redeem_codes.lua),
# of refreshes with refresh tokens saved from them (refresh_tokens.lua), and of GET /auth/keys, with the
# server's CPU from /proc/PID/task/*/schedstat (all threads, ns) around each wrk run. The order alternates
# (mock first in odd rounds, the reference first in even ones), and each round's ratio is taken within the
# round: the median of the rounds' ratios is the RATIO.
# start_ref VAR: the reference server on a free port; sets VAR to its base URL and REF_PID.
start_ref() {
    local ready="$work/ref-ready.$RANDOM" line=""
    "$work/ref_server" "$root/scenarios/keys" 0 >"$ready" 2>>"$work/ref.stderr" &
    REF_PID=$!
    pids+=("$REF_PID")
    for _ in $(seq 500); do
        line="$(head -n1 "$ready" 2>/dev/null || true)"
        [[ -n "$line" ]] && break
        sleep 0.01
    done
    [[ "$line" == "ref_server listening on http://"* ]] || { echo "error: no ready line from ref_server: '$line'" >&2; exit 1; }
    printf -v "$1" '%s' "${line#ref_server listening on }"
}
# wrk_cpu PID LOG WRK_ARGS...: runs wrk, appends its output to LOG; prints "CPU_NS".
wrk_cpu() {
    local pid="$1" log="$2" before after; shift 2
    before="$(cpu_ns "$pid")"
    timeout $(( seconds + 20 )) wrk -t2 -c64 -d"${seconds}s" --latency "$@" > "$log.one" 2>/dev/null || true
    after="$(cpu_ns "$pid")"
    cat "$log.one" >> "$log"
    echo $(( after - before ))
}
# per_request CPU_NS COUNT: microseconds per request.
per_request() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", c / n / 1000; else print "n/a" }'; }
# measure_round NAME BASE PID: one server's round; sets R_TOKEN_US R_TOKEN_RPS R_REFRESH_US R_REFRESH_RPS R_KEYS_US R_KEYS_RPS.
measure_round() {
    local name="$1" base="$2" pid="$3" dir="$work/pool-$1" ns ok bad minted
    # Enough codes for the round at up to 4,000 redemptions/s (a quiet 2-core machine does ~3,000).
    minted="$(mint "$dir" "$base" $(( seconds * 4000 )))"
    perf_start "$pid" "$work/ref-token-$name.perf"
    ns="$(OUT_DIR="$dir" CLIENT_SECRET="$secret" REFRESH_OUT=1 wrk_cpu "$pid" "$work/ref-token-$name.log" \
        -s "$here/redeem_codes.lua" "$base")"
    perf_share "$work/ref-token-$name.perf"
    R_TOKEN_SHARE="$SHARE"
    read -r ok bad <<<"$(awk '/^STATUS200/ { print $2, $4 }' "$work/ref-token-$name.log.one")"
    grep -q 'EXHAUSTED_THREADS [1-9]' "$work/ref-token-$name.log.one" && say "WARNING: $name ran out of its $minted codes (rate understated)"
    [[ "${ok:-0}" -gt 0 ]] || { say "error: $name redeemed no code ($(tail -n 3 "$work/ref-token-$name.log.one" | tr '\n' ' '))"; exit 1; }
    R_TOKEN_US="$(per_request "$ns" "$(( ok + bad ))")" R_TOKEN_RPS="$(rps < "$work/ref-token-$name.log.one")"
    R_TOKEN_NON200="$bad"
    ns="$(OUT_DIR="$dir" CLIENT_SECRET="$secret" wrk_cpu "$pid" "$work/ref-refresh-$name.log" \
        -s "$here/refresh_tokens.lua" "$base")"
    read -r ok bad <<<"$(awk '/^STATUS200/ { print $2, $4 }' "$work/ref-refresh-$name.log.one")"
    [[ "${bad:-1}" -eq 0 ]] || say "WARNING: $name refused ${bad:-?} refreshes"
    R_REFRESH_US="$(per_request "$ns" "$(( ${ok:-0} + ${bad:-0} ))")" R_REFRESH_RPS="$(rps < "$work/ref-refresh-$name.log.one")"
    ns="$(wrk_cpu "$pid" "$work/ref-keys-$name.log" "$base/auth/keys")"
    R_KEYS_US="$(per_request "$ns" "$(total_requests < "$work/ref-keys-$name.log.one")")"
    R_KEYS_RPS="$(rps < "$work/ref-keys-$name.log.one")"
}
if want reference; then
    bash "$here/reference/build.sh" "$work/ref_server"
    start_mock mock_base
    start_ref ref_base
    cmp -s <(curl -fsS "$mock_base/auth/keys") <(curl -fsS "$ref_base/auth/keys") \
        || { echo "error: the reference does not serve the mock's JWKS bytes" >&2; exit 1; }
    token_ratios=() refresh_ratios=() keys_ratios=() rate_ratios=() profile_ratios_ref=()
    for round in $(seq "$rounds"); do
        ticks="$(cpu_steal)" load_before="$(load1)"
        order=(mock ref); (( round % 2 == 0 )) && order=(ref mock)
        for who in "${order[@]}"; do
            if [[ $who == mock ]]; then
                measure_round mock "$mock_base" "$MOCK_PID"
                m_token="$R_TOKEN_US" m_token_rps="$R_TOKEN_RPS" m_refresh="$R_REFRESH_US" m_refresh_rps="$R_REFRESH_RPS"
                m_keys="$R_KEYS_US" m_keys_rps="$R_KEYS_RPS" m_share="$R_TOKEN_SHARE"
            else
                measure_round ref "$ref_base" "$REF_PID"
                f_token="$R_TOKEN_US" f_token_rps="$R_TOKEN_RPS" f_refresh="$R_REFRESH_US" f_refresh_rps="$R_REFRESH_RPS"
                f_keys="$R_KEYS_US" f_keys_rps="$R_KEYS_RPS" f_share="$R_TOKEN_SHARE"
            fi
        done
        token_ratios+=("$(ratio "$m_token" "$f_token")") refresh_ratios+=("$(ratio "$m_refresh" "$f_refresh")")
        keys_ratios+=("$(ratio "$m_keys" "$f_keys")") rate_ratios+=("$(ratio "$m_token_rps" "$f_token_rps")")
        # Both sign once per redemption with the same key and code path, so CPU per redemption is proportional
        # to 1 / (libcrypto's share of the samples): the ratio of the shares is the CPU ratio, taken within each
        # server's own seconds, whatever the machine's speed between them.
        profile_note=""
        if [[ -n "${m_share:-}" && -n "${f_share:-}" ]]; then
            profile_ratios_ref+=("$(ratio "$f_share" "$m_share")")
            profile_note="; from profiles (libcrypto ${m_share} of siwa-mock's samples, ${f_share} of the reference's) ${profile_ratios_ref[-1]}"
        fi
        say "reference round $round (${order[0]} first; load $load_before -> $(load1), steal $(steal_since "$ticks") %): CPU us/request siwa-mock / reference: code ${m_token} / ${f_token} = ${token_ratios[-1]}, refresh ${m_refresh} / ${f_refresh} = ${refresh_ratios[-1]}, keys ${m_keys} / ${f_keys} = ${keys_ratios[-1]}${profile_note}; req/s code ${m_token_rps} / ${f_token_rps}, refresh ${m_refresh_rps} / ${f_refresh_rps}, keys ${m_keys_rps} / ${f_keys_rps}"
    done
    read -r token_cpu_ratio token_cpu_min token_cpu_max <<<"$(median_range "${token_ratios[@]}")"
    read -r refresh_cpu_ratio refresh_cpu_min refresh_cpu_max <<<"$(median_range "${refresh_ratios[@]}")"
    read -r keys_cpu_ratio keys_cpu_min keys_cpu_max <<<"$(median_range "${keys_ratios[@]}")"
    read -r token_rate_ratio _ _ <<<"$(median_range "${rate_ratios[@]}")"
    read -r token_profile_ratio token_profile_min token_profile_max <<<"$(median_range "${profile_ratios_ref[@]}")"
    say "reference: RSS after the rounds siwa-mock $(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$MOCK_PID/status") MiB, reference $(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$REF_PID/status") MiB; redemption rate siwa-mock / reference (median) ${token_rate_ratio}"
    cat "$work"/ref-*.log >> "$work/wrk.log"
    kill -TERM "$REF_PID"; wait "$REF_PID" 2>/dev/null || true
    stop_mock
fi

# --- 2. POST /auth/token vs openssl speed rsa2048 ----------------------------------------------
if want token; then
    rsa_speed() { timeout 60 openssl speed -multi "$cores" -seconds 5 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $6 }'; }
    rsa_before="$(rsa_speed)"
    start_mock base
    # Codes are single-use and live 5 minutes: mint the pool in short wrk rounds right before the run.
    mint_start=$(date +%s.%N)
    minted="$(mint "$work" "$base" "$codes")"
    mint_secs="$(awk -v s="$mint_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')"
    say "minted $minted codes in ${mint_secs}s (non-302 while minting: $(awk '/^MINTED/ { f += $4 } END { print f + 0 }' "$work/mint.log"))"
    [[ "$minted" -gt 1000 ]] || { cat "$work/mint.log" >&2; echo "error: could not mint codes" >&2; exit 1; }
    ticks_before="$(cpu_ticks "$MOCK_PID")"
    OUT_DIR="$work" CLIENT_SECRET="$secret" timeout 30 wrk -t2 -c64 -d10s -s "$here/redeem_codes.lua" "$base" \
        > "$work/token.log" 2>"$work/token.err" || true
    ticks_after="$(cpu_ticks "$MOCK_PID")"
    rsa_after="$(rsa_speed)"
    rsa="$(awk -v a="$rsa_before" -v b="$rsa_after" 'BEGIN { printf "%.1f", (a + b) / 2 }')"
    say "openssl speed -multi $cores rsa2048: ${rsa_before} sign/s before, ${rsa_after} after the token run (mean ${rsa})"
    token_us="$(us_per_request $(( ticks_after - ticks_before )) "$(total_requests < "$work/token.log")")"
    cc -O2 -o "$work/rsa_sign_cpu" "$here/rsa_sign_cpu.c" -lcrypto
    sign_us="$("$work/rsa_sign_cpu" "$root/scenarios/keys/signing-Aj3F8kLq2X.pem" 3 | awk '{ print $2 }')"
    cat "$work/token.log" >> "$work/wrk.log"
    token_rps="$(rps < "$work/token.log")"
    statuses="$(grep STATUS200 "$work/token.log" || echo 'STATUS200 ? NON200 ?')"
    say "token responses: $statuses"
    [[ -s "$work/token.err" ]] && say "first non-200 bodies: $(head -c 600 "$work/token.err" | tr '\n' ' ')"
    if grep -q 'EXHAUSTED_THREADS [1-9]' "$work/token.log"; then
        say "WARNING: the code pool ran out before the end of the run; req/s is understated (raise --codes)"
    fi
    r="$(ratio "$token_rps" "$rsa")"
    say "FIGURE token_throughput siwa-mock=${token_rps} req/s rsa2048_sign=${rsa} sign/s ratio=${r}x target>=0.90x $(verdict "$r" 0.9 ge)"
    r_cpu="$(ratio "$sign_us" "$token_us")"
    say "token CPU: siwa-mock ${token_us} us CPU per request vs ${sign_us} us CPU per RS256 sign (rsa_sign_cpu.c) -> CPU-normalised ratio ${r_cpu}x (wrk shares the cores during the run, openssl does not)"
    beyond="$(awk -v t="$token_us" -v s="$sign_us" 'BEGIN { printf "%.1f", t - s }')"
    say "FIGURE token_cpu_beyond_signature ${beyond} us (server CPU per token request minus CPU per RS256 signature)"
    loaded_rss="$(awk '/^VmRSS/ { print $2 }' "/proc/$MOCK_PID/status")"
    say "RSS after the token run (holding ~$minted codes): $(( loaded_rss / 1024 )) MiB"

    # Token CPU beyond the signature, the figure issue #26 asks to resolve to 5 %: two ~900 us figures taken
    # minutes apart differ by more than that. (1) The figure: a profile of the mock while it redeems, which
    # does not depend on the machine's speed: s = the share of its samples inside libcrypto, divided by the share
    # of rsa_sign_cpu's own samples inside libcrypto (the reference signature's CPU outside it: malloc, the
    # kernel), is the signature's share of a redemption, and beyond/signature = (1 - s) / s. (2) For comparison,
    # the mock's CPU per redemption and the reference signature's CPU in alternating short rounds, one ratio per
    # round, median and range (noisy on a loaded machine: both sides move by more than 5 % between rounds).
    token_rounds="${TOKEN_ROUNDS:-5}"
    round_ratios=()
    for round in $(seq "$token_rounds"); do
        before_ns="$(cpu_ns "$MOCK_PID")"
        OUT_DIR="$work" CLIENT_SECRET="$secret" timeout 20 wrk -t2 -c64 -d2s -s "$here/redeem_codes.lua" "$base" \
            > "$work/token-round.log" 2>/dev/null || true
        after_ns="$(cpu_ns "$MOCK_PID")"
        ok="$(awk '/^STATUS200/ { print $2 }' "$work/token-round.log")"
        bad="$(awk '/^STATUS200/ { print $4 + $6 }' "$work/token-round.log")"
        sign_round_us="$("$work/rsa_sign_cpu" "$root/scenarios/keys/signing-Aj3F8kLq2X.pem" 1 | awk '{ print $2 }')"
        if [[ -z "$ok" || "$ok" -eq 0 || "$bad" -ne 0 ]]; then
            say "token round $round: skipped (${ok:-0} redeemed, ${bad:-?} refused or pool dry; raise --codes)"
            continue
        fi
        read -r round_us round_ratio <<<"$(awk -v c=$(( after_ns - before_ns )) -v n="$ok" -v s="$sign_round_us" \
            'BEGIN { u = c / n / 1000; printf "%.1f %.4f", u, (u - s) / s }')"
        round_ratios+=("$round_ratio")
        say "token round $round: siwa-mock ${round_us} us CPU per redemption ($ok), reference ${sign_round_us} us per signature -> beyond/signature ${round_ratio} (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    read -r beyond_median beyond_min beyond_max <<<"$(median_range "${round_ratios[@]}")"
    # The profile figure (needs perf; n/a without it or when perf may not sample): PROFILE_ROUNDS rounds of
    # 2 s, the median counts; samples at 2,999 Hz give ~6,000 per round, a share's standard error ~0.005.
    profile_ratios=()
    if command -v perf >/dev/null && perf record -o /dev/null -e cpu-clock -- true >/dev/null 2>&1; then
        crypto_symbols
        # -D 200: the samples start after the key is read and OpenSSL initialised (one signature, not a start).
        perf record -q -D 200 -F 2999 -e cpu-clock -o "$work/sign.perf" -- \
            "$work/rsa_sign_cpu" "$root/scenarios/keys/signing-Aj3F8kLq2X.pem" 2 >/dev/null 2>&1 || true
        ref_share="$(libcrypto_share "$work/sign.perf")"
        for round in $(seq "${PROFILE_ROUNDS:-3}"); do
            perf record -q -F 2999 -e cpu-clock -p "$MOCK_PID" -o "$work/token.perf" -- sleep 2 >/dev/null 2>&1 &
            perf_pid=$!
            OUT_DIR="$work" CLIENT_SECRET="$secret" timeout 20 wrk -t2 -c64 -d2s -s "$here/redeem_codes.lua" "$base" \
                > "$work/token-perf.log" 2>/dev/null || true
            wait "$perf_pid" || true
            mock_share="$(libcrypto_share "$work/token.perf")"
            if [[ -n "$mock_share" && -n "$ref_share" ]] && grep -q 'NON200 0 EXHAUSTED_THREADS 0' "$work/token-perf.log"; then
                r="$(awk -v m="$mock_share" -v r="$ref_share" 'BEGIN { s = m / r; printf "%.4f", (1 - s) / s }')"
                profile_ratios+=("$r")
                say "token profile round $round: libcrypto ${mock_share} of siwa-mock's samples while redeeming, ${ref_share} of rsa_sign_cpu's -> beyond/signature ${r}"
            else
                say "token profile round $round: not usable (mock ${mock_share:-?}, reference ${ref_share:-?}; $(grep STATUS200 "$work/token-perf.log" || echo 'no wrk summary'))"
            fi
        done
    fi
    read -r profile_ratio profile_min profile_max <<<"$(median_range "${profile_ratios[@]}")"
    stop_mock
fi

# --- 3. exec to first successful GET /auth/keys -------------------------------------------------
if want startup; then
    cc -O2 -o "$work/startup_probe" "$here/startup_probe.c"
    "$work/startup_probe" "$binary" 21 > "$work/startup.log"
    startup_ms="$(awk '/^median_us/ { printf "%.1f", $2 / 1000 }' "$work/startup.log")"
    # The same probe on nginx serving the same bytes (one worker per core, no access log): the reference.
    sed -e "s|ACCESS_LOG|off|" -e "s|127.0.0.1:$nginx_port |127.0.0.1:@PORT@ |" "$work/nginx/nginx.conf.in" \
        > "$work/nginx/startup.conf.in"
    "$work/startup_probe" --nginx "$nginx_bin" "$work/nginx" "$work/nginx/startup.conf.in" 21 > "$work/startup-nginx.log"
    nginx_startup_ms="$(awk '/^median_us/ { printf "%.1f", $2 / 1000 }' "$work/startup-nginx.log")"
    say "FIGURE startup_to_first_keys median=${startup_ms} ms, nginx ${nginx_startup_ms} ms (21 runs each, same probe)"
fi

# --- 4. idle RSS after startup and a few requests ----------------------------------------------
if want rss; then
    start_mock base
    first_requests "$base" "$secret"
    sleep 0.5
    rss_kb="$(awk '/^VmRSS/ { print $2 }' "/proc/$MOCK_PID/status")"
    rss_mb="$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')"
    say "FIGURE idle_rss ${rss_mb} MiB (VmRSS after startup + keys, discovery, authorize, token) target<=10 MiB $(verdict "$rss_mb" 10 le)"
    stop_mock
fi

# --- 5. Redis redemptions next to the in-memory store (bench/store.sh) ---------------------------
if want redis; then
    if command -v redis-server >/dev/null; then
        bash "$here/store.sh" --binary "$binary" --seconds 4 --rounds 3 > "$work/store.log" 2>&1 || true
        sed 's/^/store: /' "$work/store.log" | tee -a "$report"
        memory_rps="$(awk '/^memory: token/ { printf "%s%s", sep, $4; sep = "/" }' "$work/store.log")"
        redis_rps="$(awk '/^redis: token/ { printf "%s%s", sep, $4; sep = "/" }' "$work/store.log")"
        memory_steal="$(sed -nE 's/^memory: token.*host steal ([0-9?]+) %.*/\1/p' "$work/store.log" | paste -sd/)"
        redis_steal="$(sed -nE 's/^redis: token.*host steal ([0-9?]+) %.*/\1/p' "$work/store.log" | paste -sd/)"
        redis_rounds="$(sed -nE 's/^ratio: .*round by round ([0-9. ]+); median.*/\1/p' "$work/store.log")"
        redis_median="$(sed -nE 's/^ratio: .*; median ([0-9.]+)$/\1/p' "$work/store.log")"
    else
        memory_rps=0 redis_rps=0 redis_median=n/a
        say "store: redis-server is not installed; the Redis ratio is n/a"
    fi
fi

# --- 6. cost as state grows (issue #40 item 3): CPU per redemption and p99 at 0, 50k, 200k live grants ----
# One siwa-mock in memory, then one on a fresh redis-server (--store). Each level is reached by real
# redemptions (each leaves a redeemed code for its 5 minutes, an access token for its hour, a refresh token,
# all indexed under alice's consent), minted and redeemed in 5-second wrk rounds as fast as the machine
# goes; every preload round's CPU per redemption is printed too (the curve between the levels). Then, at each
# level, --seconds of redemptions on fresh codes: CPU per redemption (schedstat; with Redis the mock's and
# redis-server's) and wrk's p99. Each RATIO is the largest level's over level 0 (flat: <= 1.05).
# growth_run STORE: memory or redis; sets growth_levels, growth_us, growth_p99, growth_beyond, growth_units.
growth_run() {
    local store="$1" tag="growth" extra=() redis_pid="" rport=""
    if [[ "$store" == redis ]]; then
        tag="growth[redis]"
        rport="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        mkdir -p "$work/redis-growth"
        redis-server --port "$rport" --bind 127.0.0.1 --dir "$work/redis-growth" --save "" --appendonly no \
            --daemonize no --logfile "$work/redis-growth/redis.log" </dev/null >/dev/null 2>&1 &
        redis_pid=$!
        pids+=("$redis_pid")
        for _ in $(seq 100); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.05; done
        extra=(--store "redis://127.0.0.1:$rport")
    fi
    start_mock growth_base warn "${extra[@]}"
    gdir="$work/pool-growth-$store"
    mkdir -p "$gdir"
    redeemed=0
    growth_levels=() growth_us=() growth_p99=() growth_beyond=() growth_units=()
    rm -f "$out_dir"/"$store"-growth-*.top "$out_dir"/"$store"-growth-*.symbols
    # cpu_all: the mock's CPU nanoseconds, plus redis-server's with the Redis store (the work the grants cost).
    cpu_all() { local t; t="$(cpu_ns "$MOCK_PID")"; [[ -n "$redis_pid" ]] && t=$(( t + $(cpu_ns "$redis_pid") )); echo "$t"; }
    # redeem_pool: redeems the pool in $gdir in 5-s rounds until it is spent; adds to $redeemed.
    redeem_pool() {
        local before after ok bad
        for _ in $(seq 200); do
            before="$(cpu_all)"
            OUT_DIR="$gdir" CLIENT_SECRET="$secret" timeout 60 wrk -t2 -c64 -d5s -s "$here/redeem_codes.lua" "$growth_base" \
                > "$work/preload.log" 2>/dev/null || true
            after="$(cpu_all)"
            read -r ok bad <<<"$(awk '/^STATUS200/ { print $2, $4 }' "$work/preload.log")"
            redeemed=$(( redeemed + ${ok:-0} ))
            say "$tag preload: ${redeemed} redeemed so far, $(per_request $(( after - before )) "$(( ${ok:-0} + ${bad:-0} ))") us CPU per redemption in this round (${ok:-0} ok, ${bad:-0} not; load $(load1))"
            grep -q 'EXHAUSTED_THREADS 2' "$work/preload.log" && break
            [[ "${ok:-0}" -gt 0 ]] || break
        done
    }
    for level in $growth; do
        while (( redeemed < level )); do
            # At least 4,000 codes a pass: wrk's 64 connections each take one before the first answer.
            chunk=$(( level - redeemed )); (( chunk > 30000 )) && chunk=30000; (( chunk < 4000 )) && chunk=4000
            mint "$gdir" "$growth_base" "$chunk" >/dev/null
            progress="$redeemed"
            redeem_pool
            (( redeemed > progress )) || { say "error: the $tag preload redeemed nothing"; exit 1; }
        done
        ticks="$(cpu_steal)"
        minted="$(mint "$gdir" "$growth_base" $(( seconds * 4000 )))"
        # With perf, a profile of the same seconds: what takes a larger share at a larger level is what grows.
        perf_start "$MOCK_PID" "$work/growth.perf"
        local redis_before=0
        [[ -n "$redis_pid" ]] && redis_before="$(cpu_ns "$redis_pid")"
        ns="$(OUT_DIR="$gdir" CLIENT_SECRET="$secret" wrk_cpu "$MOCK_PID" "$work/growth.log" -s "$here/redeem_codes.lua" "$growth_base")"
        local mock_ns="$ns"
        [[ -n "$redis_pid" ]] && ns=$(( ns + $(cpu_ns "$redis_pid") - redis_before ))
        # The signature's work is the same at every level: (1 - s) / s, s = libcrypto's share of the samples,
        # is everything else per unit of signing, whatever the machine's speed at that moment.
        perf_share "$work/growth.perf"
        share="$SHARE"
        if [[ -n "$share" ]]; then
            growth_beyond+=("$(awk -v s="$share" 'BEGIN { if (s > 0) printf "%.3f", (1 - s) / s; else print "n/a" }')")
            # All the CPU of the window (the mock's, and redis-server's on Redis) per unit of the mock's CPU
            # inside libcrypto (share × the mock's CPU): the cost of a redemption in signatures, which a
            # slower or faster moment of the machine changes for both alike.
            growth_units+=("$(awk -v all="$ns" -v mock="$mock_ns" -v s="$share" \
                'BEGIN { if (s > 0 && mock > 0) printf "%.4f", all / (s * mock); else print "n/a" }')")
            perf report -i "$work/growth.perf" --stdio --no-children --sort sym -g none 2>/dev/null |
                awk '/^ *[0-9.]+%/' > "$out_dir/$store-growth-$level.symbols" || true
            head -n 15 "$out_dir/$store-growth-$level.symbols" > "$out_dir/$store-growth-$level.top"
        fi
        read -r ok bad <<<"$(awk '/^STATUS200/ { print $2, $4 }' "$work/growth.log.one")"
        p99="$(awk '/^P99_US/ { printf "%.2f", $2 / 1000 }' "$work/growth.log.one")"
        us="$(per_request "$ns" "$(( ${ok:-0} + ${bad:-0} ))")"
        growth_levels+=("$level") growth_us+=("$us") growth_p99+=("$p99")
        [[ -n "$share" ]] && say "$tag level ${level}: libcrypto ${share:-?} of the mock's samples -> the rest / libcrypto ${growth_beyond[-1]:-n/a}"
        say "$tag level ${level}: ${redeemed} redemptions before it ($(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$MOCK_PID/status") MiB RSS${redis_pid:+, redis $(awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$redis_pid/status") MiB}); ${us} us CPU per redemption, p99 ${p99} ms, $(rps < "$work/growth.log.one") req/s (${ok:-0} ok, ${bad:-0} not; load $(load1), steal $(steal_since "$ticks") %)"
        [[ -s "$out_dir/$store-growth-$level.top" ]] && say "$tag level ${level} profile, top symbols: $(awk '{ $2 = ""; printf "%s%s", sep, $0; sep = "; " }' "$out_dir/$store-growth-$level.top" | tr -s ' ')"
        redeemed=$(( redeemed + ${ok:-0} ))
    done
    stop_mock
    if [[ -n "$redis_pid" ]]; then kill "$redis_pid"; wait "$redis_pid" 2>/dev/null || true; fi
}
# growth_ratios NAME: the RATIO lines of the last growth_run (printed with the other ratios at the end).
growth_ratios() {
    local name="$1"
    if [[ ${#growth_us[@]} -ge 2 ]]; then
        r="$(ratio "${growth_us[-1]}" "${growth_us[0]}")" r99="$(ratio "${growth_p99[-1]}" "${growth_p99[0]}")"
        # With profiles, as token_cpu: the CPU in units of the signature's own CPU in the same seconds, so a
        # moment when the whole machine runs slower (one 3-second window per level) does not read as growth.
        local ru=""
        [[ ${#growth_units[@]} -ge 2 ]] && ru="$(ratio "${growth_units[-1]}" "${growth_units[0]}")"
        if [[ -n "$ru" && "$ru" != n/a ]]; then
            echo "RATIO ${name}_cpu ${ru} (CPU per redemption with ${growth_levels[-1]} redemptions' grants live / with ${growth_levels[0]}, in units of the signature's CPU from profiles: ${growth_units[*]} at ${growth_levels[*]}; by CPU time ${r}: ${growth_us[*]} us) target<=1.05 $(verdict "$ru" 1.05 le)"
        else
            echo "RATIO ${name}_cpu ${r} (CPU per redemption with ${growth_levels[-1]} redemptions' grants live / with ${growth_levels[0]}: ${growth_us[*]} us at ${growth_levels[*]}; no perf for the profile figure) target<=1.05 $(verdict "$r" 1.05 le)"
        fi
        [[ ${#growth_beyond[@]} -ge 2 ]] && echo "FIGURE ${name}_profile ${growth_beyond[*]} (siwa-mock's samples outside libcrypto / inside, at ${growth_levels[*]} live: flat when nothing grows but the machine's load)"
        echo "RATIO ${name}_p99 ${r99} (redemption p99 with ${growth_levels[-1]} live / with ${growth_levels[0]}: ${growth_p99[*]} ms) target<=1.05 $(verdict "$r99" 1.05 le)"
    else
        echo "RATIO ${name}_cpu n/a (needs two --growth levels) target<=1.05 n/a"
    fi
}
growth_memory_ratios="" growth_redis_ratios=""
if want growth; then
    growth_run memory
    growth_memory_ratios="$(growth_ratios growth)"
    if command -v redis-server >/dev/null; then
        growth_run redis
        growth_redis_ratios="$(growth_ratios growth_redis)"
    else
        growth_redis_ratios="RATIO growth_redis_cpu n/a (redis-server is not installed) target<=1.05 n/a"
    fi
fi

say "# raw wrk output: bench/out/wrk.log"
cp "$work/wrk.log" "$out_dir/wrk.log"

# --- the ratios (issue #40's list and targets), each against its reference measured in this run ----------
say "# ratios (load average now: $(cut -d' ' -f1-3 /proc/loadavg); host steal $(steal_since "$run_ticks") % of the cores' time during the run)"
# With perf, the profiles' figure is the ratio: the CPU rounds' ratio moves by 0.1-0.6 between rounds of a loaded
# machine (bench/RESULTS.md, issue #40), the shares' ratio by 0.01-0.07.
if [[ "$token_profile_ratio" != "n/a" ]]; then
    say "RATIO token_cpu ${token_profile_ratio} (CPU per code redemption, siwa-mock / the C reference server, from libcrypto's share of each one's samples: median of ${rounds} alternated rounds, range ${token_profile_min:-?}..${token_profile_max:-?}; by CPU time ${token_cpu_ratio}, range ${token_cpu_min:-?}..${token_cpu_max:-?}) target<=1.10 $(verdict "$token_profile_ratio" 1.10 le)"
else
    say "RATIO token_cpu ${token_cpu_ratio} (CPU per code redemption, siwa-mock / the C reference server, median of ${rounds} alternated rounds, range ${token_cpu_min:-?}..${token_cpu_max:-?}; no perf for the profile figure) target<=1.10 $(verdict "$token_cpu_ratio" 1.10 le)"
fi
say "RATIO refresh_cpu ${refresh_cpu_ratio} (CPU per refresh_token grant, siwa-mock / reference, median of ${rounds}, range ${refresh_cpu_min:-?}..${refresh_cpu_max:-?}) target<=1.10 $(verdict "$refresh_cpu_ratio" 1.10 le)"
say "RATIO keys_cpu ${keys_cpu_ratio} (CPU per GET /auth/keys, siwa-mock / reference, median of ${rounds}, range ${keys_cpu_min:-?}..${keys_cpu_max:-?}) target<=1.20 $(verdict "$keys_cpu_ratio" 1.20 le)"
say "RATIO keys ${keys_ratio_with_logs} (/auth/keys req/s siwa-mock / nginx with access logs on both; without logs ${keys_ratio_no_logs}) target>=1.50 $(verdict "$keys_ratio_with_logs" 1.5 ge)"
r="$(ratio "$startup_ms" "$nginx_startup_ms")"
say "RATIO startup ${r} (exec to first 200 on /auth/keys, siwa-mock / nginx: ${startup_ms} vs ${nginx_startup_ms} ms) target<=0.75 $(verdict "$r" 0.75 le)"
r="$(ratio "$rss_mb" 10)"
say "RATIO idle_rss ${r} (VmRSS after one request of each kind / 10 MiB: ${rss_mb} MiB) target<=1.00 $(verdict "$r" 1.0 le)"
r="${redis_median:-n/a}"
say "RATIO redis ${r} (token redemptions/s with --store redis / in memory, median of 3 alternated pairs: ${redis_rounds:-?}; redis ${redis_rps:-?} vs memory ${memory_rps:-?} req/s; host steal ${redis_steal:-?} % vs ${memory_steal:-?} %) target>=0.80 $(verdict "$r" 0.8 ge)"
# The state-growth ratios, in memory and with Redis (section 6).
if want growth; then
    while IFS= read -r line; do [[ -n "$line" ]] && say "$line"; done <<<"$growth_memory_ratios
$growth_redis_ratios"
else
    say "RATIO growth_cpu n/a (section left out) target<=1.05 n/a"
fi
# Issue #26's token figure, kept for comparison (issue #40 replaced its yardstick, one signature, by the reference).
if [[ "$profile_ratio" != "n/a" ]]; then
    say "FIGURE token_cpu_beyond_signature ${profile_ratio} (CPU per redemption beyond one RS256 signature / that signature's CPU, from the share of siwa-mock's samples in libcrypto: median of ${#profile_ratios[@]} profiles, range ${profile_min}..${profile_max}; CPU rounds against rsa_sign_cpu: median ${beyond_median})"
else
    say "FIGURE token_cpu_beyond_signature ${beyond_median} (CPU per redemption beyond one RS256 signature / that signature's CPU: median of alternating CPU rounds against rsa_sign_cpu; no perf profile)"
fi
