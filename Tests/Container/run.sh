#!/usr/bin/env bash
# Proves the container packaging with a real engine, on loopback only:
#   scripts/container-offline.sh (debootstrap base, cached; static binary) with the classic builder
#   → the same Dockerfile with BuildKit → both images ≤ 25 MB → the literal `docker build .` (default route:
#   the Swift image) parses and stops at pulling swift:6.3-bookworm → a context without a binary is refused with
#   the ways out → the image's defaults (0.0.0.0, no admin token) start → docker run --network host with
#   an admin token → HEALTHCHECK healthy → smoke over HTTP and over TLS as appleid.apple.com → sign-in through
#   social-auth-core over TLS → SIGTERM exits 0 quickly → restart keeps the CA
#   → docker-compose.host.yml up (settings from the environment only) → healthy → sign-in → down
#   → Examples/ScaleOut/compose.yaml (two replicas, Redis, nginx; Debian image built once and kept) up →
#     healthy → sign-ins through nginx landing on both replicas (Tests/ScaleOut/lb_signin.py) → down;
#   and the image from the release tarball (Dockerfile.release, FROM scratch, nothing pulled) ≤ 20 MB with
#   both builders: healthy, its CA written as 10001, a sign-in verified.
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
this script). Here --binary names a \`--static-swift-stdlib\` release binary; without it
scripts/container-binary.sh builds one.

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
# docker-compose.host.yml as a user runs it: every setting from the environment, nothing edited.
compose() {
    SIWA_MOCK_IMAGE="$tag" SIWA_MOCK_PORT="$port" SIWA_MOCK_TLS_PORT="$tls_port" \
        SIWA_MOCK_PUBLIC_URL="https://appleid.apple.com:$tls_port" \
        timeout 120 docker-compose -p "siwaci$$" -f "$root/docker-compose.host.yml" "$@"
}

# Examples/ScaleOut/compose.yaml as a user runs it, every port from the environment: ~6 s once its Debian
# image (nginx + redis-server, Examples/ScaleOut/Dockerfile, 182 MB) exists. That image is built once
# (apt-get from the Debian mirror, ~60 s) and kept like the imported base, so later runs only start containers.
scaleout_image=siwa-scaleout-debian:bookworm
scaleout() {
    SIWA_MOCK_IMAGE="$tag" SIWA_SCALEOUT_IMAGE="$scaleout_image" SIWA_LB_PORT="$lb_port" SIWA_A_PORT="$a_port" \
        SIWA_B_PORT="$b_port" SIWA_REDIS_PORT="$redis_port" \
        timeout 180 docker-compose -p "siwascale$$" -f "$root/Examples/ScaleOut/compose.yaml" "$@"
}

cleanup() {
    local rc=$?
    set +e
    if [[ -n "$docker_bin" ]] && "$docker_bin" info >/dev/null 2>&1; then
        [[ -n "${port:-}" ]] && compose down -v -t 2 >/dev/null 2>&1
        [[ -n "${lb_port:-}" ]] && scaleout down -v -t 2 >/dev/null 2>&1
        "$docker_bin" rm -f "$name" "$name-defaults" "$name-release" >/dev/null 2>&1
        if [[ "${SIWA_CONTAINER_KEEP:-0}" != 1 ]]; then
            "$docker_bin" rmi -f "$tag" "$tag-buildkit" "$tag-release" >/dev/null 2>&1
            [[ -n "$imported_base" ]] && "$docker_bin" rmi -f "$imported_base" >/dev/null 2>&1
        fi
    fi
    if [[ -n "$dockerd_pid" && "${SIWA_CONTAINER_KEEP:-0}" != 1 ]]; then
        # This run's engine: drop the build stages and cache it left, so /var/lib/docker stays bounded.
        "$docker_bin" image prune -f >/dev/null 2>&1
        "$docker_bin" builder prune -f >/dev/null 2>&1
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

# --- image: the offline route (debootstrap base, host binary), built with the classic builder ------------
limit=$((25 * 1000 * 1000))   # bytes; issue #24: the image stays at or under 25 MB
had_base=0
docker image inspect debian:bookworm-slim >/dev/null 2>&1 && had_base=1
binary_args=()
[[ -n "$binary" ]] && binary_args=(--binary "$binary")
say "scripts/container-offline.sh with the classic builder (DOCKER_BUILDKIT=0, as Debian's docker.io)"
DOCKER="$docker_bin" DOCKER_BUILDKIT=0 SIWA_ROOTFS_CACHE="$cache" timeout 1800 \
    scripts/container-offline.sh --tag "$tag" "${binary_args[@]}" >"$work/offline.log" 2>&1 \
    || { tail -n 40 "$work/offline.log"; fail "scripts/container-offline.sh"; }
[[ "$had_base" == 1 ]] || imported_base=debian:bookworm-slim
grep -E '^\[container-offline\]|^dist/siwa-mock' "$work/offline.log"
size=$(docker image inspect -f '{{.Size}}' "$tag")
say "image $tag: $(( size / 1000 )) kB (limit $(( limit / 1000 )) kB)"
(( size <= limit )) || fail "the image is $size bytes, over $limit"
# The command a reader types, as it is: `docker build .` builds in the official Swift image (the default
# route). Here there is no registry, so it must get as far as pulling that image and fail there: the
# Dockerfile parses and its default route starts from swift:6.3-bookworm (both builders).
swift_base=$(sed -nE 's/^ARG BUILDER_IMAGE=(.*)$/\1/p' Dockerfile)
[[ "$swift_base" == swift:6.3-bookworm ]] || fail "the Dockerfile's default builder is '$swift_base', not swift:6.3-bookworm"
if docker image inspect "$swift_base" >/dev/null 2>&1; then
    say "$swift_base is present locally: the default route would compile, skipping its registry check"
else
    for kit in 0 1; do
        if DOCKER_BUILDKIT=$kit docker build --network host . >"$work/default-$kit.log" 2>&1; then
            fail "docker build . (DOCKER_BUILDKIT=$kit) succeeded without a registry"
        fi
        grep -Eq "FROM (docker.io/library/)?$swift_base|$swift_base" "$work/default-$kit.log" \
            && grep -Eiq 'pull|registry|resolve|lookup|dial tcp|no such host|manifest' "$work/default-$kit.log" \
            && ! grep -q '^error: ' "$work/default-$kit.log" \
            || { tail -n 15 "$work/default-$kit.log"; fail "docker build . (DOCKER_BUILDKIT=$kit) did not stop at pulling $swift_base"; }
        say "DOCKER_BUILDKIT=$kit docker build . → parses, stops at pulling $swift_base: $(grep -Eim1 'pull|resolve|lookup|dial tcp' "$work/default-$kit.log" | cut -c1-140)"
    done
fi
# The host-binary route, as docs/container.md writes it, gives the image the offline script built.
plain_id=$(DOCKER_BUILDKIT=0 docker build -q --build-arg BUILDER_IMAGE=debian:bookworm-slim . 2>"$work/plain.log") \
    || { cat "$work/plain.log"; fail "docker build --build-arg BUILDER_IMAGE=debian:bookworm-slim ."; }
[[ "$plain_id" == "$(docker image inspect -f '{{.Id}}' "$tag")" ]] || fail "the host-binary route gave another image ($plain_id)"
say "DOCKER_BUILDKIT=0 docker build --build-arg BUILDER_IMAGE=debian:bookworm-slim . → the same image"

# BuildKit builds the same Dockerfile from the same context (the binary is already in dist/).
say "docker build with BuildKit (DOCKER_BUILDKIT=1)"
DOCKER_BUILDKIT=1 docker build -q --network host --build-arg BUILDER_IMAGE=debian:bookworm-slim -t "$tag-buildkit" . \
    >"$work/buildkit.log" 2>&1 \
    || { tail -n 30 "$work/buildkit.log"; fail "docker build with BuildKit"; }
bk_size=$(docker image inspect -f '{{.Size}}' "$tag-buildkit")
(( bk_size <= limit )) || fail "the BuildKit image is $bk_size bytes, over $limit"
say "BuildKit image: $(( bk_size / 1000 )) kB"

# Without dist/siwa-mock and without a Swift toolchain, the build stops with the two ways out.
mkdir -p "$work/nobinary"
tar --exclude=.venv --exclude=__pycache__ -c Dockerfile .dockerignore Package.swift Sources Tests | tar -x -C "$work/nobinary"
if DOCKER_BUILDKIT=0 docker build --force-rm --network host --build-arg BUILDER_IMAGE=debian:bookworm-slim \
    -t "$tag-nobinary" "$work/nobinary" >"$work/nobinary.log" 2>&1; then
    docker rmi -f "$tag-nobinary" >/dev/null 2>&1
    fail "a context without dist/siwa-mock built an image"
fi
if ! grep -q 'scripts/container-binary.sh' "$work/nobinary.log" \
    || ! grep -q 'the default without --build-arg BUILDER_IMAGE: docker build .' "$work/nobinary.log"; then
    tail -n 10 "$work/nobinary.log"
    fail "no binary: the build did not say how to get one"
fi
# A binary that needs a library the builder image lacks (curl needs libcurl, which minbase has not) stops
# the build too, instead of giving an image that cannot start.
mkdir -p "$work/nobinary/dist"
cp "$(command -v curl)" "$work/nobinary/dist/siwa-mock"
if DOCKER_BUILDKIT=0 docker build --force-rm --network host --build-arg BUILDER_IMAGE=debian:bookworm-slim \
    -t "$tag-nobinary" "$work/nobinary" >"$work/badbinary.log" 2>&1; then
    docker rmi -f "$tag-nobinary" >/dev/null 2>&1
    fail "a binary that cannot run on the base built an image"
fi
if ! grep -q 'libcurl.so.4 => not found' "$work/badbinary.log" || ! grep -q 'does not run on Debian' "$work/badbinary.log"; then
    tail -n 10 "$work/badbinary.log"
    fail "a binary missing libraries: the build did not say so"
fi
say "no binary in the context, or one missing libraries: refused, saying why and the ways out"

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

# --- the image's defaults: 0.0.0.0, no admin token (in a network namespace of its own) ------------------
# `docker run -p 8080:8080 siwa-mock` must start: the image opts into an open control API on 0.0.0.0
# (SIWA_MOCK_INSECURE_CONTROL_API=1; docs/container.md, "Exposure"). --network none keeps it unreachable.
# Both builders' images: --tls writes the CA into /var/lib/siwa-mock/tls, which must belong to 10001.
for image in "$tag" "$tag-buildkit"; do
    docker image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$image" \
        | grep -qx 'SIWA_MOCK_INSECURE_CONTROL_API=1' || fail "$image does not set SIWA_MOCK_INSECURE_CONTROL_API=1"
    docker run -d --name "$name-defaults" --network none -e SIWA_MOCK_TLS=true "$image" >/dev/null
    wait_healthy "$name-defaults" 30
    docker logs "$name-defaults" 2>/dev/null | grep -q 'listening on https://0.0.0.0:8443' \
        || fail "$image with its defaults: not on 0.0.0.0:8080 and 0.0.0.0:8443"
    docker rm -f "$name-defaults" >/dev/null
done
docker rmi -f "$tag-buildkit" >/dev/null
say "defaults (0.0.0.0:8080 + TLS :8443, no token): both images start and turn healthy"
bash Tests/Docs/testcontainers.sh "$tag" || fail "Testcontainers recipe (Tests/Docs/testcontainers.sh)"
say "Testcontainers recipe: started the image, signed in, reset between tests"

# --- the image from the release tarball: FROM scratch, no Swift image, nothing pulled (Dockerfile.release) --
# The unpacked tarball (scripts/release.sh; .ci/run's release step made it) is the context, as for a user
# who downloaded it. Both builders; ≤ 20 MB; it serves, turns healthy, writes its CA as 10001 and signs in.
release_dir="$(ls -d dist/siwa-mock-*-linux-x86_64 2>/dev/null | sort -V | tail -n 1 || true)"
if [[ -z "$release_dir" ]]; then
    [[ -n "$binary" ]] || fail "no dist/siwa-mock-*-linux-x86_64 (run scripts/release.sh first, or pass --binary)"
    scripts/release.sh --binary "$binary" >"$work/release.log" 2>&1 || { cat "$work/release.log"; fail "scripts/release.sh"; }
    release_dir="$(ls -d dist/siwa-mock-*-linux-x86_64 | sort -V | tail -n 1)"
fi
cmp -s Dockerfile.release "$release_dir/Dockerfile" || fail "$release_dir/Dockerfile is not Dockerfile.release"
release_limit=$((20 * 1000 * 1000))
release_port=$(free_port)
for kit in 0 1; do
    DOCKER_BUILDKIT=$kit docker build -q -t "$tag-release" "$release_dir" >"$work/release-$kit.log" 2>&1 \
        || { tail -n 20 "$work/release-$kit.log"; fail "docker build $release_dir (DOCKER_BUILDKIT=$kit)"; }
    release_size=$(docker image inspect -f '{{.Size}}' "$tag-release")
    (( release_size <= release_limit )) || fail "the tarball's image is $release_size bytes, over $release_limit"
    docker run -d --name "$name-release" --network host -e SIWA_MOCK_HOST=127.0.0.1 -e SIWA_MOCK_PORT="$release_port" \
        -e SIWA_MOCK_TLS=true -e SIWA_MOCK_TLS_PORT=0 "$tag-release" >/dev/null
    wait_healthy "$name-release" 30
    docker exec "$name-release" siwa-mock ca | grep -q 'BEGIN CERTIFICATE' || fail "the tarball's image wrote no CA"
    "$release_dir/bin/siwa-mock" signin --user alice --scope "name email" --nonce n-release \
        --url "http://127.0.0.1:$release_port" >"$work/release-signin.json" \
        || { docker logs "$name-release" 2>&1 | tail -n 20; fail "sign-in against the tarball's image"; }
    grep -q '"nonce":"n-release"' "$work/release-signin.json" || fail "the tarball's image: no verified claims"
    docker rm -f "$name-release" >/dev/null
    docker rmi -f "$tag-release" >/dev/null
    say "DOCKER_BUILDKIT=$kit docker build $release_dir (FROM scratch, no pull): $(( release_size / 1000 )) kB (limit $(( release_limit / 1000 )) kB), healthy, CA written, sign-in verified"
done

# --- run, health, smoke (host network, loopback, with an admin token) -----------------------------------
token="ci-token-$$"
say "docker run --network host (HTTP 127.0.0.1:$port, HTTPS :$tls_port, SIWA_MOCK_ADMIN_TOKEN set)"
start_ms=$(date +%s%3N)
docker run -d --name "$name" --network host -e SIWA_MOCK_HOST=127.0.0.1 -e SIWA_MOCK_PORT="$port" \
    -e SIWA_MOCK_TLS=true -e SIWA_MOCK_TLS_PORT="$tls_port" -e SIWA_MOCK_LOG_FORMAT=json \
    -e SIWA_MOCK_ADMIN_TOKEN="$token" "$tag" >/dev/null
wait_healthy "$name" 30
say "healthy after $(( $(date +%s%3N) - start_ms )) ms (HEALTHCHECK: siwa-mock health)"
docker exec "$name" siwa-mock health >/dev/null || fail "siwa-mock health inside the container"
# getaddrinfo through /etc/nsswitch.conf and /etc/hosts (a name, not an address): what webhooks to a
# compose service name need.
docker exec "$name" siwa-mock health --url "http://localhost:$port" >/dev/null \
    || fail "name resolution inside the container (health --url http://localhost:$port)"
pid=$(docker inspect -f '{{.State.Pid}}' "$name")
[[ "$(stat -c %u:%g "/proc/$pid")" == 10001:10001 ]] || fail "the server does not run as 10001:10001"
[[ "$(docker inspect -f '{{.Config.User}}' "$name")" == 10001:10001 ]] || fail "image USER is not 10001:10001"
unauthorized=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/mock/reset")
[[ "$unauthorized" == 401 ]] || fail "POST /mock/reset without the admin token answered $unauthorized, expected 401"
curl -fsS --max-time 5 -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$port/mock/reset" >/dev/null \
    || fail "POST /mock/reset with the admin token"
docker exec "$name" siwa-mock clock --url "http://127.0.0.1:$port" >/dev/null \
    || fail "a driving verb in the container did not pick up SIWA_MOCK_ADMIN_TOKEN"
say "admin token: /mock/ refused without it (401), accepted with it, verbs read it from the environment"

base="http://127.0.0.1:$port"
curl -fsS --max-time 5 "$base/auth/keys" | grep -qE '"kty": *"RSA"' || fail "GET /auth/keys over HTTP"
curl -fsS --max-time 5 "$base/.well-known/openid-configuration" | grep -q '"issuer":"https://appleid.apple.com"' \
    || fail "discovery document over HTTP"
say "HTTP smoke ok"

docker exec "$name" siwa-mock ca >"$work/ca.pem" || fail "siwa-mock ca in the container"
curl -fsS --max-time 5 "$base/mock/tls/ca.pem" >"$work/ca-http.pem" || fail "GET /mock/tls/ca.pem"
cmp -s "$work/ca.pem" "$work/ca-http.pem" || fail "siwa-mock ca and /mock/tls/ca.pem differ"
resolve=(--resolve "appleid.apple.com:$tls_port:127.0.0.1")
curl -fsS --max-time 5 --cacert "$work/ca.pem" "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" \
    | grep -qE '"kty": *"RSA"' || fail "GET https://appleid.apple.com/auth/keys with the CA"
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
# docker-compose.yml needs a bridge network (its alias), which this engine has not; the host-network file
# is brought up as it is, with only environment variables.
compose config -q || fail "docker-compose.host.yml does not validate"
compose up -d >"$work/compose-up.log" 2>&1 || { cat "$work/compose-up.log"; fail "docker-compose up"; }
cid=$(compose ps -q siwa-mock)
wait_healthy "$cid" 30
curl -fsS --max-time 5 --cacert "$work/ca.pem" "${resolve[@]}" "https://appleid.apple.com:$tls_port/auth/keys" \
    >/dev/null 2>&1 && fail "compose run has a fresh volume, so the old CA must not be trusted"
curl -fsS --max-time 5 "$base/mock/tls/ca.pem" >"$work/ca2.pem"
curl -fsS --max-time 5 "$base/.well-known/openid-configuration" \
    | grep -q "\"token_endpoint\":\"https://appleid.apple.com:$tls_port/auth/token\"" \
    || fail "compose: SIWA_MOCK_PUBLIC_URL from the environment did not reach the discovery document"
"$venv/bin/python" "$here/tls_signin.py" "$tls_port" "$work/ca2.pem" || fail "sign-in through compose over TLS"
compose down -v -t 5 >/dev/null 2>&1 || fail "docker-compose down"
[[ -z "$(compose ps -q)" ]] || fail "docker-compose down left containers"
say "docker-compose.host.yml: up → healthy → sign-in over TLS → down (docker-compose.yml: config valid)"
# --- the scale-out example: two replicas sharing Redis behind nginx ---------------------------------------
lb_port=$(free_port); a_port=$(free_port); b_port=$(free_port); redis_port=$(free_port)
scaleout config -q || fail "Examples/ScaleOut/compose.yaml does not validate"
if ! docker image inspect "$scaleout_image" >/dev/null 2>&1; then
    say "building $scaleout_image (Examples/ScaleOut/Dockerfile: Debian's nginx and redis-server; kept for later runs)"
    scaleout build >"$work/scaleout-build.log" 2>&1 || { tail -n 30 "$work/scaleout-build.log"; fail "compose build"; }
fi
scaleout_ms=$(date +%s%3N)
scaleout up -d >"$work/scaleout-up.log" 2>&1 || { cat "$work/scaleout-up.log"; fail "scale-out compose up"; }
wait_healthy "$(scaleout ps -q lb)" 60
say "Examples/ScaleOut/compose.yaml: redis, siwa-a, siwa-b, lb healthy after $(( $(date +%s%3N) - scaleout_ms )) ms"
secret="$(dist/siwa-mock client-secret --team-id ABCDE12345 --client-id com.example.web --key-id KEY1234567 \
    --key scenarios/keys/AuthKey_KEY1234567.p8)"
"$venv/bin/python" "$here/../ScaleOut/lb_signin.py" --lb "127.0.0.1:$lb_port" --replica "127.0.0.1:$a_port" \
    --replica "127.0.0.1:$b_port" --secret "$secret" || { scaleout logs --tail 20; fail "sign-in through the compose load balancer"; }
for service in siwa-a siwa-b; do
    # Whole log to a file first: `grep -q` stops reading early, and under pipefail the SIGPIPE that
    # docker logs then gets would fail the check although the line is there.
    docker logs "$(scaleout ps -q "$service")" >"$work/$service.log" 2>&1 || fail "docker logs $service"
    grep -q '"path":"/auth/token"' "$work/$service.log" \
        || fail "$service's log has no /auth/token request"
done
scaleout down -v -t 5 >/dev/null 2>&1 || fail "scale-out compose down"
[[ -z "$(scaleout ps -q)" ]] || fail "scale-out compose down left containers"
say "Examples/ScaleOut/compose.yaml: up → healthy → sign-ins through nginx on both replicas → down"
say "all container checks passed; image $(( size / 1000 )) kB (limit $(( limit / 1000 )) kB) in $(( $(date +%s) - t0 )) s"
