#!/usr/bin/env bash
# The five test helpers' own suites (docs/test-helpers.md), each with its ecosystem's runner, against
# the real binary: pytest, node --test, go test, JUnit 5's console launcher, rspec. They run side by
# side (each starts its own mocks on free ports); every suite's output is shown when it fails.
#
#   bash clients/run.sh --binary .build/release/siwa-mock [python node go java ruby]
#
# Needs python3 with pytest, node >= 18, go, a JDK with Debian's junit5 (/usr/share/java), ruby with
# rspec. No package downloads: every helper is standard library plus its test runner. Each suite also
# runs the shared cases (spec/cases/*.json) and starts spec/hostile_server.py (python3) for its
# hostile-server cases; Go's and JUnit's own tests run side by side where they share nothing.
set -euo pipefail
binary=""
suites=()
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    python|node|go|java|ruby) suites+=("$1"); shift ;;
    *) echo "usage: $0 --binary PATH [python node go java ruby]" >&2; exit 64 ;;
  esac
done
[ -n "$binary" ] || { echo "usage: $0 --binary PATH [python node go java ruby]" >&2; exit 64; }
[ -x "$binary" ] || { echo "clients/run.sh: no executable siwa-mock at $binary" >&2; exit 1; }
[ ${#suites[@]} -gt 0 ] || suites=(python node go java ruby)
SIWA_MOCK_BINARY="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"  # before the cd below
export SIWA_MOCK_BINARY
cd "$(dirname "$0")"
unset SIWA_MOCK_URL SIWA_MOCK_SCENARIO SIWA_MOCK_ADMIN_TOKEN
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each suite also runs its example from docs/test-helpers.md as written (the block marked "run by
# clients/run.sh LANGUAGE"), installed the way the page says (node_modules, a Go replace, the classpath).
example() { python3 ../Tests/Docs/run_blocks.py --extract "clients/run.sh $1" ../docs/test-helpers.md > "$2"; }
here=$(pwd)

run_python() {  # and the page's relay-mail example, which starts its own mock with SMTP
  mkdir -p "$work/python" && example python "$work/python/test_example.py" &&
    example "python (mail)" "$work/python/test_mail_example.py" &&
    PYTHONPATH=python/src PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
      python3 -m pytest -q -p no:cacheprovider -p siwa_mock_pytest.plugin python/tests "$work/python/test_example.py" \
        "$work/python/test_mail_example.py"
}
run_node() {
  mkdir -p "$work/node/node_modules" && ln -s "$here/node" "$work/node/node_modules/siwa-mock" &&
    example node "$work/node/example.test.mjs" && node --test node/test/ "$work/node/example.test.mjs"
}
run_go() {
  mkdir -p "$work/go" && example go "$work/go/example_test.go" &&
    printf 'module example\n\ngo 1.19\n\nrequire siwamock v0.0.0\n\nreplace siwamock => %s/go\n' "$here" > "$work/go/go.mod" &&
    export GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local &&
    (cd go && go test -count=1 ./...) && (cd "$work/go" && go test -count=1 -v . | grep -E '^(---|ok|FAIL)')
}
run_java() {
  local jars=/usr/share/java
  local cp="$jars/junit-jupiter-api.jar:$jars/apiguardian-api.jar:$jars/junit-platform-commons.jar:$jars/opentest4j.jar"
  mkdir -p "$work/java-src" && example java "$work/java-src/SignInTest.java" &&
    javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -nowarn -d "$work/java" -cp "$cp" \
      $(find java/src -name '*.java') "$work/java-src/SignInTest.java" &&
    java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$jars/junit-platform-console-standalone.jar" -cp "$work/java" \
      --select-package siwamock.junit --select-class SignInTest --disable-banner --details=summary --fail-if-no-tests \
      --config junit.jupiter.execution.parallel.enabled=true --config junit.jupiter.execution.parallel.mode.classes.default=concurrent
}
run_ruby() {
  mkdir -p "$work/ruby" && example ruby "$work/ruby/example_spec.rb" && (cd ruby && rspec -I lib spec "$work/ruby/example_spec.rb")
}

source ./suites.sh
side_by_side run_ "$work" "${suites[@]}"
report clients "$work" "${suites[@]}"
