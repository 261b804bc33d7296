#!/usr/bin/env bash
# Run the mail suite: real mailers (Python smtplib, Django's SMTP backend, swaks, Ruby's mail gem)
# against the private email relay's SMTP listener of a siwa-mock binary (docs/relay-mail.md).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../pysupport/flags.sh"
usage() {
    cat <<EOF
Usage: Tests/Mail/run.sh [--binary PATH] [pytest args...]
Starts a siwa-mock with scenarios/relay-mail.yaml and --smtp-port 0 per test and sends mail with
real clients. Needs the Debian packages swaks and ruby-mail. Arguments after the common flags go
to pytest (e.g. -k starttls).

$SIWA_COMMON_FLAGS_HELP
EOF
}
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) break ;;
    esac
done
binary="$(siwa_resolve_binary "$binary")"
venv="$("$here/../pysupport/venv.sh" "$here")"

cd "$here"
set +e
"$venv/bin/python" -m pytest -c "$here/pytest.ini" --rootdir "$here" -p no:cacheprovider "--binary=$binary" "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit $rc
