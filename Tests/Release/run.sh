#!/usr/bin/env bash
# The release tarball (scripts/release.sh, docs/releasing.md), as a user without Swift gets it:
#   1. scripts/release.sh --binary PATH --check: packs twice (other mtimes, other umask) and compares the
#      bytes, then verifies the archive (one folder, bin/siwa-mock executable, static, SHA256SUMS exact).
#   2. --verify refuses copies whose binary is missing, not executable, or differs from SHA256SUMS, and
#      one with a file SHA256SUMS does not list — each with its own message.
#   3. The Go helper's one command (siwamocktest.GetRelease, docs/test-helpers.md), curl replaced by the
#      local file, installs a binary that runs.
#   4. An empty root (the binary, the tarball's scenarios/ and /proc; no /lib, /usr or /etc): the binary serves a
#      scenario file from there and a sign-in through it (`siwa-mock signin`, also run inside that root)
#      verifies; the host reads the claims and the discovery document.
#   5. The README's quick start block (marked "run by Tests/Release/run.sh"), verbatim, beside the unpacked
#      tarball in a clean shell without Swift (root: private network namespace, port 8080 free).
# Usage: Tests/Release/run.sh --binary PATH   (a static release binary naming HEAD's commit, as .ci/run
#        builds it with SIWA_MOCK_COMMIT set). Needs root or unprivileged user namespaces for the chroot.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { echo "usage: Tests/Release/run.sh --binary PATH" >&2; exit 64; }; binary="$2"; shift 2 ;;
        *) echo "usage: Tests/Release/run.sh --binary PATH" >&2; exit 64 ;;
    esac
done
[[ -n "$binary" ]] || { echo "usage: Tests/Release/run.sh --binary PATH" >&2; exit 64; }
work="$(mktemp -d /tmp/siwa-release-test.XXXXXX)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill -KILL "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
t0=$(date +%s%N)
say() { printf '[release t+%ss] %s\n' "$(( ($(date +%s%N) - t0) / 1000000000 ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

# --- 1. pack twice, compare, verify ----------------------------------------------------------------------
scripts/release.sh --binary "$binary" --check || fail "scripts/release.sh --check"
tarball="$(ls dist/siwa-mock-*-linux-x86_64.tar.gz | sort -V | tail -n 1)"
name="$(basename "$tarball" .tar.gz)"
version="${name#siwa-mock-}"; version="${version%-linux-x86_64}"
[[ "$(sed -nE 's/^ *static let number = "([0-9.]+)"$/\1/p' Sources/siwa-mock/Support/Version.swift)" == "$version" ]] \
    || fail "$tarball is not the source's version"
cmp -s "dist/bin/siwa-mock" "dist/$name/bin/siwa-mock" || fail "dist/bin/siwa-mock is not the tarball's binary"

# --- 2. broken copies are refused ------------------------------------------------------------------------
# repack CASE: a copy of the tarball with one defect, under $work/CASE/$name.tar.gz.
repack() {
    local dir="$work/$1"
    mkdir -p "$dir" && tar -xzf "$tarball" -C "$dir"
    case "$1" in
        missing) rm "$dir/$name/bin/siwa-mock" ;;
        not-executable) chmod 0644 "$dir/$name/bin/siwa-mock" ;;
        changed) printf 'X' | dd of="$dir/$name/bin/siwa-mock" bs=1 seek=4096 conv=notrunc status=none ;;
        unlisted) echo extra >"$dir/$name/scenarios/extra.yaml" ;;
    esac
    tar -cf - -C "$dir" "$name" | gzip -1 >"$dir/$name.tar.gz"
}
expect_refused() {  # CASE MESSAGE
    repack "$1"
    if scripts/release.sh --verify "$work/$1/$name.tar.gz" >"$work/$1.log" 2>&1; then
        fail "--verify accepted a tarball whose binary is $1"
    fi
    grep -q -- "$2" "$work/$1.log" || { cat "$work/$1.log"; fail "--verify ($1) did not say '$2'"; }
}
expect_refused missing "no bin/siwa-mock"
expect_refused not-executable "bin/siwa-mock is not executable"
expect_refused changed "a file differs from its SHA256SUMS line"
expect_refused unlisted "SHA256SUMS does not list exactly"
say "--verify refuses a binary missing, not executable or changed, and an unlisted file"

