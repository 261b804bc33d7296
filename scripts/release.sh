#!/usr/bin/env bash
# The release tarball, for people without a Swift toolchain (docs/releasing.md):
#   dist/siwa-mock-VERSION-linux-x86_64.tar.gz holding one folder, siwa-mock-VERSION-linux-x86_64/, with
#   bin/siwa-mock (the stripped, fully static release binary), LICENSE, README.md, Dockerfile (the image
#   FROM scratch: Dockerfile.release), scenarios/ (the examples and the published test keys) and SHA256SUMS
#   (every other file's SHA-256). Also dist/bin/siwa-mock: the same stripped binary at a path that does not
#   change with the version (scripts/package-*.sh take it with --binary), and
#   dist/siwa-mock-VERSION-linux-x86_64/: the tarball's folder, unpacked (a `docker build` context).
# Reproducible: the same binary and commit give the same bytes — every mtime is the commit's time, entries
# sorted, owner and group 0 with no names, modes 0755/0644, no paths of the build machine, gzip -n.
#
# Usage:
#   scripts/release.sh [--binary PATH] [--check]
#       Without --binary it builds: SIWA_MOCK_COMMIT=<HEAD> swift build -c release --product siwa-mock.
#       --binary PATH reuses a release binary (CI passes .build/release/siwa-mock); it must be static and
#       name HEAD's commit in --version (build it with SIWA_MOCK_COMMIT set, as .ci/run does).
#       --check packs twice (the second time from files with other mtimes and another umask), fails
#       unless the two archives are byte-identical, then verifies the result as --verify does.
#   scripts/release.sh --verify TARBALL
#       Fails (exit 1, saying what) unless the archive holds one folder named after it whose
#       bin/siwa-mock exists, is executable, is statically linked, matches SHA256SUMS and prints the
#       version the name gives, and SHA256SUMS lists exactly the other files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 64; }
binary="" check=0 verify=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || usage; binary="$2"; shift 2 ;;
        --check) check=1; shift ;;
        --verify) [[ $# -ge 2 ]] || usage; verify="$2"; shift 2 ;;
        -h|--help) usage ;;
        *) usage ;;
    esac
done

die() { echo "release: $*" >&2; exit 1; }
work="$(mktemp -d /tmp/siwa-release.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# True for an x86_64 ELF executable with no program interpreter (no dynamic loader, so no shared library).
is_static() {
    readelf -h "$1" 2>/dev/null | grep -q 'Machine:.*X86-64' && ! readelf -lW "$1" | grep -q 'program interpreter'
}

verify_tarball() {
    local tarball="$1" name dir version entries listed actual
    [[ -f "$tarball" ]] || die "no file $tarball"
    name="$(basename "$tarball" .tar.gz)"
    [[ "$name" =~ ^siwa-mock-([0-9]+\.[0-9]+\.[0-9]+)-linux-x86_64$ ]] \
        || die "$tarball: not named siwa-mock-VERSION-linux-x86_64.tar.gz"
    version="${BASH_REMATCH[1]}"
    local out="$work/verify"
    rm -rf "$out" && mkdir -p "$out"
    tar -xzf "$tarball" -C "$out" --no-same-owner -p || die "$tarball: not a gzip'd tar archive"
    entries="$(ls -A "$out")"
    [[ "$entries" == "$name" ]] || die "$tarball: expected one folder $name/, found: $(echo "$entries" | tr "\n" " ")"
    dir="$out/$name"
    [[ -e "$dir/bin/siwa-mock" ]] || die "$tarball: no bin/siwa-mock"
    [[ -f "$dir/bin/siwa-mock" && ! -L "$dir/bin/siwa-mock" ]] || die "$tarball: bin/siwa-mock is not a regular file"
    [[ -x "$dir/bin/siwa-mock" ]] || die "$tarball: bin/siwa-mock is not executable (mode $(stat -c %a "$dir/bin/siwa-mock"))"
    [[ -f "$dir/SHA256SUMS" ]] || die "$tarball: no SHA256SUMS"
    listed="$(sed -E 's/^[0-9a-f]{64}  //' "$dir/SHA256SUMS" | sort)"
    actual="$(cd "$dir" && find . -type f ! -name SHA256SUMS -printf '%P\n' | sort)"
    [[ "$listed" == "$actual" ]] \
        || die "$tarball: SHA256SUMS does not list exactly the archive's files: $(diff <(echo "$listed") <(echo "$actual") | grep '^[<>]' | tr '\n' ' ')"
    (cd "$dir" && sha256sum --check --strict --quiet SHA256SUMS) >"$work/sums.log" 2>&1 \
        || die "$tarball: a file differs from its SHA256SUMS line: $(grep -v '^sha256sum: WARNING' "$work/sums.log" | tr '\n' ' ')"
    is_static "$dir/bin/siwa-mock" || die "$tarball: bin/siwa-mock is not a statically linked x86_64 ELF executable"
    local said
    said="$("$dir/bin/siwa-mock" --version 2>&1)" || die "$tarball: bin/siwa-mock --version failed: $said"
    [[ "$said" =~ ^siwa-mock\ $version\ \(([0-9a-f]{7,40})\)$ ]] \
        || die "$tarball: bin/siwa-mock --version says '$said', expected 'siwa-mock $version (COMMIT)'"
    echo "release: $tarball verified ($said; $(wc -l <"$dir/SHA256SUMS") files match SHA256SUMS; static)"
}

if [[ -n "$verify" ]]; then
    [[ -z "$binary" && "$check" == 0 ]] || usage
    verify_tarball "$verify"
    exit 0
fi

