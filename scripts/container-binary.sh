#!/usr/bin/env bash
# Builds dist/siwa-mock, the binary the Dockerfile packages on its host-binary route (--build-arg
# BUILDER_IMAGE=debian:bookworm-slim): a release build with the Swift runtime linked in (--static-swift-stdlib: it
# then needs only glibc and OpenSSL 3 at run time), stripped.
# Needs Swift 6.3 and libssl-dev on Linux; build on Debian bookworm (or older): that route takes the
# libraries from debian:bookworm-slim (docs/container.md).
#
# Usage: scripts/container-binary.sh [--binary PATH]
#   --binary PATH   package an existing --static-swift-stdlib release binary instead of building one
# Env: SIWA_STATIC_SCRATCH  build directory (default .build/static, kept apart from the dynamic .build/release)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

binary=""
case "${1:-}" in
    --binary)
        [[ $# -eq 2 ]] || { echo "usage: $0 [--binary PATH]" >&2; exit 64; }
        binary="$2" ;;
    "") ;;
    *) echo "usage: $0 [--binary PATH]" >&2; exit 64 ;;
esac

if [[ -z "$binary" ]]; then
    scratch="${SIWA_STATIC_SCRATCH:-.build/static}"
    swift build -c release --static-swift-stdlib --product siwa-mock --scratch-path "$scratch"
    binary="$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/siwa-mock"
fi
[[ -f "$binary" && -x "$binary" ]] || { echo "error: no executable at $binary" >&2; exit 1; }
if ldd "$binary" 2>/dev/null | grep -q libswiftCore; then
    echo "error: $binary links the Swift runtime dynamically; build it with --static-swift-stdlib" >&2
    exit 1
fi

mkdir -p dist
install -m 0755 "$binary" dist/siwa-mock.tmp
strip dist/siwa-mock.tmp
mv dist/siwa-mock.tmp dist/siwa-mock
echo "dist/siwa-mock: $(du -h dist/siwa-mock | cut -f1) ($(dist/siwa-mock --version)); now: docker build --build-arg BUILDER_IMAGE=debian:bookworm-slim -t siwa-mock ."
