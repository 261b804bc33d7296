# Shared by scripts/package-{python,node,java,ruby}.sh (sourced, not run): the arguments, the stripped
# copy of the binary, its version and SHA-256, and the fixed timestamp every archive entry gets.
#
#   scripts/package-ECO.sh --binary PATH [--out DIR]   (DIR relative to the caller; by default dist/
#                                                     python, dist/npm, dist/maven, dist/gem: the registry's)
#
# Each ecosystem gets its own directory: pip's --find-links reads every archive in a directory as a
# candidate, and would take npm's siwa-mock-VERSION.tgz for a source distribution of siwa-mock.
#
# Reproducible: the same binary and checkout give byte-identical packages (entries sorted, every time
# stamp SOURCE_DATE_EPOCH, else the last commit's time; no build paths). The binary must be the static
# x86_64 Linux release build (Package.swift links release builds static): every package says it runs on
# any x86_64 Linux, so a dynamically linked one is refused here rather than failing on a user's machine.
set -euo pipefail

pkg_name=$(basename "$0" .sh)
pkg_usage() { echo "usage: $0 --binary PATH [--out DIR]" >&2; exit 64; }
pkg_fail() { echo "$pkg_name: $*" >&2; exit 1; }

PKG_BINARY=""
case "$pkg_name" in
  package-node) PKG_OUT=dist/npm ;;
  package-java) PKG_OUT=dist/maven ;;
  package-ruby) PKG_OUT=dist/gem ;;
  *) PKG_OUT=dist/python ;;
esac
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || pkg_usage; PKG_BINARY="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || pkg_usage; PKG_OUT="$2"; shift 2 ;;
    *) pkg_usage ;;
  esac
done
[ -n "$PKG_BINARY" ] || pkg_usage
[ -f "$PKG_BINARY" ] && [ -x "$PKG_BINARY" ] || pkg_fail "no executable siwa-mock at $PKG_BINARY"
PKG_ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$PKG_OUT"
PKG_OUT=$(cd "$PKG_OUT" && pwd)

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$PKG_ROOT" log -1 --format=%ct 2>/dev/null) \
    || pkg_fail "set SOURCE_DATE_EPOCH (not a git checkout, so no commit time to stamp the files with)"
fi
export SOURCE_DATE_EPOCH
# Archivers and compilers read TZ for the stamps they write as local time (jar --date, zip entries).
export TZ=UTC LC_ALL=C

if ! readelf -h "$PKG_BINARY" | grep -q 'Machine:.*X86-64'; then
  pkg_fail "$PKG_BINARY is not an x86_64 ELF binary (the packages carry the x86_64 Linux build)"
fi
if readelf -lW "$PKG_BINARY" | grep -q 'program interpreter'; then
  pkg_fail "$PKG_BINARY is dynamically linked; package the static release build (swift build -c release --product siwa-mock)"
fi

PKG_WORK=$(mktemp -d)
trap 'rm -rf "$PKG_WORK"' EXIT
PKG_STRIPPED="$PKG_WORK/siwa-mock"
strip -o "$PKG_STRIPPED" "$PKG_BINARY"
chmod 0755 "$PKG_STRIPPED"
PKG_SHA256=$(sha256sum "$PKG_STRIPPED" | cut -d' ' -f1)
# `siwa-mock --version` prints "siwa-mock 0.2.0" (maybe followed by the commit): the packages' version.
PKG_VERSION=$("$PKG_STRIPPED" --version | sed -nE '1s/^siwa-mock v?([0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*).*/\1/p')
[ -n "$PKG_VERSION" ] || pkg_fail "cannot read the version from \`$PKG_BINARY --version\`"
