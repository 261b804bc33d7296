#!/usr/bin/env bash
# The packages each ecosystem installs (scripts/package-{python,node,java,ruby}.sh), installed the way
# their users install them into fresh environments and run with each ecosystem's own runner on the
# documented example (docs/test-helpers.md, the blocks clients/run.sh also runs): pytest, node --test,
# the JUnit console launcher, RSpec. No Swift: PATH is /usr/bin:/bin plus the tools' directories
# (checked: no `swift`, no `siwa-mock` before the install), a scratch working directory, HOME and the
# caches in it, no SIWA_MOCK_* variable. Then the same example must FAIL, saying why, when the
# installed binary is missing, not executable, or not the bytes its package recorded, and pass again
# with SIWA_MOCK_BINARY naming an intact copy (the helpers' lookup order: it comes before the package).
#
#   bash Tests/Packaging/run.sh --binary .build/release/siwa-mock [python node java ruby]
#       packs every package twice, into dist/{python,npm,maven,gem} (the scripts' defaults) and a scratch
#       directory, fails unless the two are byte-identical, then runs the tests on dist/
#   bash Tests/Packaging/run.sh --dist dist [python node java ruby]   tests packages made before
#
# The four ecosystems run side by side. Needs what scripts/package-*.sh need, plus python3 (with
# pytest, taken into the venv by --system-site-packages), npm, Debian's junit5 and ruby-rspec. Offline:
# pip --no-index, npm --offline, gem --local.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
usage() { echo "usage: $0 (--binary PATH | --dist DIR) [python node java ruby]" >&2; exit 64; }
binary="" dist="" suites=()
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) [ $# -ge 2 ] || usage; binary="$2"; shift 2 ;;
    --dist) [ $# -ge 2 ] || usage; dist="$2"; shift 2 ;;
    python|node|java|ruby) suites+=("$1"); shift ;;
    *) usage ;;
  esac
done
[ -n "$binary$dist" ] || usage
[ ${#suites[@]} -gt 0 ] || suites=(python node java ruby)
unset SIWA_MOCK_BINARY SIWA_MOCK_URL SIWA_MOCK_SCENARIO SIWA_MOCK_ADMIN_TOKEN SIWA_MOCK_SMTP
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
began=$(date +%s)
dir_of() { case "$1" in node) echo npm ;; java) echo maven ;; ruby) echo gem ;; *) echo "$1" ;; esac; }

if [ -n "$binary" ]; then
  dist=${dist:-$repo/dist}
  mkdir -p "$dist" "$work/again"
  for eco in "${suites[@]}"; do
    rm -rf "${dist:?}/$(dir_of "$eco")"
    for out in "$dist" "$work/again"; do
      bash "$repo/scripts/package-$eco.sh" --binary "$binary" --out "$out/$(dir_of "$eco")" > "$work/pack-$eco-$(basename "$out").log" 2>&1 &
    done
  done
  for job in $(jobs -p); do wait "$job" || { cat "$work"/pack-*.log; echo "packaging failed"; exit 1; }; done
  (cd "$work/again" && find . -type f | sort) > "$work/packed"
  while read -r file; do
    if ! cmp -s "$work/again/$file" "$dist/$file"; then
      echo "packaging is not reproducible: two packings of one binary differ in $file"; exit 1
    fi
  done < "$work/packed"
  echo "packages: $(wc -l < "$work/packed") files, byte-identical when packed twice ($(( $(date +%s) - began ))s):"
  (cd "$work/again" && find . -type f -printf '%P %s\n' | sort | awk '{ printf "  %-92s %9d bytes\n", $1, $2 }')
fi
dist=$(cd "$dist" && pwd)
one() { # the one file in dist/ECO matching a glob
  local found=("$dist"/$1)
  [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}" ] || { echo "expected one $1 in $dist, found: ${found[*]}" >&2; return 1; }
  echo "${found[0]}"
}
example() { python3 "$repo/Tests/Docs/run_blocks.py" --extract "clients/run.sh $1" "$repo/docs/test-helpers.md" > "$2"; }

