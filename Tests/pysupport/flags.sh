# The flags every suite runner takes (sourced by the bash runners; the Python runners get the same from
# siwatest.runner). Provides SIWA_COMMON_FLAGS_HELP and siwa_resolve_binary.

SIWA_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SIWA_COMMON_FLAGS_HELP="common flags (the same for every suite runner):
  --binary PATH   the siwa-mock executable to test (default: \$SIWA_MOCK_BINARY, else
                  .build/release/siwa-mock, built with \`swift build -c release --product siwa-mock\`
                  when it is missing)
  -h, --help      this text"

# siwa_resolve_binary [PATH]: prints the absolute path of the executable to test (building the default
# one when it is missing); exits 1 with a message when it is not executable.
siwa_resolve_binary() {
    local path="${1:-${SIWA_MOCK_BINARY:-}}"
    if [[ -z "$path" ]]; then
        path="$SIWA_REPO_ROOT/.build/release/siwa-mock"
        if [[ ! -x "$path" ]]; then
            echo "building the release binary (swift build -c release --product siwa-mock)" >&2
            (cd "$SIWA_REPO_ROOT" && swift build -c release --product siwa-mock >&2)
        fi
    fi
    [[ -x "$path" ]] || { echo "error: siwa-mock binary not executable: $path" >&2; exit 1; }
    realpath "$path"
}

# siwa_run_pytest_suite SUITE_DIR [--binary PATH] [-h] [pytest args...]: the one runner of the pytest
# suites (Interop, Mail). Takes the common flags (`-h` calls the suite's `usage`), makes the suite's venv,
# runs pytest with the rest and exits with its status (1 when it collected no test).
siwa_run_pytest_suite() {
    local here="$1"; shift
    local binary=""
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
            -h|--help) usage; exit 0 ;;
            *) break ;;
        esac
    done
    binary="$(siwa_resolve_binary "$binary")"
    local venv rc=0
    venv="$("$SIWA_REPO_ROOT/Tests/pysupport/venv.sh" "$here")"
    cd "$here"
    "$venv/bin/python" -m pytest -c "$here/pytest.ini" --rootdir "$here" -p no:cacheprovider "--binary=$binary" "$@" || rc=$?
    if [[ $rc -eq 5 ]]; then
        echo "error: pytest collected no tests" >&2
        exit 1
    fi
    exit $rc
}