# --- 3. the Go helper's one command ----------------------------------------------------------------------
get_release="$(sed -nE '/^const GetRelease = /,/^$/p' clients/go/siwamocktest/siwamocktest.go | grep -oE '"[^"]*"' | tr -d '"' | tr -d '\n')"
[[ "$get_release" == *"/v$version/$name.tar.gz |"* ]] || fail "siwamocktest.GetRelease names another version: $get_release"
grep -qF -- "$get_release" docs/test-helpers.md || fail "docs/test-helpers.md does not show siwamocktest.GetRelease"
home="$work/home"
local_command="${get_release//curl -fsSL https:\/\/github.com\/siwa-mock\/siwa-mock\/releases\/download\/v$version\/$name.tar.gz/cat $PWD/$tarball}"
[[ "$local_command" != "$get_release" ]] || fail "cannot replace the download in: $get_release"
HOME="$home" bash -c "$local_command" || fail "the Go helper's command on the local tarball: $local_command"
[[ "$(ls -A "$home/.local/bin")" == siwa-mock ]] || fail "the Go helper's command left $(ls -A "$home/.local/bin") in ~/.local/bin"
"$home/.local/bin/siwa-mock" --version | grep -q "^siwa-mock $version (" || fail "the installed binary does not run"
say "siwamocktest.GetRelease (curl replaced by the file): ~/.local/bin/siwa-mock only, runs"

# --- 4. an empty root -----------------------------------------------------------------------------------
# /proc is there, as in every container: the Swift runtime reads /proc/self/exe when it starts and aborts
# without it ("Unable to obtain Swift runtime path"). Each command gets a mount and PID namespace of its
# own with a fresh /proc on the empty folder $jail/proc, and the root is only what `find` lists below.
jail="$work/root"
mkdir -p "$jail/proc"
cp "dist/$name/bin/siwa-mock" "$jail/siwa-mock"
cp -r "dist/$name/scenarios" "$jail/scenarios"
contents="$(cd "$jail" && find . -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')"
[[ "$contents" == "./proc ./scenarios ./siwa-mock " && -z "$(ls -A "$jail/proc")" ]] || fail "the empty root holds $contents"
jailed=(unshare --mount --pid --fork --kill-child --mount-proc="$jail/proc" chroot "$jail")
[[ "$(id -u)" == 0 ]] || jailed=(unshare --user --map-root-user "${jailed[@]:1}")
"${jailed[@]}" /siwa-mock --version >/dev/null 2>"$work/jail.err" || { cat "$work/jail.err"; fail "cannot run the binary in an empty root (${jailed[*]})"; }
mkfifo "$work/ready"
"${jailed[@]}" /siwa-mock serve --port 0 --scenario /scenarios/default.yaml >"$work/ready" 2>"$work/serve.log" &
server_pid=$!
url=""
while IFS= read -r -t 20 line; do
    if [[ "$line" == "siwa-mock listening on "* ]]; then url="${line#siwa-mock listening on }"; break; fi
done <"$work/ready"
cat "$work/ready" >/dev/null &
[[ -n "$url" ]] || { cat "$work/serve.log"; fail "the binary in an empty root did not start serving"; }
"${jailed[@]}" /siwa-mock signin --user alice --scope "name email" --nonce n-empty-root --url "$url" \
    >"$work/signin.json" 2>"$work/signin.err" || { cat "$work/signin.err" "$work/serve.log"; fail "sign-in in the empty root"; }
python3 - "$work/signin.json" "$url" <<'PY' || fail "the empty root's sign-in answer"
import json, sys, urllib.request
answer = json.load(open(sys.argv[1]))
claims = answer["claims"]
assert claims["iss"] == "https://appleid.apple.com" and claims["aud"] == "com.example.web", claims
assert claims["email"] == "alice@example.com" and claims["nonce"] == "n-empty-root" and claims["sub"], claims
assert answer["token_response"]["id_token"].count(".") == 2, answer
with urllib.request.urlopen(sys.argv[2] + "/.well-known/openid-configuration", timeout=5) as response:
    assert json.load(response)["issuer"] == "https://appleid.apple.com"
print("empty root: sign-in verified for", claims["sub"], "from", sys.argv[2])
PY
# unshare ignores SIGTERM while its child runs; SIGKILL ends it and --kill-child the server with it.
kill -KILL "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
say "empty root (the binary, scenarios/ and /proc): served a scenario file, signed alice in, id_token verified"
# --- 5. the README's quick start, with the tarball's binary ------------------------------------------------
# The block under "run by Tests/Release/run.sh", verbatim, in a clean shell (no Swift on PATH) in the folder
# the tarball was unpacked in; in a private network and PID namespace, so port 8080 is ours and the mock
# the block leaves ends with it.
block="$(python3 Tests/Docs/run_blocks.py --extract Tests/Release/run.sh README.md)"
[[ "$block" == *"$name/bin"* ]] || fail "README's quick start does not use $name/bin"
if [[ "$(id -u)" == 0 ]] && unshare --net --pid --kill-child --mount-proc true 2>/dev/null; then
    quick="$work/quick"
    mkdir -p "$quick" && tar -xzf "$tarball" -C "$quick"
    (cd "$quick" && timeout -k 5 60 unshare --net --pid --kill-child --mount-proc \
        env -i HOME="$quick" PATH=/usr/bin:/bin:/usr/sbin:/sbin TERM=dumb LANG=C.UTF-8 \
        bash --noprofile --norc -c $'set -e\nip link set lo up\n'"$block") >"$work/quick.log" 2>&1 \
        || { cat "$work/quick.log"; fail "README's quick start (tarball) failed"; }
    python3 - "$work/quick.log" <<'PY' || { cat "$work/quick.log"; fail "README's quick start (tarball) printed no verified sign-in"; }
import json, sys
for line in open(sys.argv[1]):
    try:
        answer = json.loads(line)
    except ValueError:
        continue
    claims = answer.get("claims", {}) if isinstance(answer, dict) else {}
    if claims.get("email") == "alice@example.com" and claims.get("nonce") == "n-1":
        print("README quick start (tarball): verified sign-in for", claims["sub"])
        sys.exit(0)
sys.exit(1)
PY
    say "README's quick start with the tarball's binary: verbatim, clean shell, no Swift on PATH"
else
    say "README's quick start with the tarball's binary: not run (needs root and unshare --net)"
fi
say "release checks passed: $tarball ($(du -k "$tarball" | cut -f1) kB)"
