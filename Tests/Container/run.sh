#!/usr/bin/env bash
# Proves the container packaging with a real engine, on loopback only:
#   base image (debootstrap, cached) → static binary → runtime image (Dockerfile target `prebuilt`)
#   → docker run --network host → HEALTHCHECK healthy → smoke over HTTP and over TLS as appleid.apple.com
#   → SIGTERM exits 0 quickly → restart keeps the CA → docker-compose file validated and brought up.
# Usage: Tests/Container/run.sh [--binary PATH] (PATH: a `--static-swift-stdlib` release binary); --help
# Env: SIWA_ROOTFS_CACHE (default /var/cache/siwa-mock/bookworm-minbase.tar), SIWA_CONTAINER_KEEP=1 keeps images.
# Exit 0 all good; 1 a check failed; 2 no container engine could be started (reported, not a test failure
# of siwa-mock itself — .ci/run prints it clearly).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

source "$here/../pysupport/flags.sh"
usage() {
    cat <<EOF
Usage: Tests/Container/run.sh [--binary PATH]
Builds the container image around a static siwa-mock and checks it with a real engine (see the top of
this script). Here --binary defaults to a \`--static-swift-stdlib\` release build in .build/static.

$SIWA_COMMON_FLAGS_HELP
EOF
}
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$(siwa_resolve_binary "$2")"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 64 ;;
    esac
done
cache="${SIWA_ROOTFS_CACHE:-/var/cache/siwa-mock/bookworm-minbase.tar}"
tag="siwa-mock:ci-$$"
name="siwa-mock-ci-$$"
work="$(mktemp -d /tmp/siwa-container.XXXXXX)"
dockerd_pid=""
imported_base=""
t0=$(date +%s)
say() { printf '[container t+%ss] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

docker_bin=/usr/bin/docker
[[ -x "$docker_bin" ]] || docker_bin="$(command -v docker || true)"
docker() { timeout 300 "$docker_bin" "$@"; }
compose() { timeout 120 docker-compose --project-directory "$root" -p "siwaci$$" -f "$work/compose.yml" "$@"; }

cleanup() {
    local rc=$?
    set +e
    if [[ -n "$docker_bin" ]] && "$docker_bin" info >/dev/null 2>&1; then
        [[ -f "$work/compose.yml" ]] && compose down -v -t 2 >/dev/null 2>&1
        "$docker_bin" rm -f "$name" >/dev/null 2>&1
        if [[ "${SIWA_CONTAINER_KEEP:-0}" != 1 ]]; then
            "$docker_bin" rmi -f "$tag" >/dev/null 2>&1
            [[ -n "$imported_base" ]] && "$docker_bin" rmi -f "$imported_base" >/dev/null 2>&1
        fi
    fi
    if [[ -n "$dockerd_pid" ]]; then
        kill "$dockerd_pid" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$dockerd_pid" 2>/dev/null
    fi
    rm -rf "$work"
    exit $rc
}
trap cleanup EXIT

# --- engine ------------------------------------------------------------------------------------------
need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v docker-compose >/dev/null || need+=(docker-compose)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [[ ${#need[@]} -gt 0 ]]; then
    say "installing ${need[*]}"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"; } >"$work/apt.log" 2>&1 \
        || { tail -n 20 "$work/apt.log"; say "cannot install ${need[*]}"; exit 2; }
fi
docker_bin=/usr/bin/docker
[[ -x "$docker_bin" ]] || docker_bin="$(command -v docker)"
if ! "$docker_bin" info >/dev/null 2>&1; then
    say "starting dockerd (no iptables, no bridge: host networking only)"
    dockerd --iptables=false --ip-masq=false --bridge=none >"$work/dockerd.log" 2>&1 &
    dockerd_pid=$!
    for _ in $(seq 1 60); do "$docker_bin" info >/dev/null 2>&1 && break; sleep 0.5; done
    if ! "$docker_bin" info >/dev/null 2>&1; then
        tail -n 20 "$work/dockerd.log"
        say "dockerd did not start"
        exit 2
    fi
fi

# --- base image (no registry here: debootstrap, cached as a tarball) ---------------------------------
if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
    if [[ ! -s "$cache" ]]; then
        say "debootstrap bookworm minbase + libssl3, ca-certificates → $cache"
        mkdir -p "$(dirname "$cache")"
        debootstrap --variant=minbase --include=libssl3,ca-certificates bookworm "$work/rootfs" \
            http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
            || { tail -n 20 "$work/debootstrap.log"; say "debootstrap failed"; exit 2; }
        # Trim like debian:bookworm-slim (docs, man pages, apt caches): ~220 MB → ~85 MB.
        rm -rf "$work/rootfs/var/cache/apt/"*.bin "$work/rootfs/var/cache/apt/archives/"*.deb \
            "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/usr/share/"{doc,man,info,locale}/*
        tar -C "$work/rootfs" -c . >"$cache.tmp" && mv "$cache.tmp" "$cache"
        rm -rf "$work/rootfs"
    fi
    say "importing $cache as debian:bookworm-slim"
    docker import - debian:bookworm-slim <"$cache" >/dev/null
    imported_base=debian:bookworm-slim
fi

# --- binary and image ---------------------------------------------------------------------------------
if [[ -z "$binary" ]]; then
    say "swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib --product siwa-mock --scratch-path .build/static 2>&1 | tail -n 2
    binary="$root/.build/static/release/siwa-mock"
fi
[[ -x "$binary" ]] || fail "no binary at $binary"
mkdir -p "$work/context"
cp "$binary" "$work/context/siwa-mock"
strip "$work/context/siwa-mock" 2>/dev/null || true
say "docker build --target prebuilt ($(du -h "$work/context/siwa-mock" | cut -f1) binary)"
docker build -q --network host --target prebuilt --build-arg BINARY=siwa-mock -t "$tag" -f Dockerfile \
    "$work/context" >/dev/null
size=$(docker image inspect -f '{{.Size}}' "$tag")
base_size=$(docker image inspect -f '{{.Size}}' debian:bookworm-slim)
say "image $tag: $((size / 1000000)) MB (base $((base_size / 1000000)) MB + $(((size - base_size) / 1000)) kB)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
tls_port=$(free_port)
[[ "$port" != "$tls_port" ]] || tls_port=$(free_port)

wait_healthy() {  # container, seconds
    local status=""
    for _ in $(seq 1 $(( $2 * 4 ))); do
        status=$(docker inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null || echo gone)
        [[ "$status" == healthy ]] && return 0
        [[ "$status" == unhealthy || "$status" == gone ]] && break
        sleep 0.25
    done
    docker logs "$1" 2>&1 | tail -n 20
    fail "$1 is '$status', not healthy"
}

# --- run, health, smoke -------------------------------------------------------------------------------
say "docker run --network host (HTTP :$port, HTTPS :$tls_port)"
start_ms=$(date +%s%3N)
docker run -d --name "$name" --network host -e SIWA_MOCK_PORT="$port" -e SIWA_MOCK_TLS=true \
    -e SIWA_MOCK_TLS_PORT="$tls_port" -e SIWA_MOCK_LOG_FORMAT=json "$tag" >/dev/null
wait_healthy "$name" 30
say "healthy after $(( $(date +%s%3N) - start_ms )) ms (HEALTHCHECK: siwa-mock health)"
docker exec "$name" siwa-mock health >/dev/null || fail "siwa-mock health inside the container"
[[ "$(docker inspect -f '{{.Config.User}}' "$name")" == siwa ]] || fail "container does not run as user siwa"

base="http://127.0.0.1:$port"
curl -fsS --max-time 5 "$base/auth/keys" | grep -q '"kty":"RSA"' || fail "GET /auth/keys over HTTP"
curl -fsS --max-time 5 "$base/.well-known/openid-configuration" | grep -q '"issuer":"https://appleid.apple.com"' \
    || fail "discovery document over HTTP"
say "HTTP smoke ok"

docker exec "$name" siwa-mock ca >"$work/ca.pem" || fail "siwa-mock ca in the container"
curl -fsS --max-time 5 "$base/mock/tls/ca.pem" >"$work/ca-http.pem" || fail "GET /mock/tls/ca.pem"
cmp -s "$work/ca.pem" "$work/ca-http.pem" || fail "siwa-mock ca and /mock/tls/ca.pem differ"
resolve=(--resolve "appleid.apple.com:$tls_port:127.0.0.1")
curl -fsS --max-time 5 --cacert "$work/ca.pem" "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" \
    | grep -q '"kty":"RSA"' || fail "GET https://appleid.apple.com/auth/keys with the CA"
for version in --tlsv1.2 --tlsv1.3; do
    curl -fsS --max-time 5 "$version" --cacert "$work/ca.pem" "https://localhost:$tls_port/mock/health" >/dev/null \
        || fail "HTTPS with curl $version"
done
if curl -sS --max-time 5 "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" >/dev/null 2>&1; then
    fail "a client without the CA was accepted"
fi
plain=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$tls_port/auth/keys" || true)
[[ "$plain" == 400 ]] || fail "plain HTTP on the TLS port answered '$plain', expected 400"
SSL_CERT_FILE="$work/ca.pem" python3 - "$tls_port" <<'PY' || fail "Python ssl with SSL_CERT_FILE"
import socket, ssl, sys
port = int(sys.argv[1])
context = ssl.create_default_context()          # honours SSL_CERT_FILE
with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
    with context.wrap_socket(raw, server_hostname="appleid.apple.com") as tls:
        tls.sendall(b"GET /auth/keys HTTP/1.1\r\nHost: appleid.apple.com\r\nConnection: close\r\n\r\n")
        version = tls.version()
        data = b"".join(iter(lambda: tls.recv(65536), b""))
assert data.startswith(b"HTTP/1.1 200"), data[:200]
print("python ssl (SSL_CERT_FILE, server_hostname=appleid.apple.com):", version)
PY
docker logs "$name" 2>"$work/log.err" >/dev/null
grep -q '"event":"plain_http_on_tls_port"' "$work/log.err" || fail "plain HTTP on the TLS port was not logged"
grep -q '"event":"tls_failure"' "$work/log.err" || fail "the failed handshake was not logged"
grep '"msg":"request"' "$work/log.err" | python3 -c '
import json, sys
lines = [json.loads(line) for line in sys.stdin]
assert lines and all({"time", "request_id", "method", "path", "status", "latency_ms", "client"} <= set(l) for l in lines)
assert any(l["scheme"] == "https" for l in lines)
' || fail "JSON request log lines"
say "TLS smoke ok (curl TLS 1.2 + 1.3, Python ssl, no-CA refused, plain HTTP → 400, JSON logs)"

# A full sign-in through an unmodified client library (social-auth-core's AppleIdAuth hardcodes
# https://appleid.apple.com); name resolution is redirected to the container, TLS is verified for real.
venv="$("$here/../pysupport/venv.sh" "$here")" || fail "cannot set up the Python venv for the sign-in check"
"$venv/bin/python" "$here/tls_signin.py" "$tls_port" "$work/ca.pem" || fail "sign-in through social-auth-core over TLS"

# The interop suite against the container, once Tests/Interop/run.sh can target a running mock.
if [[ -f Tests/Interop/run.sh ]] && grep -q -- '--base-url' Tests/Interop/run.sh; then
    say "interop suite against the container"
    bash Tests/Interop/run.sh --base-url "$base" -q || fail "interop suite against the container"
else
    say "interop suite: skipped here (Tests/Interop/run.sh has no --base-url option yet)"
fi

# --- lifecycle: SIGTERM, restart keeps the CA ----------------------------------------------------------
stop_ms=$(date +%s%3N)
docker stop -t 10 "$name" >/dev/null
elapsed=$(( $(date +%s%3N) - stop_ms ))
code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
[[ "$code" == 0 ]] || fail "exit status after SIGTERM: $code"
(( elapsed < 3000 )) || fail "docker stop took $elapsed ms"
say "SIGTERM: exit 0 in $elapsed ms (docker stop round trip)"
docker start "$name" >/dev/null
wait_healthy "$name" 30
docker exec "$name" siwa-mock ca | cmp -s - "$work/ca.pem" || fail "the CA changed across a restart"
say "restart: same CA, healthy again"
docker rm -f "$name" >/dev/null

# --- docker-compose ---------------------------------------------------------------------------------
docker-compose -f docker-compose.yml config -q || fail "docker-compose.yml does not validate"
# Host networking cannot be combined with the file's network alias, so CI brings up the same service
# definition with its network settings replaced by compose.ci.yml (host_network.py does the merge).
export SIWA_CI_PORT="$port" SIWA_CI_TLS_PORT="$tls_port" SIWA_CI_IMAGE="$tag"
python3 -c 'import yaml' 2>/dev/null || pip install --quiet pyyaml >/dev/null 2>&1 || true
python3 "$here/host_network.py" docker-compose.yml "$here/compose.ci.yml" >"$work/compose.yml" \
    || fail "cannot derive the host-network compose file"
compose config -q || fail "derived compose file does not validate"
compose up -d >"$work/compose-up.log" 2>&1 || { cat "$work/compose-up.log"; fail "docker-compose up"; }
cid=$(compose ps -q siwa-mock)
wait_healthy "$cid" 30
curl -fsS --max-time 5 --cacert "$work/ca.pem" "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" \
    >/dev/null 2>&1 && fail "compose run has a fresh volume, so the old CA must not be trusted"
curl -fsS --max-time 5 "$base/mock/tls/ca.pem" >"$work/ca2.pem"
curl -fsS --max-time 5 --cacert "$work/ca2.pem" "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" \
    | grep -q '"kty":"RSA"' || fail "compose service over TLS"
compose down -v -t 5 >/dev/null 2>&1 || fail "docker-compose down"
say "docker-compose: config valid, up → healthy → TLS ok → down"
say "all container checks passed; image $((size / 1000000)) MB"
