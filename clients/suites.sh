# Sourced by clients/run.sh and Tests/Packaging/run.sh: run one function per language side by side and
# report each with its runner's own count line.
#
#   side_by_side PREFIX WORK SUITE...   runs PREFIX$SUITE for each suite in the background, its output in
#                                       WORK/SUITE.log; waits for all of them
#   report LABEL WORK SUITE...          one line per suite, "LABEL/SUITE: ok in Ns: COUNTS" (then what
#                                       `suite_details SUITE LOG` prints, when defined) or FAILED with
#                                       the last 80 lines of its output; returns 1 when one failed

side_by_side() {
  local prefix=$1 work=$2 suite
  shift 2
  for suite in "$@"; do
    (
      began=$(date +%s)
      if "$prefix$suite" > "$work/$suite.log" 2>&1; then status=0; else status=$?; fi
      echo "$status $(( $(date +%s) - began ))" > "$work/$suite.status"
    ) &
  done
  wait
}

runner_counts() { # SUITE LOG: the runner's count line (its first run's, when the log holds several)
  case "$1" in
    python) grep -E '[0-9]+ (passed|failed)' "$2" | head -n 1 ;;
    node) grep -E '^(ℹ|#) (pass|fail) ' "$2" | head -n 2 | tr '\n' ' ' ;;
    go) grep -E '^(ok|FAIL|---)' "$2" | tr '\n' ' ' ;;
    java) grep -E 'tests (successful|failed)' "$2" | head -n 2 | tr -s ' []' ' ' | tr '\n' ' ' ;;
    ruby) grep -E '[0-9]+ examples?, [0-9]+ failures?' "$2" | head -n 1 ;;
  esac
}

report() {
  local label=$1 work=$2 suite status seconds failed=0
  shift 2
  for suite in "$@"; do
    read -r status seconds < "$work/$suite.status"
    if [ "$status" -eq 0 ]; then
      echo "$label/$suite: ok in ${seconds}s: $(runner_counts "$suite" "$work/$suite.log" || true)"
      if declare -F suite_details >/dev/null; then suite_details "$suite" "$work/$suite.log"; fi
    else
      failed=1
      echo "$label/$suite: FAILED (exit $status) in ${seconds}s; its output:"
      sed 's/^/  /' "$work/$suite.log" | tail -n 80
    fi
  done
  return $failed
}
