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
siwa_run_pytest_suite "$here" "$@"
