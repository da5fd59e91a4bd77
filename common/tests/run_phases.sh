#!/usr/bin/env bash
# `make test`'s phases, in steps: a step is one phase, or lanes side by
# side, each lane its phases in turn.  Written PHASE, or LANE+LANE where a
# lane is PHASE,PHASE,...; e.g. "test-report+test-slides,test-slurm" runs
# test-report beside test-slides then test-slurm.  Lanes pair phases that
# keep one core busy (their CPU seconds, printed after each, near their
# length) on a machine of two or more; with one core every phase runs in
# turn.  Phases side by side must not build the same files: the objects
# they share are built before (make test's test-shared-builds).
#
# After each phase: "make test: PHASE done in Ns (M s of CPU)".  A lane's
# output is held in a log (TEST_OUT/lanes/) and shown when its step ends,
# in the lanes' order; a phase that fails stops its lane, lets the others
# finish, and fails make test.
#
#   common/tests/run_phases.sh TEST_OUT STEP...
#   (MAKE: the make to run phases with; PREPARE: the pid building the
#   platforms' chroots, when one is, for the message on a failure)
set -u
out=${1:?usage: run_phases.sh TEST_OUT STEP...}
shift
make_cmd=${MAKE:-make}
mkdir -p "$out/lanes" || exit 2
cores=$(nproc 2>/dev/null || echo 1)

# cpu_seconds FILE: the CPU time this shell's finished children took, from
# what `times > FILE` wrote (run by this shell: cpu_seconds.awk says why).
cpu_seconds() { awk -f "$(dirname "$0")/cpu_seconds.awk" "$1"; }

# run_lane TIMES PHASE...: the phases in turn, each one's length and CPU
# seconds said after it; stops at the first that fails.
run_lane() {
    local times=$1 phase start cpu_start
    shift
    for phase in "$@"; do
        start=$SECONDS
        times > "$times"; cpu_start=$(cpu_seconds "$times")
        $make_cmd --no-print-directory "$phase" || { echo "make test: $phase failed"; return 1; }
        times > "$times"
        echo "make test: $phase done in $((SECONDS - start))s ($(( $(cpu_seconds "$times") - cpu_start )) s of CPU)"
    done
}

failed() {
    [ -n "${PREPARE:-}" ] && kill -0 "$PREPARE" 2>/dev/null &&
        echo "make test: the platforms' chroots are still being prepared, and will be in a few minutes (build/platforms/prepare.log)"
    exit 1
}

for step in "$@"; do
    IFS=+ read -r -a lanes <<< "$step"
    if [ "${#lanes[@]}" -eq 1 ] || [ "$cores" -lt 2 ]; then
        IFS=',+' read -r -a phases <<< "$step"
        run_lane "$out/times.txt" "${phases[@]}" || failed
        continue
    fi
    shown=${step//,/ then }
    shown=${shown//+/ beside }
    echo "make test: side by side: $shown"
    pids=() i=0 start=$SECONDS
    for lane in "${lanes[@]}"; do
        IFS=, read -r -a phases <<< "$lane"
        run_lane "$out/lanes/$i.times" "${phases[@]}" > "$out/lanes/$i.log" 2>&1 &
        pids+=($!)
        i=$((i + 1))
    done
    status=0
    for ((i = 0; i < ${#lanes[@]}; i++)); do
        wait "${pids[i]}" || status=1
        cat "$out/lanes/$i.log"
    done
    echo "make test: $shown done in $((SECONDS - start))s"
    [ $status = 0 ] || failed
done
