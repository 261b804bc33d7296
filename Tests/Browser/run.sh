#!/usr/bin/env bash
# Run the browser suite: real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium)
# against a siwa-mock binary and a sample web app served by the test.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../pysupport/flags.sh"
usage() {
    cat <<EOF2
Usage: Tests/Browser/run.sh [--binary PATH] [--screenshots DIR] [pytest args...]
Signs in through the mock's pages in headless Chromium: Apple's JS API in popup and redirect mode,
the consent sheet, web_message, XSS payloads. Arguments after the flags go to pytest (e.g. -k popup).

  --screenshots DIR   also save screenshots of the pages (docs/images is what docs/browser.md shows)
  --chromium PATH     the browser (default: /usr/bin/chromium); --chromedriver PATH likewise
                      (default: /usr/bin/chromedriver)

$SIWA_COMMON_FLAGS_HELP
EOF2
}
binary=""
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
        --screenshots|--chromium|--chromedriver)
            [[ $# -ge 2 ]] || { usage >&2; exit 64; }
            value="$2"
            [[ "$1" == --screenshots ]] && { mkdir -p "$value"; value="$(cd "$value" && pwd)"; }
            extra+=("$1=$value"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) break ;;
    esac
done
binary="$(siwa_resolve_binary "$binary")"
venv="$("$here/../pysupport/venv.sh" "$here")"

cd "$here"
set +e
"$venv/bin/python" -m pytest -c "$here/pytest.ini" --rootdir "$here" -p no:cacheprovider "--binary=$binary" \
    ${extra[@]+"${extra[@]}"} "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit $rc