# A clean environment: PATH of /usr/bin:/bin and the tool's own directory, HOME in the scratch area.
clean() { # DIR [extra PATH dirs...] -- CMD...
  local home=$1; shift
  local path=/usr/bin:/bin
  while [ "$1" != "--" ]; do path="$1:$path"; shift; done
  shift
  mkdir -p "$home"
  # pip reads no configuration (this machine's adds a wheel directory): only the packages in dist/.
  # SIWA_MOCK_BINARY only where a check names one ($with_binary, env_first below).
  env -u SIWA_MOCK_BINARY -u PIP_FIND_LINKS ${with_binary:+SIWA_MOCK_BINARY="$with_binary"} PIP_CONFIG_FILE=/dev/null HOME="$home" XDG_CACHE_HOME="$home/.cache" PATH="$path" "$@"
}
tool_dirs() { # TOOL...: the directories they are in (usually /usr/bin; /usr/local/bin for some npm)
  local tool
  for tool in "$@"; do dirname "$(command -v "$tool")"; done | sort -u | tr '\n' ' '
}
no_swift() { # PATH dirs...: the environment the example runs in has neither swift nor siwa-mock
  local path=/usr/bin:/bin dir
  for dir in "$@"; do path="$dir:$path"; done
  if PATH="$path" command -v swift >/dev/null || PATH="$path" command -v siwa-mock >/dev/null; then
    echo "the test environment's PATH ($path) has swift or siwa-mock before the install"; return 1
  fi
}
# The example must fail, and say PATTERN, while BREAK has damaged the installed binary (RESTORE undoes it).
expect_failure() { # NAME PATTERN BREAK RESTORE -- CMD...
  local name=$1 pattern=$2 break=$3 restore=$4 log="$work/negative.$BASHPID.log"; shift 5
  eval "$break"
  if "$@" > "$log" 2>&1; then eval "$restore"; echo "FAIL: $name: the example passed"; return 1; fi
  eval "$restore"
  if ! grep -qE -- "$pattern" "$log"; then
    echo "FAIL: $name: the example failed without saying '$pattern':"; tail -n 30 "$log"; return 1
  fi
  echo "ok: $name: the example fails: $(grep -oE -m1 -- "$pattern.*" "$log" | cut -c1-120)"
}
# The three damages, on an installed binary at $1; the patterns are the helpers' messages (with the
# path and the two checksums: not the source line a runner may quote).
negatives() { # ECO BINARY PATTERN_MISSING -- CMD...
  local eco=$1 bin=$2 missing=$3; shift 4
  expect_failure "$eco, binary missing" "$missing" "mv '$bin' '$bin.away'" "mv '$bin.away' '$bin'" -- "$@" &&
    expect_failure "$eco, binary not executable" "binary /[^ ]*/siwa-mock is not an executable file" \
      "chmod a-x '$bin'" "chmod 0755 '$bin'" -- "$@" &&
    expect_failure "$eco, binary differs from its checksum" "SHA-256 [0-9a-f]{64}, not the [0-9a-f]{64}" \
      "cp -p '$bin' '$bin.good' && printf x >> '$bin'" "mv '$bin.good' '$bin'" -- "$@" &&
    env_first "$eco" "$bin" -- "$@"
}
# The lookup order stays: SIWA_MOCK_BINARY comes before the package's binary, which is not even checked
# then (here it is changed, and the example passes with an intact copy named by SIWA_MOCK_BINARY).
env_first() { # ECO BINARY -- CMD...
  local eco=$1 bin=$2 log="$work/env-first.$BASHPID.log" status=0; shift 3
  cp -p "$bin" "$bin.good" && printf x >> "$bin"
  with_binary="$bin.good" "$@" > "$log" 2>&1 || status=$?
  mv "$bin.good" "$bin"
  if [ "$status" -ne 0 ]; then echo "FAIL: $eco: SIWA_MOCK_BINARY did not come before the package's binary:"; tail -n 30 "$log"; return 1; fi
  echo "ok: $eco: SIWA_MOCK_BINARY still comes first: the example passes with it while the package's binary is changed"
}

