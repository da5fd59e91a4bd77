# Shell helpers the grading scripts share (grade.sh, grade_all.sh,
# kit_check.sh, gradescope/run_autograder).  Sourced, never run.

# The backend common/backend.mk would choose: gpu when a GPU and nvcc are
# both there, else the CPU simulator.
detect_backend() {
    local gpus
    gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ "${gpus:-0}" -gt 0 ] && { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
        echo gpu
    else
        echo sim
    fi
}

# A string as the inside of a JSON string literal.
json_string() {
    local s=$1
    s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\t'/    }; s=${s//$'\n'/\\n}; s=${s//$'\r'/}
    printf '%s' "$s" | tr -d '\000-\010\013\014\016-\037'
}

# kit_error WHAT [DETAIL...]: the kit, not the student, cannot grade here.
# Says so on standard error and ends the script with status 2, the status
# `make grade` documents for it.
kit_error() {
    printf "kit error: %s (this is not the student's code)\n" "$1" >&2
    shift
    local line
    for line in "$@"; do printf '  %s\n' "$line" >&2; done
    printf '  No score was given.\n' >&2
    exit 2
}

# run_with_progress LABEL LOG COMMAND...: runs COMMAND with its output in
# LOG, saying every 15 s that it still runs (a test phase must never look
# hung); returns its exit status.
run_with_progress() {
    local label=$1 log=$2 pid waited=0
    shift 2
    "$@" > "$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1
        waited=$((waited + 1))
        if [ $((waited % 15)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
            echo "     ... $label (${waited}s)"
        fi
    done
    wait "$pid"
}
