#!/usr/bin/env bash
# Builds the siwa-mock image with no container registry: the base the host-binary route starts from
# (debian:bookworm-slim) is made with debootstrap from a Debian mirror and imported with `docker import`,
# the binary is built on this host (scripts/container-binary.sh), then `docker build` runs with
# --build-arg BUILDER_IMAGE=debian:bookworm-slim (the Dockerfile's default, the Swift image, needs a registry).
# What CI runs (Tests/Container/run.sh); docs/container.md, "Offline".
#
# Usage: scripts/container-offline.sh [--tag TAG] [--binary PATH]
#   --tag TAG       image to build (default siwa-mock:latest)
#   --binary PATH   package this --static-swift-stdlib release binary instead of building one
# Env: SIWA_ROOTFS_CACHE   the debootstrap tarball, made once (default /var/cache/siwa-mock/bookworm-minbase.tar)
#      SIWA_DEBIAN_MIRROR  (default http://deb.debian.org/debian)
#      DOCKER              the docker CLI (default: docker on PATH); DOCKER_BUILDKIT as docker reads it
# Needs root (debootstrap, only when the base image and the tarball are both missing) and a running engine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tag=siwa-mock:latest
binary_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --tag) [[ $# -ge 2 ]] || { echo "usage: $0 [--tag TAG] [--binary PATH]" >&2; exit 64; }; tag="$2"; shift 2 ;;
        --binary) [[ $# -ge 2 ]] || { echo "usage: $0 [--tag TAG] [--binary PATH]" >&2; exit 64; }
            binary_args=(--binary "$2"); shift 2 ;;
        *) echo "usage: $0 [--tag TAG] [--binary PATH]" >&2; exit 64 ;;
    esac
done
docker="${DOCKER:-docker}"
base=debian:bookworm-slim
cache="${SIWA_ROOTFS_CACHE:-/var/cache/siwa-mock/bookworm-minbase.tar}"
mirror="${SIWA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
say() { printf '[container-offline] %s\n' "$*"; }

# --- base image: Debian bookworm minbase with the two packages the image takes files from ---------------
if "$docker" image inspect "$base" >/dev/null 2>&1; then
    say "$base is already here"
else
    if [[ ! -s "$cache" ]]; then
        command -v debootstrap >/dev/null || { echo "error: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
        rootfs="$(mktemp -d /tmp/siwa-rootfs.XXXXXX)"
        trap 'rm -rf "$rootfs"' EXIT
        say "debootstrap bookworm minbase + libssl3, ca-certificates from $mirror → $cache"
        if ! debootstrap --variant=minbase --include=libssl3,ca-certificates bookworm "$rootfs/root" "$mirror" \
            >"$rootfs/debootstrap.log" 2>&1; then
            tail -n 20 "$rootfs/debootstrap.log" >&2
            echo "error: debootstrap failed (log above)" >&2
            exit 1
        fi
        # Trim like debian:bookworm-slim (docs, man pages, apt caches): ~220 MB → ~85 MB.
        rm -rf "$rootfs/root/var/cache/apt/"*.bin "$rootfs/root/var/cache/apt/archives/"*.deb \
            "$rootfs/root/var/lib/apt/lists/"* "$rootfs/root/usr/share/"{doc,man,info,locale}/*
        mkdir -p "$(dirname "$cache")"
        tar -C "$rootfs/root" -c . >"$cache.tmp" && mv "$cache.tmp" "$cache"
        rm -rf "$rootfs"
        trap - EXIT
    fi
    say "importing $cache as $base"
    "$docker" import - "$base" <"$cache" >/dev/null
fi

# --- binary and image -------------------------------------------------------------------------------
scripts/container-binary.sh "${binary_args[@]}"
# --network host: engines without a bridge network (dockerd --bridge=none) can still run the build's steps;
# nothing in this route reaches the network.
say "docker build --build-arg BUILDER_IMAGE=$base -t $tag . (DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-engine default})"
"$docker" build --network host --build-arg BUILDER_IMAGE="$base" -t "$tag" .
say "built $tag: $(( $("$docker" image inspect -f '{{.Size}}' "$tag") / 1000000 )) MB"
