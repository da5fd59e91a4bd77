# A pool of background jobs in a script: sourced, never run.  Used by the
# timing report (common/report/report.sh) and the grader's scripts (through
# grader/lib.sh).

# wait_for_slot JOBS: returns once fewer than JOBS of this shell's background
# jobs still run; calling it before starting each job makes a pool of JOBS.
wait_for_slot() {
    while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do wait -n; done
}
