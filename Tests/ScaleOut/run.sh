#!/usr/bin/env bash
# Scale-out on a real redis-server, bare processes (issue #16; docs/scale-out.md). Budget: ≤ 4 minutes.
#   1. the endpoint and control-API suites (SIWAServerTests) and the store suites (RedisStoreTests) once
#      more with every harness on Redis (SIWA_TEST_STORE), against a redis-server started here;
#   2. Tests/ScaleOut/replicas.py: three replicas of the binary sharing one Redis (cross-replica codes,
#      a 100-way redemption race, revocations, key rotation, clock, user changes and `times: 2` faults
#      seen fleet-wide, a Redis outage and restart).
#   Tests/ScaleOut/run.sh [--binary PATH]     (tests must be built: swift build --build-tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=.build/release/siwa-mock
[ "${1:-}" = "--binary" ] && binary="$2"
command -v redis-server >/dev/null || { echo "redis-server is not installed (apt-get install redis-server)"; exit 1; }

dir=$(mktemp -d /tmp/siwa-scale-out-XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly no --daemonize no \
  --logfile "$dir/redis.log" </dev/null >/dev/null 2>&1 &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done

SIWA_TEST_STORE="redis://127.0.0.1:$port" swift test --skip-build --filter 'SIWAServerTests|RedisStoreTests' \
  > "$dir/swift-test.log" 2>&1 || { tail -n 60 "$dir/swift-test.log"; echo "suites on Redis failed"; exit 1; }
grep -E '^(✔|✘) Test run|Executed .* tests' "$dir/swift-test.log" | tail -n 2
python3 Tests/ScaleOut/replicas.py --binary "$binary"
