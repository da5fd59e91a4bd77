# Sourced by the grader's own tests: independent cases run a few at once.
# Most of a case's time is one core compiling or one CUDA thread running, or
# a hanging kernel waited for, so cases side by side keep the cores busy
# (grade.sh's limits stretch while a run makes progress, as on any busy
# machine).  What each case prints is held back and shown in the order the
# cases were started, as soon as every case before it has finished.
#
#   pool_case NAME COMMAND...   runs COMMAND in the background, at most
#                               POOL_JOBS at once (default: the CPUs).  A
#                               case that shares NAME (and so its folders
#                               and logs) with one still running waits for
#                               every case before it to end first.
#   pool_settle                 waits for every case started, shows what is
#                               left, and adds the failures the cases
#                               counted (their own `failures`) to this
#                               shell's `failures`; call it before reading
#                               a case's files, and before anything that
#                               must run alone
pool_jobs=${POOL_JOBS:-$(nproc 2>/dev/null || echo 2)}
pool_dir=$(mktemp -d "${TMPDIR:-/tmp}/case-pool.XXXXXX") || exit 2
trap 'rm -rf "$pool_dir"' EXIT
pool_started=0 pool_shown=0
pool_names=() pool_pids=()

# Shows, in order, the output of the finished cases no unfinished case
# comes before.
pool_show_finished() {
    while [ "$pool_shown" -lt "$pool_started" ] && [ -f "$pool_dir/$pool_shown.failures" ]; do
        cat "$pool_dir/$pool_shown.out"
        failures=$((failures + $(cat "$pool_dir/$pool_shown.failures")))
        pool_shown=$((pool_shown + 1))
    done
}

# The names of the cases started and not finished.  A case whose shell
# ended without counting (killed) is a failure of its own.
pool_running() {
    local i names=()
    for ((i = pool_shown; i < pool_started; i++)); do
        [ -f "$pool_dir/$i.failures" ] && continue
        if kill -0 "${pool_pids[i]}" 2>/dev/null; then
            names+=("${pool_names[i]}")
        elif [ ! -f "$pool_dir/$i.failures" ]; then  # not counted in the moment before it ended either
            echo "FAIL ${pool_names[i]}: the case ended before counting its failures" >> "$pool_dir/$i.out"
            echo 1 > "$pool_dir/$i.failures"
        fi
    done
    echo "${names[*]}"
}

# pool_wait MORE: waits until fewer than MORE of this shell's background
# jobs run, or, with MORE = 0, until every case has finished; shows the
# cases that finish meanwhile, and every 30 s which still run, so that a
# long case never looks hung.
pool_wait() {
    local waited=0
    while if [ "$1" -gt 0 ]; then [ "$(jobs -rp | wc -l)" -ge "$1" ]; else [ -n "$(pool_running)" ]; fi; do
        sleep 1
        waited=$((waited + 1))
        pool_show_finished
        [ $((waited % 30)) -eq 0 ] && echo "     ... still running: $(pool_running) (${waited}s)"
    done
}

pool_case() {
    local name=$1 i
    shift
    for ((i = pool_shown; i < pool_started; i++)); do
        [ "${pool_names[i]}" = "$name" ] && { pool_settle; break; }
    done
    pool_wait "$pool_jobs"
    pool_show_finished
    i=$pool_started
    (
        failures=0
        "$@" > "$pool_dir/$i.out" 2>&1
        echo "$failures" > "$pool_dir/$i.failures.tmp" && mv "$pool_dir/$i.failures.tmp" "$pool_dir/$i.failures"
    ) &
    pool_pids[i]=$!
    pool_names[i]=$name
    pool_started=$((i + 1))
}

pool_settle() {
    local i
    pool_wait 0
    for ((i = pool_shown; i < pool_started; i++)); do
        wait "${pool_pids[i]}"
    done
    pool_show_finished
}