# --- the binary: built here, or given and checked --------------------------------------------------------
git rev-parse --git-dir >/dev/null 2>&1 || die "not a git checkout: the version names a commit and the mtimes are its time"
head_commit="$(git rev-parse HEAD)"
short_commit="$(git rev-parse --short=7 HEAD)"
source_date="$(git log -1 --format=%ct HEAD)"
version="$(sed -nE 's/^ *static let number = "([0-9.]+)"$/\1/p' Sources/siwa-mock/Support/Version.swift)"
[[ -n "$version" ]] || die "no version number in Sources/siwa-mock/Support/Version.swift"
if ! git diff --quiet HEAD -- Package.swift Sources scenarios LICENSE Dockerfile.release 2>/dev/null; then
    echo "release: warning: uncommitted changes under Package.swift, Sources, scenarios: the archive may not be commit $short_commit" >&2
fi
if [[ -z "$binary" ]]; then
    echo "release: SIWA_MOCK_COMMIT=$short_commit swift build -c release --product siwa-mock" >&2
    SIWA_MOCK_COMMIT="$short_commit" swift build -c release --product siwa-mock >"$work/build.log" 2>&1 \
        || { grep -vE '^\[[0-9]+/[0-9]+\]' "$work/build.log" | tail -n 40 >&2; die "swift build failed"; }
    binary="$(swift build -c release --show-bin-path)/siwa-mock"
fi
[[ -f "$binary" && -x "$binary" ]] || die "no executable at $binary"
is_static "$binary" || die "$binary is not statically linked (Package.swift links release builds static where libc.a, libssl.a and libstdc++.a are installed: libc6-dev, libssl-dev, libstdc++-12-dev)"
said="$("$binary" --version)"
[[ "$said" =~ ^siwa-mock\ ([0-9.]+)(\ \((.*)\))?$ ]] || die "$binary --version says '$said', not 'siwa-mock VERSION (COMMIT)'"
[[ "${BASH_REMATCH[1]}" == "$version" ]] || die "$binary is version ${BASH_REMATCH[1]}, the source says $version"
built_from="${BASH_REMATCH[3]:-no commit}"
[[ "$built_from" =~ ^[0-9a-f]{7,40}$ && "$head_commit" == "$built_from"* ]] \
    || die "$binary names '$built_from', not HEAD ($short_commit); build it as: SIWA_MOCK_COMMIT=\$(git rev-parse --short HEAD) swift build -c release --product siwa-mock"

name="siwa-mock-$version-linux-x86_64"

# stage DIR [perturb]: the archive's folder under DIR/$name. With `perturb`, staged files get other mtimes
# and the umask differs, which the archive must not show.
stage() {
    local dir="$1/$name"
    (
        if [[ "${2:-}" == perturb ]]; then umask 0002; else umask 0022; fi
        mkdir -p "$dir/bin" "$dir/scenarios"
        strip -o "$dir/bin/siwa-mock" "$binary"
        cp LICENSE "$dir/LICENSE"
        cp Dockerfile.release "$dir/Dockerfile"
        git ls-files -z -- 'scenarios/*.yaml' 'scenarios/keys/*' scenarios/README.md \
            | (cd "$root" && xargs -0 cp --parents -t "$dir")
        sed -e "s/@VERSION@/$version/g" -e "s/@COMMIT@/$short_commit/g" scripts/release-readme.md >"$dir/README.md"
        (cd "$dir" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
        find "$dir" -type d -exec chmod 0755 {} +
        find "$dir" -type f -exec chmod 0644 {} +
        chmod 0755 "$dir/bin/siwa-mock"
        # No path of this machine: strip drops the debug sections, which held the source paths.
        if grep -qF "$root/" "$dir/bin/siwa-mock"; then die "the stripped binary still holds the path $root/"; fi
        if [[ "${2:-}" == perturb ]]; then find "$dir" -exec touch -h -d @1 {} +; fi
    )
}

# pack DIR OUT: the reproducible archive of DIR/$name.
pack() {
    LC_ALL=C tar --create --format=gnu --sort=name --mtime="@$source_date" --owner=0 --group=0 --numeric-owner \
        --mode='u+w,go-w' --no-acls --no-xattrs --no-selinux -C "$1" "$name" | gzip -n -9 >"$2"
}

stage "$work/a"
pack "$work/a" "$work/a.tar.gz"
if [[ "$check" == 1 ]]; then
    stage "$work/b" perturb
    pack "$work/b" "$work/b.tar.gz"
    cmp "$work/a.tar.gz" "$work/b.tar.gz" \
        || die "packing twice gave different archives ($(sha256sum "$work/a.tar.gz" "$work/b.tar.gz" | cut -c1-16 | tr '\n' ' '))"
    echo "release: packed twice, byte-identical ($(sha256sum <"$work/a.tar.gz" | cut -c1-16)…)"
fi

mkdir -p dist/bin
rm -rf "dist/$name" "dist/$name.tar.gz"
cp "$work/a.tar.gz" "dist/$name.tar.gz"
tar -xzf "dist/$name.tar.gz" -C dist
cp "dist/$name/bin/siwa-mock" dist/bin/siwa-mock.tmp && mv dist/bin/siwa-mock.tmp dist/bin/siwa-mock
echo "release: dist/$name.tar.gz ($(du -k "dist/$name.tar.gz" | cut -f1) kB, sha256 $(sha256sum <"dist/$name.tar.gz" | cut -c1-16)…), dist/bin/siwa-mock ($said)"
if [[ "$check" == 1 ]]; then verify_tarball "dist/$name.tar.gz"; fi
