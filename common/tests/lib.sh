# shellcheck shell=bash
# Sourced by the kit's test scripts: what they share.
#
#   fail MESSAGE...   says "FAIL MESSAGE" and counts it in $failures, which
#                     the script reads at its end for its exit status
#   run_with_progress, copy_kit (bash only): below

fail() { echo "FAIL $*"; failures=$((failures + 1)); }

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

# copy_kit DIR: the kit as git knows it (tracked, or untracked and not
# ignored), copied into DIR: no build outputs come along; its revision is
# stamped in, as in a handout, for the grade's provenance.
copy_kit() {
    local kit
    kit=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    rm -rf "$1" && mkdir -p "$1" &&
        (cd "$kit" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$kit" && xargs -0 cp --parents -t "$1") &&
        { git -C "$kit" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown; } > "$1/grader/kit_revision"
}