test_python() {
  local w=$work/python python
  python=$(python3 -c 'import sys; print(sys.executable)')
  mkdir -p "$w/project" && example python "$w/project/test_example.py" &&
    example "python (mail)" "$w/project/test_mail_example.py" &&
    # The venv without its own pip (ensurepip costs 5 s of CPU): the interpreter's pip installs into it.
    "$python" -m venv --without-pip --system-site-packages "$w/venv" &&
    no_swift "$w/venv/bin" &&
    pip() { clean "$w/home" "$w/venv/bin" -- "$python" -m pip --python "$w/venv/bin/python" --disable-pip-version-check "$@"; } &&
    pip install -q --no-index --find-links "$dist/python" siwa-mock-pytest &&
    echo "pip installed: $(pip list 2>/dev/null | grep -i '^siwa' | tr -s ' ' | paste -sd ',')" &&
    echo "on the venv's PATH: $(cd "$w/project" && clean "$w/home" "$w/venv/bin" -- siwa-mock --version)" &&
    (cd "$w/project" && clean "$w/home" "$w/venv/bin" -- python -m pytest -q -p no:cacheprovider test_example.py test_mail_example.py) &&
    # The plugin named, other plugins not loaded (the machine's hypothesis takes 2 s to import): the run
    # above showed the entry point loads it.
    (cd "$w/project" && negatives python "$w/venv/bin/siwa-mock" "binary is missing \(looked at /" -- \
      clean "$w/home" "$w/venv/bin" -- env PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
        python -m pytest -q -p no:cacheprovider -p siwa_mock_pytest.plugin test_example.py) &&
    # An sdist (what pip takes on a platform with no wheel) stops with how to get the binary.
    expect_failure "python, the sdist (other platforms)" "prebuilt binary for x86_64 Linux only" : : -- \
      pip install --no-index --find-links "$dist/python" --no-binary siwa-mock --force-reinstall --no-deps siwa-mock
}

