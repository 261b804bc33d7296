# Sourced by .ci/run: the step clock, background jobs and the closing table of step times.
ci_start=$(date +%s)
ci_step_name=""
ci_step_start=$ci_start
ci_table=()      # "seconds<TAB>name" rows, in order
declare -A ci_bg_pid ci_bg_start

# step NAME: ends the running step (its time goes into the table) and starts NAME.
step() {
    local now
    now=$(date +%s)
    [ -n "$ci_step_name" ] && ci_table+=("$(( now - ci_step_start ))	$ci_step_name")
    ci_step_name="$1"
    ci_step_start=$now
    printf '\n=== %s (t+%ss)\n' "$1" "$(( now - ci_start ))"
}

# bg [--normal] NAME CMD...: runs CMD in the background, in a session of its own, at SCHED_IDLE priority
# (--normal: at normal priority, for work that mostly waits on the network); output to /tmp/siwa-bg-NAME.log.
bg() {
    local policy=(chrt -i 0)
    [ "$1" = --normal ] && { policy=(); shift; }
    local name="$1"; shift
    setsid "${policy[@]}" "$@" >"/tmp/siwa-bg-$name.log" 2>&1 </dev/null &
    ci_bg_pid[$name]=$!
    ci_bg_start[$name]=$(date +%s)
    echo "(background: $name, log /tmp/siwa-bg-$name.log)"
}

# bg_wait NAME: raises the job (every process of its session) to normal priority, so it no longer waits
# for idle CPU, then waits for it; on failure prints the end of its log and exits 1.
bg_wait() {
    local name="$1" pid="${ci_bg_pid[$1]}" rc=0 waited
    waited=$(date +%s)
    for p in $(ps -o pid= -s "$pid" 2>/dev/null); do chrt -o -p 0 "$p" 2>/dev/null || true; done
    wait "$pid" || rc=$?
    ci_table+=("$(( $(date +%s) - ci_bg_start[$name] ))	$name (background; waited $(( $(date +%s) - waited ))s)")
    if [ "$rc" -ne 0 ]; then
        grep -vE '^\[[0-9]+/[0-9]+\]' "/tmp/siwa-bg-$name.log" | tail -n 80
        echo "background job $name failed (exit $rc)"
        exit 1
    fi
}

# The table, printed on exit whatever the outcome; background jobs still running are stopped.
ci_finish() {
    local rc=$? row total
    trap - EXIT
    # Every process of each job's session: SwiftPM starts its compilers in process groups of their own, so
    # stopping the job's process group would leave them compiling.
    for name in "${!ci_bg_pid[@]}"; do
        for p in $(ps -o pid= -s "${ci_bg_pid[$name]}" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
    done
    [ -n "$ci_step_name" ] && ci_table+=("$(( $(date +%s) - ci_step_start ))	$ci_step_name")
    total=$(( $(date +%s) - ci_start ))
    printf '\n=== step times (seconds; exit %s)\n' "$rc"
    for row in "${ci_table[@]}"; do printf '%6s  %s\n' "${row%%	*}" "${row#*	}" | cut -c1-110; done
    printf '%6s  %s\n' "$total" "total ($(( total / 60 )) min $(( total % 60 )) s)"
    exit "$rc"
}
trap ci_finish EXIT