test_node() {
  local w=$work/node nodedir
  nodedir=$(tool_dirs node npm)
  mkdir -p "$w/project" && example node "$w/project/example.test.mjs" &&
    echo '{ "name": "example", "private": true }' > "$w/project/package.json" && no_swift $nodedir &&
    (cd "$w/project" && clean "$w/home" $nodedir -- npm install --offline --save-dev --no-audit --no-fund --cache "$w/npm-cache" \
      "$dist"/npm/*.tgz) && one 'npm/siwa-mock-linux-x64-*.tgz' >/dev/null && one 'npm/siwa-mock-[0-9]*.tgz' >/dev/null &&
    (cd "$w/project" && clean "$w/home" $nodedir -- node --test example.test.mjs) &&
    (cd "$w/project" && negatives node "$w/project/node_modules/@siwa-mock/linux-x64/bin/siwa-mock" "binary /[^ ]*/siwa-mock is missing" -- \
      clean "$w/home" $nodedir -- node --test example.test.mjs)
}

test_java() {
  local w=$work/java jars=/usr/share/java jar console jvm1 cached javadir
  jar=$(one 'maven/siwa-mock-junit-*.jar') && console=$jars/junit-platform-console-standalone.jar &&
    mkdir -p "$w/src" && example java "$w/src/SignInTest.java" && javadir=$(tool_dirs java javac) && no_swift $javadir &&
    clean "$w/home" $javadir -- javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -nowarn -d "$w/classes" \
      -cp "$jar:$jars/junit-jupiter-api.jar:$jars/apiguardian-api.jar:$jars/opentest4j.jar" "$w/src/SignInTest.java" &&
    run_java() { # JAR [cache]: the example with only that jar (and JUnit's) on the class path
      (cd "$w" && clean "$w/${2:-home}" $javadir -- java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$console" \
        -cp "$w/classes:$1" --select-class SignInTest --disable-banner --details=summary --fail-if-no-tests)
    } &&
    # Two JVMs side by side on the empty cache (each extracts to its own temporary file and renames it
    # into place): both pass, one file is left.
    { run_java "$jar" > "$w/jvm1.log" 2>&1 & } && jvm1=$! &&
    { run_java "$jar" || { wait "$jvm1"; false; }; } &&
    { wait "$jvm1" || { cat "$w/jvm1.log"; false; }; } &&
    cached=$(echo "$w"/home/.cache/siwa-mock/*/siwa-mock) && [ -x "$cached" ] &&
    [ "$(sha256sum < "$cached" | cut -d' ' -f1)" = "$(basename "$(dirname "$cached")")" ] &&
    [ "$(find "$w/home/.cache/siwa-mock" -type f | wc -l)" -eq 1 ] &&
    echo "two JVMs side by side passed; extracted to $cached (SHA-256 checked, nothing else left)" &&
    # The cache is checked on every start: a cached file changed or not executable is extracted again.
    printf x >> "$cached" && chmod a-x "$cached" && run_java "$jar" > "$w/again.log" 2>&1 &&
    [ -x "$cached" ] && [ "$(sha256sum < "$cached" | cut -d' ' -f1)" = "$(basename "$(dirname "$cached")")" ] &&
    echo "ok: a changed, non-executable cached binary was extracted again and the example passed" &&
    # Jars whose binary is missing or not the bytes they record (the jar is the artifact; a resource has no mode).
    python3 - "$jar" "$w" <<'PY' &&
import sys, zipfile
jar, w = sys.argv[1:]
name = "siwamock/junit/siwa-mock-linux-x86_64"
with zipfile.ZipFile(jar) as src, zipfile.ZipFile(f"{w}/missing.jar", "w") as missing, zipfile.ZipFile(f"{w}/differs.jar", "w") as differs:
    for info in src.infolist():  # a ZipInfo each: writestr records the entry's offset in it
        data = src.read(info)
        if info.filename != name:
            missing.writestr(zipfile.ZipInfo(info.filename, info.date_time), data, zipfile.ZIP_DEFLATED)
        differs.writestr(zipfile.ZipInfo(info.filename, info.date_time), data + b"x" if info.filename == name else data,
                         zipfile.ZIP_DEFLATED)
PY
    expect_failure "java, jar without its binary" "does not carry it" : : -- run_java "$w/missing.jar" home-missing &&
    expect_failure "java, jar whose binary differs from its checksum" "SHA-256 [0-9a-f]{64}, not the [0-9a-f]{64}" : : -- run_java "$w/differs.jar" home-differs &&
    { with_binary=$cached run_java "$w/differs.jar" home-differs > "$w/env-first.log" 2>&1 || { cat "$w/env-first.log"; false; }; } &&
    echo "ok: java: SIWA_MOCK_BINARY still comes first: the example passes with it and the jar whose binary differs"
}

test_ruby() {
  local w=$work/ruby gem rubydir
  gem=$(one 'gem/siwa_mock-*-x86_64-linux.gem') &&
    mkdir -p "$w/project" && example ruby "$w/project/example_spec.rb" && rubydir=$(tool_dirs ruby gem rspec) &&
    no_swift "$w/gems/bin" $rubydir &&
    clean "$w/home" $rubydir -- env GEM_HOME="$w/gems" gem install --local --no-document "$gem" &&
    rspec_in() { (cd "$w/project" && clean "$w/home" "$w/gems/bin" $rubydir -- env GEM_HOME="$w/gems" rspec example_spec.rb); } &&
    rspec_in &&
    negatives ruby "$(echo "$w"/gems/gems/siwa_mock-*-x86_64-linux/libexec/siwa-mock)" "binary /[^ ]*/siwa-mock is missing" -- rspec_in
}

source "$repo/clients/suites.sh"
suite_details() { # under an ok line: the checks that failed as they must, and what was installed where
  echo "  $(grep -c '^ok: .*the example fails' "$2") broken-package checks failed as they must"
  grep -E '^(ok: |pip installed|on the venv|two JVMs)' "$2" | sed 's/^/  /'
}
side_by_side test_ "$work" "${suites[@]}"
status=0
report packaging "$work" "${suites[@]}" || status=1
echo "packaging: $(( $(date +%s) - began ))s wall"
exit $status
